import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, uniqueKeyPrefix } from '../../../test/helpers/redis.js';
import { describeWithService, requireServiceUrl } from '../../../test/helpers/services.js';
import { createRedisAttemptCounter, type RedisAttemptCounter } from './redis-attempt-counter.js';

describeWithService('redis', 'Redis attempt counter', () => {
  const keyPrefix = uniqueKeyPrefix();
  const counters: RedisAttemptCounter[] = [];
  const open = async () => {
    const counter = createRedisAttemptCounter({ url: requireServiceUrl('redis'), keyPrefix });
    counters.push(counter);
    expect(await counter.ready()).toBe(true);
    return counter;
  };
  afterAll(async () => {
    await Promise.all(counters.map((counter) => counter.close()));
    await deleteKeys(keyPrefix);
  });

  it('counts in a window opened by the first attempt, which ends on its own', async () => {
    const counter = await open();
    expect(await counter.increment('window', 300)).toEqual({ count: 1, resetMs: expect.any(Number) });
    const second = await counter.increment('window', 300);
    expect(second.count).toBe(2);
    expect(second.resetMs).toBeGreaterThan(0);
    expect(second.resetMs).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await counter.increment('window', 300)).count).toBe(1);
  });

  it('takes attempts back, never below zero, and never creates a counter', async () => {
    const counter = await open();
    await counter.increment('taken-back', 60_000);
    await counter.decrement('taken-back');
    await counter.decrement('taken-back');
    expect((await counter.increment('taken-back', 60_000)).count).toBe(1);
    await counter.decrement('never-counted');
    expect((await counter.increment('never-counted', 60_000)).count).toBe(1);
  });

  it('shares counts between instances, and counts every one of many concurrent attempts', async () => {
    const [first, second] = [await open(), await open()];
    const tallies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).increment('shared', 60_000)),
    );
    expect(tallies.map((tally) => tally.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });
});

describe('Redis attempt counter without Redis', () => {
  it('lets attempts through uncounted at once, counts each failure and warns once per interval', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const counter = createRedisAttemptCounter({
      url: 'redis://127.0.0.1:1',
      connectTimeoutMs: 200,
      warn: (_message, details) => warnings.push(details),
    });
    try {
      const started = performance.now();
      const tallies = await Promise.all(Array.from({ length: 5 }, () => counter.increment('anyone', 60_000)));
      expect(performance.now() - started).toBeLessThan(500);
      expect(tallies).toEqual(Array(5).fill({ count: 0, resetMs: 0 }));
      await counter.decrement('anyone');
      expect(counter.storeErrors()).toBe(6);
      expect(warnings).toHaveLength(1);
      expect(await counter.ready()).toBe(false);
    } finally {
      await counter.close();
    }
  });
});
