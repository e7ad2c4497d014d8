import { afterAll, describe, expect, it } from 'vitest';
import { awayFromWindowEdge, deleteKeys, uniqueKeyPrefix, withRedis } from '../../../test/helpers/redis.js';
import { describeWithService, requireServiceUrl } from '../../../test/helpers/services.js';
import { createMemoryRateLimiter } from '../memory/memory-rate-limiter.js';
import { createRedisRateLimiter, type RedisRateLimiter } from './redis-rate-limiter.js';

describeWithService('redis', 'Redis rate limiter', () => {
  const keyPrefix = uniqueKeyPrefix();
  const limiters: RedisRateLimiter[] = [];
  const open = async (limit: number, windowMs = 60_000) => {
    const limiter = createRedisRateLimiter({ url: requireServiceUrl('redis'), limit, windowMs, keyPrefix });
    limiters.push(limiter);
    expect(await limiter.ready()).toBe(true);
    return limiter;
  };
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
    await deleteKeys(keyPrefix);
  });

  it('answers each request exactly as the in-process store does', async () => {
    const redis = await open(5);
    const memory = createMemoryRateLimiter({ limit: 5 });
    await awayFromWindowEdge(60_000, 5_000);
    const shared = [];
    const local = [];
    for (let i = 0; i < 8; i++) {
      shared.push(await redis.consume('same-answers'));
      local.push(await memory.consume('same-answers'));
    }
    const figures = ({
      allowed,
      limit,
      remaining,
    }: {
      allowed: boolean;
      limit: number;
      remaining: number;
    }) => ({
      allowed,
      limit,
      remaining,
    });
    expect(shared.map(figures)).toEqual(local.map(figures));
    expect(shared.map((decision) => decision.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(shared[5]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('sets the counter to expire in the same step that counts', async () => {
    const limiter = await open(10, 30_000);
    await limiter.consume('expiring');
    const ttl = await withRedis((redis) => redis.pttl(`${keyPrefix}expiring`));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('counts every one of many concurrent requests, never more than the limit', async () => {
    const limiter = await open(20);
    await awayFromWindowEdge(60_000, 5_000);
    const decisions = await Promise.all(Array.from({ length: 60 }, () => limiter.consume('concurrent')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
  });

  it('keeps the counters of different keys apart', async () => {
    const limiter = await open(1);
    await awayFromWindowEdge(60_000, 5_000);
    expect((await limiter.consume('first')).allowed).toBe(true);
    expect((await limiter.consume('first')).allowed).toBe(false);
    expect((await limiter.consume('second')).allowed).toBe(true);
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
