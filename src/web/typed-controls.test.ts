import { describe, expect, it } from 'vitest';
import { controlFor, keepsValue } from './typed-controls.js';

describe('the type a control is drawn with for its value', () => {
  it('keeps the values a browser keeps in each type', () => {
    for (const value of ['', '0', '-5', '2.5', '1200.25', '.5', '1e3'])
      expect(keepsValue('number', value)).toBe(true);
    for (const value of ['', '2027-03-01', '2028-02-29']) expect(keepsValue('date', value)).toBe(true);
  });

  it('knows the values a browser would blank: not numbers, impossible dates', () => {
    for (const value of ['abc', '5 ', ' 5', '1,5', '12.', '+3', 'Infinity', '1e999']) {
      expect(keepsValue('number', value), value).toBe(false);
    }
    for (const value of ['2027-13-45', '2027-02-29', '2027-3-1', 'tomorrow', '0000-01-01']) {
      expect(keepsValue('date', value), value).toBe(false);
    }
  });

  it('draws a value the type would blank as a text box with that type’s keyboard and pattern', () => {
    expect(controlFor('number', '5')).toEqual({ type: 'number' });
    expect(controlFor('date', '2027-03-01')).toEqual({ type: 'date' });
    expect(controlFor('number', 'abc')).toEqual({
      type: 'text',
      inputMode: 'decimal',
      pattern: '-?[0-9]+([.][0-9]+)?',
    });
    expect(controlFor('date', '2027-13-45')).toEqual({ type: 'text', pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}' });
    expect(controlFor('email', 'not an email')).toEqual({ type: 'email' });
  });

  it('draws every time as a text box with the 24-hour pattern, valid or not, so it reads as the hint says', () => {
    const time = { type: 'text', pattern: '[0-9]{1,2}:[0-9]{2}' };
    for (const value of ['', '09:00', '9:30', '25:00', 'noon'])
      expect(controlFor('time', value)).toEqual(time);
    expect(new RegExp(`^(?:${time.pattern})$`).test('9:30')).toBe(true);
    expect(new RegExp(`^(?:${time.pattern})$`).test('09:30')).toBe(true);
    expect(new RegExp(`^(?:${time.pattern})$`).test('0930')).toBe(false);
  });
});
