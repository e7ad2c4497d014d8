import { describe, expect, it } from 'vitest';
import { nextAttemptDelay, parseRetrySchedule, RETRY_JITTER } from './retry-schedule.js';

describe('retry schedules', () => {
  it('reads delays with their units', () => {
    expect(parseRetrySchedule('10s,1m,5m,30m,2h,6h,24h')).toEqual([
      10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 86_400_000,
    ]);
    expect(parseRetrySchedule(' 250ms , 1d ')).toEqual([250, 86_400_000]);
  });

  it('refuses a text that is not a list of 1 to 50 delays', () => {
    for (const text of ['', '10', '10x', '1m,,2m', '-1s', '1.5s', Array(51).fill('1s').join(',')]) {
      expect(parseRetrySchedule(text), text).toBeUndefined();
    }
  });

  it('gives the delay after each failed attempt, moved by at most the jitter, until the schedule is spent', () => {
    const schedule = [1000, 60_000];
    expect(nextAttemptDelay(schedule, 1, 0.5)).toBe(1000);
    expect(nextAttemptDelay(schedule, 2, 0)).toBe(60_000 * (1 - RETRY_JITTER));
    expect(nextAttemptDelay(schedule, 2, 0.999_999)).toBeLessThanOrEqual(60_000 * (1 + RETRY_JITTER));
    expect(nextAttemptDelay(schedule, 3, 0.5)).toBeUndefined();
  });
});
