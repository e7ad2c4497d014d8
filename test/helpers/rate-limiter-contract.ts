/**
 * What every rate-limit store must answer, on a clock the test moves: run by the in-process store's
 * tests and by the Redis store's. Each test uses keys of its own.
 */
import { expect, it } from 'vitest';
import type { RateLimitDecision, RateLimiter } from '../../src/ports/rate-limiter.js';

export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

/** A clock at the start of a minute (where the old sliding-window estimate answered worst). */
export function testClock(start = Date.UTC(2027, 0, 12, 10, 15, 0)): TestClock {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}

export type OpenLimiter = (options: { limit: number; now: () => number }) => Promise<RateLimiter>;

async function consumeTimes(limiter: RateLimiter, key: string, times: number) {
  const decisions: RateLimitDecision[] = [];
  for (let index = 0; index < times; index++) decisions.push(await limiter.consume(key));
  return decisions;
}

export function rateLimiterContract(open: OpenLimiter) {
  it('after 5 requests in the first second of a minute (limit 5), asks for a wait within the minute, not 71 s', async () => {
    const clock = testClock();
    const limiter = await open({ limit: 5, now: clock.now });
    clock.advance(500);
    const decisions = await consumeTimes(limiter, 'first-second', 6);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false]);
    const refused = decisions[5]!;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // One request every 60 / 5 seconds: the sixth waits for the first interval to pass.
    expect(refused.retryAfterSeconds).toBe(12);
    expect(refused.remaining).toBe(0);
    expect(refused.limit).toBe(5);
  });

  it('lets in a client that waits what Retry-After says, and not one that waits a second less', async () => {
    const clock = testClock();
    const limiter = await open({ limit: 5, now: clock.now });
    clock.advance(500);
    await consumeTimes(limiter, 'waits', 5);
    const refused = await limiter.consume('waits');
    expect(refused.allowed).toBe(false);
    clock.advance((refused.retryAfterSeconds - 1) * 1000);
    const early = await limiter.consume('waits');
    expect(early.allowed).toBe(false);
    expect(early.retryAfterSeconds).toBe(1);
    clock.advance(1000);
    expect((await limiter.consume('waits')).allowed).toBe(true);
  });

  it('never asks for more than a minute, and every wait it asks for is enough, whatever the pattern of requests', async () => {
    for (const limit of [1, 2, 5, 7, 60]) {
      const clock = testClock();
      const limiter = await open({ limit, now: clock.now });
      const key = `patterns-${limit}`;
      // A deterministic pattern of bursts and pauses, from a fixed seed.
      let seed = limit;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      let refusals = 0;
      for (let round = 0; round < 40; round++) {
        const burst = 1 + Math.floor(random() * limit * 2);
        for (const decision of await consumeTimes(limiter, key, burst)) {
          if (decision.allowed) continue;
          expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
          expect(decision.retryAfterSeconds).toBeLessThanOrEqual(60);
        }
        const last = await limiter.consume(key);
        if (!last.allowed) {
          refusals++;
          clock.advance(last.retryAfterSeconds * 1000);
          expect((await limiter.consume(key)).allowed).toBe(true);
        }
        clock.advance(Math.floor(random() * 30_000));
      }
      expect(refusals).toBeGreaterThan(0);
    }
  });

  it('is exact: N at once and not N + 1, then one every 60 / N seconds, N a minute', async () => {
    const clock = testClock();
    const limiter = await open({ limit: 5, now: clock.now });
    const burst = await consumeTimes(limiter, 'exact', 6);
    expect(burst.map((decision) => decision.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(burst.filter((decision) => decision.allowed)).toHaveLength(5);
    // A client retrying every 100 ms for ten minutes gets one request every 12 s: 50 more, no more.
    let allowed = 0;
    for (let tick = 1; tick <= 6000; tick++) {
      clock.advance(100);
      if ((await limiter.consume('exact')).allowed) allowed++;
    }
    expect(allowed).toBe(50);
  });

  it('says how many requests are left and when the whole limit is back', async () => {
    const clock = testClock();
    const limiter = await open({ limit: 600, now: clock.now });
    const first = await limiter.consume('headers');
    expect(first).toEqual({
      allowed: true,
      limit: 600,
      remaining: 599,
      resetSeconds: 1,
      retryAfterSeconds: 0,
    });
    const decisions = await consumeTimes(limiter, 'headers', 599);
    expect(decisions.at(-1)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
    // 30 s later, half the allowance is back.
    clock.advance(30_000);
    expect(await limiter.consume('headers')).toMatchObject({
      allowed: true,
      remaining: 299,
      resetSeconds: 31,
    });
  });

  it('keeps the allowances of different keys apart', async () => {
    const clock = testClock();
    const limiter = await open({ limit: 1, now: clock.now });
    expect((await limiter.consume('first')).allowed).toBe(true);
    expect((await limiter.consume('first')).allowed).toBe(false);
    expect((await limiter.consume('second')).allowed).toBe(true);
  });
}
