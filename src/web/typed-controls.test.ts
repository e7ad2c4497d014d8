import { describe, expect, it } from 'vitest';
import { controlFor, keepsValue } from './typed-controls.js';

describe('the type a control is drawn with for its value', () => {
  it('keeps the values a browser keeps in each type', () => {
    for (const value of ['', '0', '-5', '2.5', '1200.25', '.5', '1e3'])
      expect(keepsValue('number', value)).toBe(true);
    for (const value of ['', '2027-03-01', '2028-02-29']) expect(keepsValue('date', value)).toBe(true);
    for (const value of ['', '00:00', '09:30', '23:59', '23:59:59', '12:00:00.5']) {
      expect(keepsValue('time', value)).toBe(true);
    }
  });

  it('knows the values a browser would blank: not numbers, impossible dates and times', () => {
    for (const value of ['abc', '5 ', ' 5', '1,5', '12.', '+3', 'Infinity', '1e999']) {
      expect(keepsValue('number', value), value).toBe(false);
    }
    for (const value of ['2027-13-45', '2027-02-29', '2027-3-1', 'tomorrow', '0000-01-01']) {
      expect(keepsValue('date', value), value).toBe(false);
    }
    for (const value of ['25:00', '9:30', '12:60', 'noon', '12:00 pm'])
      expect(keepsValue('time', value), value).toBe(false);
  });

  it('draws a value the type would blank as a text box with that type’s keyboard and pattern', () => {
    expect(controlFor('time', '09:00')).toEqual({ type: 'time' });
    expect(controlFor('time', '25:00')).toEqual({ type: 'text', pattern: '[0-9]{2}:[0-9]{2}' });
    expect(controlFor('number', 'abc')).toEqual({
      type: 'text',
      inputMode: 'decimal',
      pattern: '-?[0-9]+([.][0-9]+)?',
    });
    expect(controlFor('date', '2027-13-45')).toEqual({ type: 'text', pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}' });
    expect(controlFor('email', 'not an email')).toEqual({ type: 'email' });
  });
});
