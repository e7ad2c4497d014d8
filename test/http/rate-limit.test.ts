import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { issueKey } from '../../src/app/api-keys.js';
import { createDemo } from '../../src/app/organizations.js';
import { testClock } from '../helpers/rate-limiter-contract.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { clientFor, expectProblem, type Response } from './requests.js';

const LIMIT = 5;
let t: TestApp;

beforeEach(async () => {
  t = await startTestApp({ rateLimitPerMinute: LIMIT });
});
afterEach(() => t.close());

function expectRateLimitHeaders(response: Response) {
  expect(response.headers['ratelimit-limit']).toBe(String(LIMIT));
  expect(response.headers['ratelimit-remaining']).toMatch(/^\d+$/);
  const reset = Number(response.headers['ratelimit-reset']);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

describe('rate limits (D13)', () => {
  it('carries the RateLimit headers on every /v1 response and answers the sixth request with 429', async () => {
    const api = clientFor(t);
    const responses = [
      await api.list(),
      await api.get('not-a-uuid'),
      await api.get(randomUUID()),
      await api.create({ name: 'Counted' }),
      await api.raw({ method: 'GET', url: '/v1/unknown' }),
    ];
    expect(responses.map((response) => response.statusCode)).toEqual([200, 400, 404, 201, 404]);
    responses.forEach((response, index) => {
      expectRateLimitHeaders(response);
      expect(response.headers['ratelimit-remaining']).toBe(String(LIMIT - index - 1));
      expect(response.headers['retry-after']).toBeUndefined();
    });

    const refused = await api.list();
    const body = expectProblem(refused, 429, 'rate_limited');
    expect(body.errors).toBeUndefined();
    expectRateLimitHeaders(refused);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('after five requests in the first second of a minute, asks the sixth to wait 12 s, and lets it in then', async () => {
    const clock = testClock();
    const timed = await startTestApp({
      rateLimiter: createMemoryRateLimiter({ limit: LIMIT, now: clock.now }),
    });
    try {
      const api = clientFor(timed);
      clock.advance(500);
      for (let index = 0; index < LIMIT; index++) expect((await api.list()).statusCode).toBe(200);
      const refused = await api.list();
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.headers['retry-after']).toBe('12');
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.headers['ratelimit-reset']).toBe('60');

      clock.advance(12_000);
      const admitted = await api.list();
      expect(admitted.statusCode).toBe(200);
      expect(admitted.headers['ratelimit-remaining']).toBe('0');
      // Sixty seconds of nothing later, the whole limit is back.
      clock.advance(60_000);
      expect((await api.list()).headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    } finally {
      await timed.close();
    }
  });

  it('carries the headers on 401s', async () => {
    const response = await clientFor(t, null).list();
    expectProblem(response, 401, 'unauthorized');
    expectRateLimitHeaders(response);
  });

  it('counts per key: another key, even of the same user, is unaffected', async () => {
    const api = clientFor(t);
    for (let index = 0; index < LIMIT; index++) expect((await api.list()).statusCode).toBe(200);
    expectProblem(await api.list(), 429, 'rate_limited');

    const sameUser = clientFor(t, (await issueKey(t.deps, t.demo.userId)).key);
    const otherOrganization = clientFor(t, (await createDemo(t.deps)).key);
    for (const client of [sameUser, otherOrganization]) {
      const response = await client.list();
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    }
  });

  it('limits requests without a valid key per client address', async () => {
    const anonymous = (remoteAddress: string, key?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v1/events',
        remoteAddress,
        headers: key === undefined ? {} : { 'x-api-key': key },
      });
    for (let index = 0; index < LIMIT; index++) {
      const key = index % 2 === 0 ? undefined : `evp_0123456789abcdef_${'x'.repeat(32)}`;
      expectProblem(await anonymous('203.0.113.7', key), 401, 'unauthorized');
    }
    const refused = await anonymous('203.0.113.7');
    expectProblem(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Another address is not affected, nor is a valid key sent from the same address.
    expectProblem(await anonymous('203.0.113.8'), 401, 'unauthorized');
    expect((await anonymous('203.0.113.7', t.key)).statusCode).toBe(200);
  });

  it('counts addresses from X-Forwarded-For only when the proxy is trusted (TRUST_PROXY)', async () => {
    const behindProxy = await startTestApp({ rateLimitPerMinute: LIMIT, trustProxy: 1 });
    try {
      const viaProxy = (client: string) =>
        behindProxy.app.inject({
          method: 'GET',
          url: '/v1/events',
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': client },
        });
      for (let index = 0; index < LIMIT; index++)
        expectProblem(await viaProxy('198.51.100.1'), 401, 'unauthorized');
      expectProblem(await viaProxy('198.51.100.1'), 429, 'rate_limited');
      // Another client behind the same proxy keeps its own count.
      expectProblem(await viaProxy('198.51.100.2'), 401, 'unauthorized');
    } finally {
      await behindProxy.close();
    }

    // Without trust, the header is ignored: every request counts against the proxy's own address.
    const spoofed = (client: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v1/events',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': client },
      });
    for (let index = 0; index < LIMIT; index++) await spoofed(`198.51.100.${index + 10}`);
    expectProblem(await spoofed('198.51.100.99'), 429, 'rate_limited');
  });

  it('refuses with 429 before checking the id or the body of an update', async () => {
    const api = clientFor(t);
    for (let index = 0; index < LIMIT; index++) await api.list();
    expectProblem(await api.patch('not-a-uuid', '{"broken":'), 429, 'rate_limited');
  });
});
