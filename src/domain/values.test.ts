import { describe, expect, it } from 'vitest';
import { INVALID, Problems } from './problems.js';
import {
  canonicalUuid,
  characterCount,
  checkAmount,
  checkDate,
  checkDateRange,
  checkDeadline,
  checkInteger,
  checkMeetingRoomRange,
  checkNonNegativeInteger,
  checkText,
  checkTime,
  isUuid,
} from './values.js';

/** Runs one check and returns what it returned plus the problems it recorded. */
function run<T>(check: (value: unknown, path: string, problems: Problems) => T, value: unknown) {
  const problems = new Problems();
  const result = check(value, 'field', problems);
  return { result, problems: problems.list };
}

describe('characterCount', () => {
  it('counts code points, not UTF-16 units or bytes', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('😀')).toBe(1);
    expect(characterCount('é')).toBe(1);
    // e + combining acute accent: two code points.
    expect(characterCount('e\u0301')).toBe(2);
    expect(characterCount('日本語')).toBe(3);
  });
});

describe('checkText', () => {
  it('accepts text of exactly the limit and rejects one character more', () => {
    expect(run((v, p, pr) => checkText(v, p, pr), 'a'.repeat(1000)).result).toBe('a'.repeat(1000));
    const over = run((v, p, pr) => checkText(v, p, pr), 'a'.repeat(1001));
    expect(over.result).toBe(INVALID);
    expect(over.problems).toEqual([{ field: 'field', code: 'too_long', message: expect.any(String) }]);
  });

  it('counts emoji as one character each', () => {
    expect(run((v, p, pr) => checkText(v, p, pr), '😀'.repeat(1000)).result).toBe('😀'.repeat(1000));
    expect(run((v, p, pr) => checkText(v, p, pr), '😀'.repeat(1001)).problems[0]?.code).toBe('too_long');
  });

  it('counts a combining mark as its own character', () => {
    expect(run((v, p, pr) => checkText(v, p, pr), 'e\u0301'.repeat(500)).problems).toEqual([]);
    expect(run((v, p, pr) => checkText(v, p, pr), `${'e\u0301'.repeat(500)}x`).problems[0]?.code).toBe(
      'too_long',
    );
  });

  it('honours a smaller maximum', () => {
    expect(run((v, p, pr) => checkText(v, p, pr, { max: 3 }), 'abc').problems).toEqual([]);
    expect(run((v, p, pr) => checkText(v, p, pr, { max: 3 }), 'abcd').problems[0]?.code).toBe('too_long');
  });

  it('rejects non-strings naming the type', () => {
    for (const value of [5, true, null, [], {}]) {
      const { result, problems } = run((v, p, pr) => checkText(v, p, pr), value);
      expect(result).toBe(INVALID);
      expect(problems[0]?.code).toBe('invalid_type');
    }
  });

  it('rejects NUL characters and unpaired surrogates but accepts paired ones', () => {
    expect(run((v, p, pr) => checkText(v, p, pr), 'a\u0000b').problems[0]?.code).toBe('invalid_characters');
    expect(run((v, p, pr) => checkText(v, p, pr), 'a\uD800b').problems[0]?.code).toBe('invalid_characters');
    expect(run((v, p, pr) => checkText(v, p, pr), 'a\uDC00').problems[0]?.code).toBe('invalid_characters');
    expect(run((v, p, pr) => checkText(v, p, pr), '\uD83D\uDE00').problems).toEqual([]);
  });

  it('rejects empty and whitespace-only text only when it must not be empty', () => {
    expect(run((v, p, pr) => checkText(v, p, pr), '').result).toBe('');
    expect(run((v, p, pr) => checkText(v, p, pr, { nonEmpty: true }), '').problems[0]?.code).toBe('empty');
    expect(run((v, p, pr) => checkText(v, p, pr, { nonEmpty: true }), ' \t\n').problems[0]?.code).toBe(
      'empty',
    );
  });
});

