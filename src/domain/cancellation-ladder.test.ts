import { describe, expect, it } from 'vitest';
import { checkCancellationLadder } from './cancellation-ladder.js';
import { INVALID, Problems } from './problems.js';

function check(value: unknown) {
  const problems = new Problems();
  const result = checkCancellationLadder(value, 'cancellation', problems);
  return { result, problems: problems.list.map((problem) => [problem.field, problem.code]) };
}

describe('checkCancellationLadder', () => {
  it('accepts steps in any order and returns them furthest from the event first', () => {
    expect(
      check([
        { daysBefore: 7, percent: 100 },
        { daysBefore: 90, percent: 25 },
        { daysBefore: 30, percent: 50 },
      ]).result,
    ).toEqual([
      { daysBefore: 90, percent: 25 },
      { daysBefore: 30, percent: 50 },
      { daysBefore: 7, percent: 100 },
    ]);
    expect(check([]).result).toEqual([]);
  });

  it('refuses two steps for the same number of days, naming the later one as sent', () => {
    expect(
      check([
        { daysBefore: 30, percent: 50 },
        { daysBefore: 30, percent: 60 },
      ]).problems,
    ).toEqual([['cancellation[1].daysBefore', 'duplicate']]);
  });

  it('refuses a step nearer the event that charges less than one further away', () => {
    // Cancelled 10 days before: both "fewer than 60 days" (50%) and "fewer than 14 days" (20%) apply.
    expect(
      check([
        { daysBefore: 60, percent: 50 },
        { daysBefore: 14, percent: 20 },
      ]).problems,
    ).toEqual([['cancellation[1].percent', 'out_of_range']]);
  });

  it('names every problem of every step by its path', () => {
    const { result, problems } = check([
      { daysBefore: -1, percent: 101 },
      { percent: 10, note: 'x' },
      'step',
      { daysBefore: 4000, percent: 12.345 },
    ]);
    expect(result).toBe(INVALID);
    expect(problems).toEqual([
      ['cancellation[0].daysBefore', 'out_of_range'],
      ['cancellation[0].percent', 'out_of_range'],
      ['cancellation[1].note', 'unknown_field'],
      ['cancellation[1].daysBefore', 'required'],
      ['cancellation[2]', 'invalid_type'],
      ['cancellation[3].daysBefore', 'out_of_range'],
      ['cancellation[3].percent', 'invalid_format'],
    ]);
  });

  it('refuses more than 20 steps and anything that is not an array', () => {
    const steps = Array.from({ length: 21 }, (_, index) => ({ daysBefore: 100 - index, percent: index }));
    expect(check(steps).problems).toEqual([['cancellation', 'too_many']]);
    expect(check({ daysBefore: 1, percent: 1 }).problems).toEqual([['cancellation', 'invalid_type']]);
  });
});
