/**
 * Rate limits shared by several instances (D13): three apps, each with its own Redis-backed limiter
 * on one Redis, answer one key as a single limit. Without Redis they keep serving (fail-open).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisRateLimiter,
  type RedisRateLimiter,
} from '../../src/adapters/redis/redis-rate-limiter.js';
import { issueKey } from '../../src/app/api-keys.js';
import { buildApp } from '../../src/http/app.js';
import { deleteKeys, uniqueKeyPrefix } from '../helpers/redis.js';
import { describeWithService, requireServiceUrl } from '../helpers/services.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const LIMIT = 30;
/** One request back every two minutes: however long the burst takes here, no allowance returns during it. */
const WINDOW_MS = LIMIT * 120_000;

describeWithService('redis', 'rate limits shared by three instances through Redis', () => {
  const keyPrefix = uniqueKeyPrefix();
  let first: TestApp;
  const limiters: RedisRateLimiter[] = [];
  const apps: FastifyInstance[] = [];
  const limiter = () => {
    const one = createRedisRateLimiter({
      url: requireServiceUrl('redis'),
      limit: LIMIT,
      windowMs: WINDOW_MS,
      keyPrefix,
    });
    limiters.push(one);
    return one;
  };

  beforeAll(async () => {
    first = await startTestApp({ rateLimiter: limiter() });
    apps.push(first.app);
    for (let i = 0; i < 2; i++) apps.push(await buildApp({ deps: first.deps, rateLimiter: limiter() }));
    for (const one of limiters) expect(await one.ready()).toBe(true);
  });
  afterAll(async () => {
    await Promise.all(apps.slice(1).map((app) => app.close()));
    await Promise.all(limiters.slice(1).map((one) => one.close()));
    await first?.close();
    await deleteKeys(keyPrefix);
  });

  it(`accepts at most ${LIMIT} of ${3 * LIMIT} requests of one key spread over the instances, and refuses the rest with 429 and Retry-After`, async () => {
    // A first request compiles each app's routes and schemas; made with another key, it costs this one nothing.
    const warmUpKey = (await issueKey(first.deps, first.demo.userId)).key;
    for (const app of apps) {
      const warmUp = await app.inject({
        method: 'GET',
        url: '/v1/events',
        headers: { 'x-api-key': warmUpKey },
      });
      expect(warmUp.statusCode).toBe(200);
    }
    const responses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, index) =>
        apps[index % 3]!.inject({ method: 'GET', url: '/v1/events', headers: { 'x-api-key': first.key } }),
      ),
    );
    // Counters kept per instance would accept all of them (3 × LIMIT, LIMIT on each instance).
    const accepted = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode === 429);
    console.info(
      `shared rate limit: ${accepted.length} accepted, ${refused.length} refused (limit ${LIMIT})`,
    );
    // Every decision came from Redis: none was let through because Redis failed or was slow.
    expect(limiters.map((one) => one.storeErrors())).toEqual([0, 0, 0]);
    expect(accepted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(2 * LIMIT);
    for (const response of refused) {
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.json()).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(response.headers['ratelimit-remaining']).toBe('0');
    }
  });
});

describe('rate limits when Redis is unreachable', () => {
  let t: TestApp;
  let limiter: RedisRateLimiter;
  const warnings: string[] = [];

  beforeAll(async () => {
    limiter = createRedisRateLimiter({
      url: 'redis://127.0.0.1:1',
      limit: 2,
      connectTimeoutMs: 200,
      warn: (message) => warnings.push(message),
    });
    t = await startTestApp({ rateLimiter: limiter });
  });
  afterAll(() => t?.close());

  it('keeps serving every request promptly (fail-open), warns, and counts each failure for /metrics', async () => {
    const get = () => t.app.inject({ method: 'GET', url: '/v1/events', headers: { 'x-api-key': t.key } });
    // The first request of a fresh app compiles its routes and schemas, Redis or not: not measured.
    expect((await get()).statusCode).toBe(200);
    const timings: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/events',
        headers: { 'x-api-key': t.key },
      });
      timings.push(performance.now() - started);
      expect(response.statusCode).toBe(200);
    }
    timings.sort((a, b) => a - b);
    console.info(
      `fail-open latency over 20 requests: median ${timings[10]!.toFixed(2)} ms, max ${timings[19]!.toFixed(2)} ms`,
    );
    expect(timings[19]).toBeLessThan(250);
    expect(limiter.storeErrors()).toBe(21);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^eventplan_rate_limit_store_errors_total 21$/m);
  });
});