describe('checkNonNegativeInteger', () => {
  it('accepts 0 and the largest safe integer', () => {
    expect(run(checkNonNegativeInteger, 0).result).toBe(0);
    expect(run(checkNonNegativeInteger, Number.MAX_SAFE_INTEGER).result).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('rejects 2^53 and beyond', () => {
    expect(run(checkNonNegativeInteger, 2 ** 53).problems[0]?.code).toBe('out_of_range');
    expect(run(checkNonNegativeInteger, 1e21).problems[0]?.code).toBe('out_of_range');
  });

  it('rejects negatives, fractions and non-numbers', () => {
    expect(run(checkNonNegativeInteger, -1).problems[0]?.code).toBe('out_of_range');
    expect(run(checkNonNegativeInteger, 1.5).problems[0]?.code).toBe('invalid_type');
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, '3', null, true]) {
      expect(run(checkNonNegativeInteger, value).result).toBe(INVALID);
    }
  });
});

describe('checkInteger', () => {
  it('accepts negative safe integers and rejects unsafe ones', () => {
    expect(run(checkInteger, -5).result).toBe(-5);
    expect(run(checkInteger, -(2 ** 53)).problems[0]?.code).toBe('out_of_range');
    expect(run(checkInteger, 0.5).problems[0]?.code).toBe('invalid_type');
  });
});

describe('checkAmount', () => {
  it('accepts finite amounts with at most two decimals', () => {
    for (const value of [0, 1, 0.1, 0.29, 19.99, 1234567.89, 1e21, 1.5e21, Number.MAX_VALUE]) {
      expect(run(checkAmount, value)).toEqual({ result: value, problems: [] });
    }
  });

  it('rejects more than two decimals, including tiny exponents', () => {
    for (const value of [0.001, 1e-7, 1.23e-5, 19.999, 0.1 + 0.2]) {
      expect(run(checkAmount, value).problems).toEqual([
        { field: 'field', code: 'invalid_format', message: 'must have at most 2 decimal places' },
      ]);
    }
  });

  it('rejects negatives and anything that is not a finite number', () => {
    expect(run(checkAmount, -1).problems[0]?.code).toBe('out_of_range');
    expect(run(checkAmount, -0.01).problems[0]?.code).toBe('out_of_range');
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '10', 'NaN', null]) {
      expect(run(checkAmount, value).problems[0]?.code).toBe('invalid_type');
    }
  });
});

describe('checkDate', () => {
  it('accepts real calendar dates only', () => {
    expect(run(checkDate, '2024-02-29').result).toBe('2024-02-29');
    expect(run(checkDate, '2000-02-29').result).toBe('2000-02-29');
    for (const value of [
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
    ]) {
      expect(run(checkDate, value).problems[0]?.code).toBe('invalid_date');
    }
  });

  it('rejects other spellings of a date', () => {
    for (const value of ['2026-5-01', '20260501', '2026-05-01T00:00:00Z', ' 2026-05-01', '2026-05-01\n']) {
      expect(run(checkDate, value).problems[0]?.code).toBe('invalid_date');
    }
    expect(run(checkDate, 20260501).problems[0]?.code).toBe('invalid_type');
  });

  it('handles years before 100 as ordinary years', () => {
    expect(run(checkDate, '0050-03-01').result).toBe('0050-03-01');
    expect(run(checkDate, '0004-02-29').result).toBe('0004-02-29');
    expect(run(checkDate, '0001-02-29').problems[0]?.code).toBe('invalid_date');
  });
});

describe('checkTime', () => {
  it('accepts 24-hour HH:MM and nothing else', () => {
    for (const value of ['00:00', '09:30', '23:59']) expect(run(checkTime, value).result).toBe(value);
    for (const value of ['24:00', '9:30', '09:60', '09:30:00', '9am', 930]) {
      expect(run(checkTime, value).problems[0]?.code).toBe('invalid_format');
    }
  });
});

describe('checkDeadline', () => {
  it('accepts a plain date and RFC 3339 date-times', () => {
    for (const value of [
      '2026-05-01',
      '2026-05-01T17:00:00Z',
      '2026-05-01t17:00:00z',
      '2026-05-01T17:00:00.123+02:00',
      '2026-05-01T17:00:00-05:30',
      '2016-12-31T23:59:60Z',
    ]) {
      expect(run(checkDeadline, value)).toEqual({ result: value, problems: [] });
    }
  });

  it('rejects date-times without an offset or seconds, and impossible dates', () => {
    for (const value of [
      '2026-05-01T17:00:00',
      '2026-05-01T17:00Z',
      '2026-05-01 17:00:00Z',
      '2026-02-29T10:00:00Z',
      '2026-05-01T24:00:00Z',
      '2026-05-01T17:00:00+24:00',
      'next Friday',
      '',
    ]) {
      expect(run(checkDeadline, value).problems[0]?.code).toBe('invalid_format');
    }
    expect(run(checkDeadline, 1714582800).problems[0]?.code).toBe('invalid_type');
  });
});

