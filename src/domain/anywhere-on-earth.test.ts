import { describe, expect, it } from 'vitest';
import { addDays, isPastDate, todayAnywhereOnEarth, utcDateOf } from './anywhere-on-earth.js';

describe('todayAnywhereOnEarth', () => {
  it('is the date in UTC−12: until noon UTC it is still yesterday there', () => {
    expect(todayAnywhereOnEarth('2027-03-10T11:59:59Z')).toBe('2027-03-09');
    expect(todayAnywhereOnEarth('2027-03-10T12:00:00Z')).toBe('2027-03-10');
    expect(todayAnywhereOnEarth('2027-03-10T23:00:00+02:00')).toBe('2027-03-10');
  });
});

describe('isPastDate', () => {
  it('counts a date as past only once it has ended in the last time zone', () => {
    // At 10:00 UTC on the 10th it is 22:00 on the 9th in UTC−12: the 9th is not over yet.
    expect(isPastDate('2027-03-09', '2027-03-10T10:00:00Z')).toBe(false);
    expect(isPastDate('2027-03-08', '2027-03-10T10:00:00Z')).toBe(true);
    // From noon UTC on the 10th, the 9th has ended everywhere.
    expect(isPastDate('2027-03-09', '2027-03-10T12:00:00Z')).toBe(true);
    expect(isPastDate('2027-03-10', '2027-03-10T23:59:59Z')).toBe(false);
  });
});

describe('utcDateOf and addDays', () => {
  it('reads the UTC date of an instant and counts days across month and year ends', () => {
    expect(utcDateOf('2027-03-10T23:30:00-05:00')).toBe('2027-03-11');
    expect(addDays('2027-12-25', 14)).toBe('2028-01-08');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
  });
});
