import { describe, expect, it } from 'vitest';
import { dateText, dayNumber, rangeLength, rangesCover, rangesFromDays, unionOfRanges } from './dates.js';

describe('calendar dates', () => {
  it('accepts real dates and rejects impossible ones', () => {
    expect(dayNumber('2024-02-29')).toBeTypeOf('number');
    expect(dayNumber('2026-02-29')).toBeUndefined();
    expect(dayNumber('2026-13-01')).toBeUndefined();
    expect(dayNumber('2026-1-01')).toBeUndefined();
  });

  it('merges overlapping and touching ranges and single days', () => {
    expect(
      unionOfRanges(
        [
          { startDate: '2026-05-03', endDate: '2026-05-04' },
          { startDate: '2026-05-01', endDate: '2026-05-01' },
        ],
        ['2026-05-02', '2026-05-10'],
      ),
    ).toEqual([
      { startDate: '2026-05-01', endDate: '2026-05-04' },
      { startDate: '2026-05-10', endDate: '2026-05-10' },
    ]);
  });
});

describe('day numbers', () => {
  it('round-trips a date through its day number, years before 100 included', () => {
    for (const date of ['1970-01-01', '2024-02-29', '2026-12-31', '0050-03-01', '9999-12-31']) {
      expect(dateText(dayNumber(date)!)).toBe(date);
    }
    expect(dayNumber('1970-01-02')).toBe(1);
  });

  it('counts both ends of a range', () => {
    expect(rangeLength({ startDate: '2026-05-01', endDate: '2026-05-01' })).toBe(1);
    expect(rangeLength({ startDate: '2026-02-27', endDate: '2026-03-02' })).toBe(4);
    expect(rangeLength({ startDate: '2024-02-27', endDate: '2024-03-02' })).toBe(5);
  });

  it('tells whether a day lies in any of several ranges, ends included', () => {
    const covered = rangesCover([
      { startDate: '2026-06-10', endDate: '2026-06-10' },
      { startDate: '2026-02-27', endDate: '2026-03-01' },
      { startDate: '2026-02-28', endDate: '2026-02-28' },
      { startDate: '2026-03-03', endDate: '2026-03-05' },
    ]);
    for (const day of ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-03', '2026-03-05', '2026-06-10']) {
      expect(covered(day)).toBe(true);
    }
    for (const day of ['2026-02-26', '2026-03-02', '2026-03-06', '2026-06-09', '2026-06-11', '2025-03-04']) {
      expect(covered(day)).toBe(false);
    }
    expect(rangesCover([])('2026-05-01')).toBe(false);
  });
});

describe('ranges from days', () => {
  it('groups consecutive days, across month ends, and drops duplicates', () => {
    const days = ['2026-03-02', '2026-02-28', '2026-03-01', '2026-03-01', '2026-03-05'].map(
      (d) => dayNumber(d)!,
    );
    expect(rangesFromDays(days)).toEqual([
      { startDate: '2026-02-28', endDate: '2026-03-02' },
      { startDate: '2026-03-05', endDate: '2026-03-05' },
    ]);
    expect(rangesFromDays([])).toEqual([]);
  });

  it('returns nothing for no ranges and no days', () => {
    expect(unionOfRanges([], [])).toEqual([]);
  });

  it('absorbs ranges and days that lie inside another range', () => {
    expect(
      unionOfRanges(
        [
          { startDate: '2026-05-01', endDate: '2026-05-10' },
          { startDate: '2026-05-03', endDate: '2026-05-04' },
        ],
        ['2026-05-05', '2026-05-10'],
      ),
    ).toEqual([{ startDate: '2026-05-01', endDate: '2026-05-10' }]);
  });

  it('keeps ranges one day apart separate', () => {
    expect(
      unionOfRanges(
        [
          { startDate: '2026-05-01', endDate: '2026-05-02' },
          { startDate: '2026-05-04', endDate: '2026-05-05' },
        ],
        [],
      ),
    ).toEqual([
      { startDate: '2026-05-01', endDate: '2026-05-02' },
      { startDate: '2026-05-04', endDate: '2026-05-05' },
    ]);
  });
});