describe('checkDateRange', () => {
  it('accepts a one-day range and a range in order', () => {
    const day = { startDate: '2026-05-01', endDate: '2026-05-01' };
    expect(run(checkDateRange, day).result).toEqual(day);
  });

  it('rejects an end before the start, naming endDate', () => {
    expect(run(checkDateRange, { startDate: '2026-05-02', endDate: '2026-05-01' }).problems).toEqual([
      { field: 'field.endDate', code: 'out_of_range', message: 'must not be before startDate' },
    ]);
  });

  it('lists every problem of a range: missing, invalid and unknown keys', () => {
    const { problems } = run(checkDateRange, { startDate: '2026-02-30', extra: 1 });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['field.extra', 'unknown_field'],
      ['field.startDate', 'invalid_date'],
      ['field.endDate', 'required'],
    ]);
  });

  it('rejects a range that is not an object', () => {
    expect(run(checkDateRange, ['2026-05-01', '2026-05-02']).problems[0]?.code).toBe('invalid_type');
  });

  it('still judges the order of the days when the range has an unknown key', () => {
    const { result, problems } = run(checkDateRange, {
      startDate: '2026-05-02',
      endDate: '2026-05-01',
      x: 1,
    });
    expect(result).toBe(INVALID);
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['field.x', 'unknown_field'],
      ['field.endDate', 'out_of_range'],
    ]);
  });
});

describe('checkMeetingRoomRange', () => {
  it('accepts 366 days inclusive and rejects 367', () => {
    expect(run(checkMeetingRoomRange, { startDate: '2026-01-01', endDate: '2027-01-01' }).problems).toEqual(
      [],
    );
    expect(run(checkMeetingRoomRange, { startDate: '2026-01-01', endDate: '2027-01-02' }).problems).toEqual([
      { field: 'field', code: 'too_long', message: expect.stringContaining('367') },
    ]);
  });

  it('still judges the length of a range that has an unknown key', () => {
    const { result, problems } = run(checkMeetingRoomRange, {
      startDate: '2026-01-01',
      endDate: '2027-01-02',
      x: 1,
    });
    expect(result).toBe(INVALID);
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['field.x', 'unknown_field'],
      ['field', 'too_long'],
    ]);
  });

  it('counts a leap day in the 366', () => {
    expect(run(checkMeetingRoomRange, { startDate: '2024-01-01', endDate: '2024-12-31' }).problems).toEqual(
      [],
    );
    expect(
      run(checkMeetingRoomRange, { startDate: '2024-01-01', endDate: '2025-01-01' }).problems[0]?.code,
    ).toBe('too_long');
  });
});

describe('isUuid', () => {
  it('accepts canonical UUIDs in either case', () => {
    expect(isUuid('0b5c1f9e-7c1a-4a53-9d55-2f0a1c3b4d5e')).toBe(true);
    expect(isUuid('0B5C1F9E-7C1A-4A53-9D55-2F0A1C3B4D5E')).toBe(true);
    expect(isUuid('0b5c1f9e7c1a4a539d552f0a1c3b4d5e')).toBe(false);
    expect(isUuid('not-a-uuid')).toBe(false);
  });
});

describe('canonicalUuid', () => {
  it('writes a UUID in lower case and leaves anything else as it is', () => {
    expect(canonicalUuid('0B5C1F9E-7C1A-4A53-9D55-2F0A1C3B4D5E')).toBe(
      '0b5c1f9e-7c1a-4a53-9d55-2f0a1c3b4d5e',
    );
    expect(canonicalUuid('0b5c1f9e-7c1a-4a53-9d55-2f0a1c3b4d5e')).toBe(
      '0b5c1f9e-7c1a-4a53-9d55-2f0a1c3b4d5e',
    );
    expect(canonicalUuid('NOT-A-UUID')).toBe('NOT-A-UUID');
    expect(canonicalUuid('0B5C1F9E7C1A4A539D552F0A1C3B4D5E')).toBe('0B5C1F9E7C1A4A539D552F0A1C3B4D5E');
  });
});
