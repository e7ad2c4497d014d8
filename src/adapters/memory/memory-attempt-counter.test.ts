import { describe, expect, it } from 'vitest';
import { createMemoryAttemptCounter } from './memory-attempt-counter.js';

describe('in-process attempt counter', () => {
  it('counts in a window opened by the first attempt, and starts again from zero when it ends', async () => {
    let now = 1_000_000;
    const counter = createMemoryAttemptCounter({ now: () => now });
    expect(await counter.increment('key', 15_000)).toEqual({ count: 1, resetMs: 15_000 });
    now += 5_000;
    expect(await counter.increment('key', 15_000)).toEqual({ count: 2, resetMs: 10_000 });
    expect(await counter.increment('other', 15_000)).toEqual({ count: 1, resetMs: 15_000 });
    now += 10_000;
    expect(await counter.increment('key', 15_000)).toEqual({ count: 1, resetMs: 15_000 });
  });

  it('takes attempts back, never below zero', async () => {
    const counter = createMemoryAttemptCounter();
    await counter.increment('key', 60_000);
    await counter.decrement('key');
    await counter.decrement('key');
    await counter.decrement('never-counted');
    expect((await counter.increment('key', 60_000)).count).toBe(1);
    expect((await counter.increment('never-counted', 60_000)).count).toBe(1);
  });
});
