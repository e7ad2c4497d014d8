/**
 * A PostgreSQL outage under load, made with a TCP proxy between the service and the database: requests
 * get a 503 `service_unavailable` within the statement timeout (no hang, no 500), /readyz says 503,
 * and the service recovers by itself once the database answers again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createDemo } from '../../src/app/organizations.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import type { Store } from '../../src/ports/store.js';
import { createTestSchema, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import { type ProxyMode, startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const STATEMENT_TIMEOUT_MS = 1000;
/** What "within the statement timeout" allows for the answer to travel and the loop to notice. */
const SLACK_MS = 500;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Sample {
  at: number;
  ms: number;
  status: number;
  code?: string;
  path: string;
}

describeWithService('postgres', 'a database outage under load', () => {
  let schema: Scratch;
  let proxy: TcpProxy;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let key: string;
  const ids: string[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    const direct = await openStore(parseDatabaseUrl(schema.url));
    await direct.migrate();
    key = (await createDemo({ store: direct, clock: systemClock, ids: randomIds })).key;
    await direct.close();

    const url = new URL(schema.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    store = await openStore({
      kind: 'postgres',
      url: url.toString(),
      poolSize: 4,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    });
    const deps: AppDeps = { store, clock: systemClock, ids: randomIds };
    app = await buildApp({ deps, rateLimiter: createMemoryRateLimiter({ limit: 1_000_000_000 }) });
    for (let n = 0; n < 4; n++) {
      const created = await app.inject({
        method: 'POST',
        url: '/v1/events',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: `Outage ${n}` }),
      });
      expect(created.statusCode).toBe(201);
      ids.push(created.json().id);
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await proxy?.close();
    await schema?.drop();
  });

  /** Four clients reading and writing in a loop until stopped; every answer is recorded. */
  function load() {
    const samples: Sample[] = [];
    let running = true;
    const client = async (index: number) => {
      for (let n = 0; running; n++) {
        const id = ids[(index + n) % ids.length]!;
        const request =
          n % 3 === 0
            ? { method: 'GET' as const, url: `/v1/events/${id}` }
            : n % 3 === 1
              ? {
                  method: 'PATCH' as const,
                  url: `/v1/events/${id}`,
                  payload: { otherNotes: `note ${index}-${n}` },
                }
              : { method: 'GET' as const, url: '/v1/events?limit=5&page=1' };
        const started = Date.now();
        const response = await app.inject({ ...request, headers: { 'x-api-key': key } });
        const sample: Sample = {
          at: started,
          ms: Date.now() - started,
          status: response.statusCode,
          path: request.url,
        };
        if (response.statusCode >= 400) sample.code = response.json().code;
        samples.push(sample);
        if (response.statusCode !== 200) await sleep(20);
      }
    };
    const clients = Promise.all([0, 1, 2, 3].map(client));
    return {
      samples,
      async stop() {
        running = false;
        await clients;
      },
    };
  }

  async function readiness() {
    const started = Date.now();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    return {
      status: response.statusCode,
      ms: Date.now() - started,
      code: response.json().code as string | undefined,
    };
  }

  for (const outage of ['reset', 'blackhole'] as ProxyMode[]) {
    it(`answers 503 within the statement timeout while the database is cut off (${outage}), then recovers by itself`, async () => {
      const traffic = load();
      await sleep(800);
      const cutAt = Date.now();
      proxy.setMode(outage);
      await sleep(4000);
      const ready = await readiness();
      const healAt = Date.now();
      proxy.setMode('forward');

      // Recovery: the first moment both an API read and /readyz succeed again.
      let recoveredAt = 0;
      while (Date.now() - healAt < 15_000) {
        const [read, probe] = await Promise.all([
          app.inject({ method: 'GET', url: `/v1/events/${ids[0]}`, headers: { 'x-api-key': key } }),
          readiness(),
        ]);
        if (read.statusCode === 200 && probe.status === 200) {
          recoveredAt = Date.now();
          break;
        }
        await sleep(50);
      }
      await sleep(1000);
      await traffic.stop();
      const samples = traffic.samples;

      const before = samples.filter((sample) => sample.at + sample.ms < cutAt);
      // Requests sent once the cut had settled in (the ones already on the wire may still finish).
      const during = samples.filter((sample) => sample.at > cutAt + 100 && sample.at + sample.ms < healAt);
      const after = samples.filter((sample) => sample.at > recoveredAt);
      const summary = {
        outage,
        before: before.length,
        during: during.length,
        after: after.length,
        slowestDuringMs: Math.max(...during.map((sample) => sample.ms)),
        readyzDuring: ready,
        recoveryMs: recoveredAt - healAt,
      };
      console.info(`database outage: ${JSON.stringify(summary)}`);

      expect(samples.filter((sample) => sample.status >= 500 && sample.status !== 503)).toEqual([]);
      expect(before.length).toBeGreaterThan(5);
      expect(before.every((sample) => sample.status === 200)).toBe(true);
      expect(during.length).toBeGreaterThan(5);
      for (const sample of during) {
        expect(sample.status, JSON.stringify(sample)).toBe(503);
        expect(sample.code).toBe('service_unavailable');
      }
      expect(summary.slowestDuringMs).toBeLessThanOrEqual(STATEMENT_TIMEOUT_MS + SLACK_MS);
      expect(ready.status).toBe(503);
      expect(ready.code).toBe('service_unavailable');
      expect(recoveredAt, 'the service never recovered').toBeGreaterThan(0);
      expect(summary.recoveryMs).toBeLessThan(5000);
      expect(after.length).toBeGreaterThan(5);
      expect(after.every((sample) => sample.status === 200)).toBe(true);
    }, 60_000);
  }

  it('shows the outage in /metrics: 503s by route, and the pool figures', async () => {
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(
      /eventplan_http_requests_total\{method="GET",route="\/v1\/events\/:id",status_code="503"\} [1-9]/,
    );
    expect(text).toMatch(
      /eventplan_http_requests_total\{method="GET",route="\/readyz",status_code="503"\} [1-9]/,
    );
    expect(text).toMatch(/eventplan_db_pool_connections \d+\n/);
    expect(text).toMatch(/eventplan_db_pool_idle_connections \d+\n/);
    expect(text).toMatch(/eventplan_db_pool_waiting_requests \d+\n/);
  });
});
