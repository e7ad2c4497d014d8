import { afterAll, describe, expect, it } from 'vitest';
import { rateLimiterContract, testClock } from '../../../test/helpers/rate-limiter-contract.js';
import { deleteKeys, uniqueKeyPrefix, withRedis } from '../../../test/helpers/redis.js';
import { describeWithService, requireServiceUrl } from '../../../test/helpers/services.js';
import { createMemoryRateLimiter } from '../memory/memory-rate-limiter.js';
import { createRedisRateLimiter, type RedisRateLimiter } from './redis-rate-limiter.js';

describeWithService('redis', 'Redis rate limiter', () => {
  const keyPrefix = uniqueKeyPrefix();
  const limiters: RedisRateLimiter[] = [];
  const open = async (options: { limit: number; windowMs?: number; now?: () => number }) => {
    const limiter = createRedisRateLimiter({ url: requireServiceUrl('redis'), keyPrefix, ...options });
    limiters.push(limiter);
    expect(await limiter.ready()).toBe(true);
    return limiter;
  };
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
    await deleteKeys(keyPrefix);
  });

  describe('on a clock the test moves', () => {
    rateLimiterContract((options) => open(options));
  });

  it('answers each request exactly as the in-process store does', async () => {
    const clock = testClock();
    const redis = await open({ limit: 5, now: clock.now });
    const memory = createMemoryRateLimiter({ limit: 5, now: clock.now });
    const shared = [];
    const local = [];
    for (let i = 0; i < 40; i++) {
      shared.push(await redis.consume('same-answers'));
      local.push(await memory.consume('same-answers'));
      clock.advance((i % 4) * 1_700);
    }
    expect(shared).toEqual(local);
    expect(shared.filter((decision) => !decision.allowed).length).toBeGreaterThan(0);
  });

  it("uses Redis's clock when given none, and sets the key to expire when the allowance is whole again", async () => {
    const limiter = await open({ limit: 10, windowMs: 30_000 });
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await limiter.consume('expiring'));
    expect(decisions.map((decision) => decision.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(decisions[10]!.retryAfterSeconds).toBeLessThanOrEqual(3);
    const ttl = await withRedis((redis) => redis.pttl(`${keyPrefix}expiring`));
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('counts every one of many concurrent requests, never more than the limit', async () => {
    const limiter = await open({ limit: 20, now: testClock().now });
    const decisions = await Promise.all(Array.from({ length: 60 }, () => limiter.consume('concurrent')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
  });
});

describe('Redis rate limiter without Redis', () => {
  it('lets requests through at once, counts each failure and warns at most once per interval', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const limiter = createRedisRateLimiter({
      url: 'redis://127.0.0.1:1',
      limit: 1,
      connectTimeoutMs: 200,
      warn: (_message, details) => warnings.push(details),
    });
    try {
      const started = performance.now();
      const decisions = await Promise.all(Array.from({ length: 5 }, () => limiter.consume('anyone')));
      const elapsed = performance.now() - started;
      expect(decisions.every((decision) => decision.allowed)).toBe(true);
      expect(elapsed).toBeLessThan(500);
      expect(limiter.storeErrors()).toBe(5);
      expect(warnings).toHaveLength(1);
      expect(await limiter.ready()).toBe(false);
    } finally {
      await limiter.close();
    }
  });
});
