import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { createRedisRateLimiter } from '../../src/adapters/redis/redis-rate-limiter.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { buildApp } from '../../src/http/app.js';
import { createMetrics } from '../../src/http/metrics.js';
import { type OpsApp, startOpsApp } from './ops-app.js';

const PROBLEM = 'application/problem+json';

describe('/healthz and /readyz', () => {
  let ops: OpsApp;
  beforeAll(async () => {
    ops = await startOpsApp({ rateLimitPerMinute: 1 });
  });
  afterAll(() => ops.close());

  it('answers /healthz with {"status":"ok"} without a key', async () => {
    const response = await ops.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers /readyz with {"status":"ok"} when the database is migrated', async () => {
    const response = await ops.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('never rate limits the probes, even when the API is over its limit', async () => {
    const first = await ops.app.inject({
      method: 'GET',
      url: '/v1/events',
      headers: { 'x-api-key': ops.key },
    });
    const second = await ops.app.inject({
      method: 'GET',
      url: '/v1/events',
      headers: { 'x-api-key': ops.key },
    });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(429);
    for (let i = 0; i < 5; i++) {
      for (const url of ['/healthz', '/readyz', '/metrics']) {
        const response = await ops.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['ratelimit-limit'], url).toBeUndefined();
      }
    }
  });

  it('answers /readyz with a 503 service_unavailable problem once shutdown has begun, while /healthz stays 200', async () => {
    ops.readiness.beginShutdown();
    const ready = await ops.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { 'x-request-id': 'probe-1' },
    });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['content-type']).toContain(PROBLEM);
    expect(ready.json()).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      requestId: 'probe-1',
      type: expect.any(String),
      title: expect.any(String),
      message: expect.stringContaining('shutting down'),
    });
    const health = await ops.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });
});

describe('/readyz against a database that is not ready', () => {
  it('answers 503 while the schema is not migrated, and 200 once it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventplan-ready-'));
    const store = openSqliteStore({ path: join(dir, 'eventplan.db') });
    const rateLimiter = createMemoryRateLimiter({ limit: 100 });
    const app = await buildApp({ deps: { store, clock: systemClock, ids: randomIds }, rateLimiter });
    try {
      const before = await app.inject({ method: 'GET', url: '/readyz' });
      expect(before.statusCode).toBe(503);
      expect(before.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
      await store.migrate();
      const after = await app.inject({ method: 'GET', url: '/readyz' });
      expect(after.statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 503 once the database is closed', async () => {
    const ops = await startOpsApp();
    await ops.deps.store.close();
    const response = await ops.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('service_unavailable');
    await ops.close();
  });
});

describe('/metrics', () => {
  let ops: OpsApp;
  beforeAll(async () => {
    ops = await startOpsApp();
  });
  afterAll(() => ops.close());

  const metricsText = async (app = ops.app) => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return response.body;
  };

  it('counts requests by route pattern and status, and never shows ids, keys, names or raw URLs', async () => {
    const headers = { 'x-api-key': ops.key };
    const name = 'Secret Summit Zanzibar';
    const created = await ops.app.inject({ method: 'POST', url: '/v1/events', headers, payload: { name } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const patched = await ops.app.inject({
      method: 'PATCH',
      url: `/v1/events/${id}`,
      headers,
      payload: { otherNotes: 'private note text' },
    });
    expect(patched.statusCode).toBe(200);
    const missing = '00000000-0000-4000-8000-00000000abcd';
    expect((await ops.app.inject({ method: 'GET', url: `/v1/events/${missing}`, headers })).statusCode).toBe(
      404,
    );
    expect((await ops.app.inject({ method: 'GET', url: '/no-such-place/tenant-secret' })).statusCode).toBe(
      404,
    );

    const text = await metricsText();
    expect(text).toMatch(
      /eventplan_http_requests_total\{method="POST",route="\/v1\/events",status_code="201"\} 1\n/,
    );
    expect(text).toMatch(
      /eventplan_http_requests_total\{method="PATCH",route="\/v1\/events\/:id",status_code="200"\} 1\n/,
    );
    expect(text).toMatch(
      /eventplan_http_requests_total\{method="GET",route="\/v1\/events\/:id",status_code="404"\} 1\n/,
    );
    expect(text).toMatch(
      /eventplan_http_request_duration_seconds_count\{method="POST",route="\/v1\/events",status_code="201"\} 1\n/,
    );
    expect(text).toMatch(/eventplan_events_created_total 1\n/);
    expect(text).toMatch(/eventplan_events_updated_total 1\n/);
    expect(text).toMatch(/eventplan_db_write_queue_depth \d+\n/);
    expect(text).toMatch(/eventplan_rate_limit_store_errors_total 0\n/);
    for (const secret of [id, missing, ops.key, name, 'private note', 'tenant-secret', 'no-such-place']) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps the series of each app apart (one registry per app)', async () => {
    const other = await startOpsApp();
    try {
      await other.app.inject({ method: 'GET', url: '/healthz' });
      await other.app.inject({ method: 'GET', url: '/healthz' });
      const otherText = await metricsText(other.app);
      expect(otherText).toMatch(/route="\/healthz",status_code="200"\} 2\n/);
      expect(otherText).not.toMatch(/route="\/v1\/events"/);
      expect(await metricsText()).not.toMatch(/route="\/healthz",status_code="200"\} 2\n/);
    } finally {
      await other.close();
    }
  });

  it('exports process metrics only when asked to', async () => {
    expect(await metricsText()).not.toContain('process_cpu_seconds_total');
    const metrics = createMetrics({ processMetrics: true });
    expect(await metrics.render()).toContain('process_cpu_seconds_total');
  });
});

describe('the rate-limit store error count', () => {
  it('adds errors reported by callback to those the limiter counts itself', async () => {
    let counted = 2;
    const metrics = createMetrics({ rateLimiter: { storeErrors: () => counted } });
    expect(await metrics.render()).toMatch(/eventplan_rate_limit_store_errors_total 2\n/);
    metrics.countRateLimitStoreError();
    counted = 5;
    expect(await metrics.render()).toMatch(/eventplan_rate_limit_store_errors_total 6\n/);
    expect(await metrics.render()).toMatch(/eventplan_rate_limit_store_errors_total 6\n/);
  });
});

describe('metrics of a real rate limiter whose Redis is unreachable', () => {
  it('lets requests through (fail-open) and counts each store failure in /metrics', async () => {
    // Port 1 refuses connections: no Redis is needed to see the limiter fail.
    const rateLimiter = createRedisRateLimiter({
      url: 'redis://127.0.0.1:1',
      limit: 5,
      connectTimeoutMs: 200,
    });
    const ops = await startOpsApp({ rateLimiter });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await ops.app.inject({
          method: 'GET',
          url: '/v1/events',
          headers: { 'x-api-key': ops.key },
        });
        expect(response.statusCode).toBe(200);
      }
      const text = (await ops.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).toMatch(/eventplan_rate_limit_store_errors_total 3\n/);
    } finally {
      await ops.close();
    }
  });
});
