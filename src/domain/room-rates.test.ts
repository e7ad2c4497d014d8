import { describe, expect, it } from 'vitest';
import { INVALID, Problems } from './problems.js';
import { checkRoomRates, offeredCounts, type RoomRates } from './room-rates.js';

function check(value: unknown) {
  const problems = new Problems();
  const result = checkRoomRates(value, 'rooms', problems);
  return { result, problems: problems.list.map((problem) => [problem.field, problem.code]) };
}

describe('checkRoomRates', () => {
  it('accepts nights of room types with a count and a rate, nights sorted and types in the interface order', () => {
    const { result, problems } = check({
      '2027-05-13': { Double: { count: 5, rate: 210 } },
      '2027-05-12': { Suite: { count: 1, rate: 480.5 }, Single: { count: 20, rate: 180 } },
    });
    expect(problems).toEqual([]);
    expect(result).toEqual({
      '2027-05-12': { Single: { count: 20, rate: 180 }, Suite: { count: 1, rate: 480.5 } },
      '2027-05-13': { Double: { count: 5, rate: 210 } },
    });
    expect(Object.keys((result as RoomRates)['2027-05-12'] ?? {})).toEqual(['Single', 'Suite']);
  });

  it('names every problem by its full path, all at once', () => {
    const { result, problems } = check({
      '2027-05-12': { Single: { count: 2.5, rate: -1 }, Kingsize: { count: 1, rate: 1 } },
      '2027-02-30': { Single: { count: 1, rate: 1 } },
      '2027-05-13': { Double: { count: 1 }, Twin: { count: 1, rate: 1, extra: true }, Suite: 3 },
      '2027-05-14': [],
    });
    expect(result).toBe(INVALID);
    expect(problems).toEqual([
      ['rooms.2027-02-30', 'invalid_date'],
      ['rooms.2027-05-12.Single.count', 'invalid_type'],
      ['rooms.2027-05-12.Single.rate', 'out_of_range'],
      ['rooms.2027-05-12.Kingsize', 'unknown_field'],
      ['rooms.2027-05-13.Double.rate', 'required'],
      ['rooms.2027-05-13.Twin.extra', 'unknown_field'],
      ['rooms.2027-05-13.Suite', 'invalid_type'],
      ['rooms.2027-05-14', 'invalid_type'],
    ]);
  });

  it('refuses a rate with more than two decimals', () => {
    expect(check({ '2027-05-12': { Single: { count: 1, rate: 99.999 } } }).problems).toEqual([
      ['rooms.2027-05-12.Single.rate', 'invalid_format'],
    ]);
  });

  it('treats a null night or room type as not offered and leaves out nights left empty', () => {
    expect(
      check({
        '2027-05-12': null,
        '2027-05-13': { Single: null },
        '2027-05-14': { Twin: { count: 0, rate: 0 } },
      }).result,
    ).toEqual({
      '2027-05-14': { Twin: { count: 0, rate: 0 } },
    });
  });

  it('names a prototype key as an unknown field and never lets it reach an object prototype', () => {
    const body = JSON.parse('{"__proto__": {"Single": {"count": 1, "rate": 1}}}');
    expect(check(body).problems).toEqual([['rooms.__proto__', 'unknown_field']]);
    expect(({} as Record<string, unknown>).Single).toBeUndefined();
  });

  it('refuses more than 400 nights', () => {
    const nights: Record<string, unknown> = {};
    for (let day = 0; day < 401; day++) {
      nights[new Date(Date.UTC(2027, 0, 1 + day)).toISOString().slice(0, 10)] = {
        Single: { count: 1, rate: 1 },
      };
    }
    expect(check(nights).problems).toEqual([['rooms', 'too_many']]);
  });

  it('refuses what is not an object', () => {
    expect(check([]).problems).toEqual([['rooms', 'invalid_type']]);
  });
});

describe('offeredCounts', () => {
  it('keeps the counts without the rates', () => {
    expect(
      offeredCounts({ '2027-05-12': { Single: { count: 20, rate: 180 }, Suite: { count: 1, rate: 480 } } }),
    ).toEqual({
      '2027-05-12': { Single: 20, Suite: 1 },
    });
  });
});
