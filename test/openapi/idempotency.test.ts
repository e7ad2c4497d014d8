/** Idempotency-Key on POST /v1/events (Stripe's semantics), on every backend, across restarts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { randomIds } from '../../src/adapters/system.js';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { createEventIdempotently, IDEMPOTENCY_WINDOW_MS } from '../../src/app/idempotent-create.js';
import { createDemo } from '../../src/app/organizations.js';
import { IdempotencyKeyInUseError } from '../../src/domain/errors.js';
import { buildApp } from '../../src/http/app.js';
import type { Store } from '../../src/ports/store.js';
import { checkEveryResponse } from '../helpers/openapi.js';
import { createTestSchema } from '../helpers/postgres.js';
import type { Backend } from '../helpers/test-store.js';
import { describeOnEveryBackend } from './backends.js';

/** A database that outlives the app instances opened on it, as across a restart. */
async function database(backend: Backend): Promise<{ open(): Store; drop(): Promise<void> }> {
  if (backend === 'postgres') {
    const schema = await createTestSchema();
    return { open: () => openPostgresStore({ url: schema.url, poolSize: 4 }), drop: () => schema.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-idempotency-'));
  return {
    open: () => openSqliteStore({ path: join(dir, 'eventplan.db') }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A clock the test can move forward. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

interface Instance {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

async function startInstance(open: () => Store): Promise<Instance> {
  const store = open();
  await store.migrate();
  const deps: AppDeps = { store, clock, ids: randomIds };
  const rateLimiter = createMemoryRateLimiter({ limit: 1_000_000 });
  const app = await buildApp({ deps, rateLimiter });
  checkEveryResponse(app);
  return {
    app,
    deps,
    async close() {
      await app.close();
      await rateLimiter.close();
      await store.close();
    },
  };
}

describeOnEveryBackend('Idempotency-Key on create', (backend) => {
  let db: Awaited<ReturnType<typeof database>>;
  let instance: Instance;
  let demo: Awaited<ReturnType<typeof createDemo>>;
  let sequence = 0;

  beforeAll(async () => {
    db = await database(backend);
    instance = await startInstance(db.open);
    demo = await createDemo(instance.deps);
  });
  afterAll(async () => {
    await instance?.close();
    await db?.drop();
  });

  const uniqueKey = () => `key-${backend}-${++sequence}-${Date.now()}`;
  const post = (body: unknown, headers: Record<string, string> = {}, apiKey = demo.key) =>
    instance.app.inject({
      method: 'POST',
      url: '/v1/events',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const total = async (apiKey = demo.key) =>
    (await instance.app.inject({ method: 'GET', url: '/v1/events', headers: { 'x-api-key': apiKey } })).json()
      .total as number;

  it('replays the first 201 for the same key and body: same id, body and Location, and no second event', async () => {
    const key = uniqueKey();
    const body = { name: 'Retry me', numPeople: 30 };
    const first = await post(body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await total();

    const again = await post(body, { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await total()).toBe(before);
  });

  it('treats the same body with its keys in another order as the same request', async () => {
    const key = uniqueKey();
    const first = await post('{"name":"Ordered","numPeople":5}', { 'idempotency-key': key });
    const again = await post('{ "numPeople": 5, "name": "Ordered" }', { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused, creating nothing', async () => {
    const key = uniqueKey();
    await post({ name: 'Original' }, { 'idempotency-key': key });
    const before = await total();
    const reused = await post({ name: 'Something else' }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(422);
    expect(reused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(reused.json()).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(await total()).toBe(before);
  });

  it('refuses a second request with the key while the first is still running (409 idempotency_key_in_use)', async () => {
    const principal: Principal = {
      organizationId: demo.organizationId,
      userId: demo.userId,
      keyId: demo.keyId,
    };
    const key = uniqueKey();
    const body = { name: 'In flight' };
    const first = createEventIdempotently(instance.deps, principal, body, key);
    const second = createEventIdempotently(instance.deps, principal, body, key);
    await expect(second).rejects.toBeInstanceOf(IdempotencyKeyInUseError);
    const created = await first;
    expect(created.replayed).toBe(false);
    // Once the first has finished, the key replays it.
    await expect(createEventIdempotently(instance.deps, principal, body, key)).resolves.toEqual({
      ...created,
      replayed: true,
    });
  });

  it('makes one event of concurrent requests with one key; the others are refused with 409 or replay it', async () => {
    const key = uniqueKey();
    const before = await total();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => post({ name: 'Burst' }, { 'idempotency-key': key })),
    );
    expect(await total()).toBe(before + 1);
    const created = responses.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed']);
    expect(created).toHaveLength(1);
    for (const response of responses) {
      if (response.statusCode === 409) expect(response.json().code).toBe('idempotency_key_in_use');
      else {
        expect(response.statusCode).toBe(201);
        expect(response.json().id).toBe(created[0]!.json().id);
      }
    }
  });

  it('does not remember a request refused with 400: the key then works with a corrected body', async () => {
    const key = uniqueKey();
    const refused = await post({ name: '', numPeople: -1 }, { 'idempotency-key': key });
    expect(refused.statusCode).toBe(400);
    const corrected = await post({ name: 'Corrected', numPeople: 1 }, { 'idempotency-key': key });
    expect(corrected.statusCode).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
  });

  it('scopes keys to the organization of the API key', async () => {
    const other = await createDemo(instance.deps);
    const key = uniqueKey();
    const mine = await post({ name: 'Shared key' }, { 'idempotency-key': key });
    const theirs = await post({ name: 'Shared key' }, { 'idempotency-key': key }, other.key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await total(other.key)).toBe(1);
  });

  it('remembers keys across a restart, because they are stored with the event', async () => {
    const key = uniqueKey();
    const first = await post({ name: 'Before restart' }, { 'idempotency-key': key });
    await instance.close();
    instance = await startInstance(db.open);
    const again = await post({ name: 'Before restart' }, { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('forgets a key after 24 hours: it then creates a new event', async () => {
    const key = uniqueKey();
    const first = await post({ name: 'Daily' }, { 'idempotency-key': key });
    try {
      clock.offsetMs = IDEMPOTENCY_WINDOW_MS - 60_000;
      const withinADay = await post({ name: 'Daily' }, { 'idempotency-key': key });
      expect(withinADay.json().id).toBe(first.json().id);
      clock.offsetMs = IDEMPOTENCY_WINDOW_MS + 60_000;
      const nextDay = await post({ name: 'Daily' }, { 'idempotency-key': key });
      expect(nextDay.statusCode).toBe(201);
      expect(nextDay.headers['idempotent-replayed']).toBeUndefined();
      expect(nextDay.json().id).not.toBe(first.json().id);
      const replayOfNew = await post({ name: 'Daily' }, { 'idempotency-key': key });
      expect(replayOfNew.json().id).toBe(nextDay.json().id);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('answers 201 when the purge of expired keys fails, and retries the purge after the next create', async () => {
    const idempotency = instance.deps.store.idempotency;
    const original = idempotency.deleteExpired;
    let purges = 0;
    idempotency.deleteExpired = async () => {
      purges++;
      throw new Error('the store refused the purge');
    };
    // Days later than any earlier test moved the clock, so the hourly purge is due.
    clock.offsetMs = 3 * IDEMPOTENCY_WINDOW_MS;
    try {
      const first = await post({ name: 'Purge fails' }, { 'idempotency-key': uniqueKey() });
      expect(first.statusCode).toBe(201);
      await new Promise((resolve) => setImmediate(resolve));
      expect(purges).toBe(1);
      const second = await post({ name: 'Purge fails again' }, { 'idempotency-key': uniqueKey() });
      expect(second.statusCode).toBe(201);
      await new Promise((resolve) => setImmediate(resolve));
      expect(purges).toBe(2);
      const read = await instance.app.inject({
        method: 'GET',
        url: `/v1/events/${first.json().id}`,
        headers: { 'x-api-key': demo.key },
      });
      expect(read.statusCode).toBe(200);
    } finally {
      idempotency.deleteExpired = original;
      clock.offsetMs = 0;
    }
  });

  it('refuses a malformed Idempotency-Key with 400 naming header.idempotency-key, creating nothing', async () => {
    const before = await total();
    for (const key of ['', 'k'.repeat(256), 'naïve', 'tab\there']) {
      const response = await post({ name: 'Bad key' }, { 'idempotency-key': key });
      expect(response.statusCode, JSON.stringify(key)).toBe(400);
      expect(response.json().errors).toEqual([
        expect.objectContaining({ field: 'header.idempotency-key', code: 'invalid_format' }),
      ]);
    }
    expect(await total()).toBe(before);
    const longest = await post({ name: 'Good key' }, { 'idempotency-key': `~ ${'k'.repeat(253)}` });
    expect(longest.statusCode).toBe(201);
  });
});
