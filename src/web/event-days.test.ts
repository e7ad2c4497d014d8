import { describe, expect, it } from 'vitest';
import { nightRange, nightsOutside } from './event-days.js';

describe('a range of nights as a form gives it', () => {
  it('holds every night from the first to the last, or the first alone when the last is blank', () => {
    expect(nightRange('2030-05-30', '2030-06-02')).toEqual({
      nights: ['2030-05-30', '2030-05-31', '2030-06-01', '2030-06-02'],
    });
    expect(nightRange('2030-05-30', '')).toEqual({ nights: ['2030-05-30'] });
  });

  it('names the field to blame and the problem’s code: a first night that is not a date, a last night before the first or not a date, too many nights', () => {
    expect(nightRange('', '2030-05-01')).toMatchObject({ problem: { field: 'first', code: 'required' } });
    expect(nightRange('2030-02-30', '')).toMatchObject({
      problem: { field: 'first', code: 'invalid_format' },
    });
    expect(nightRange('2030-05-20', '2030-05-18')).toMatchObject({
      problem: { field: 'last', code: 'out_of_range', message: expect.stringContaining('2030-05-20') },
    });
    expect(nightRange('2030-05-20', 'soon')).toMatchObject({
      problem: { field: 'last', code: 'invalid_format' },
    });
    expect(nightRange('2030-01-01', '2031-01-02')).toMatchObject({
      problem: { field: 'last', code: 'too_many', message: expect.stringContaining('(got 367)') },
    });
    expect(nightRange('2030-01-01', '2030-12-31')).toMatchObject({ nights: { length: 365 } });
  });

  it('counts the nights outside the event’s dates', () => {
    const may = [{ startDate: '2030-05-10', endDate: '2030-05-12' }];
    expect(nightsOutside(['2030-05-11', '2030-05-12', '2030-05-13'], may)).toBe(1);
    expect(nightsOutside(['2030-06-01'], [])).toBe(1);
  });
});
