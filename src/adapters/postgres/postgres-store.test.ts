import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertEvent, newEvent, newOrganization, newUser, rewrite } from '../../../test/contract/fixtures.js';
import { createTestDatabase, type Scratch, untilWaitingOnLock } from '../../../test/helpers/postgres.js';
import { describeWithService } from '../../../test/helpers/services.js';
import { etagOf } from '../../app/etag.js';
import { ServiceUnavailableError } from '../../domain/errors.js';
import type { StoredEvent } from '../../domain/types.js';
import { migrations } from './postgres-migrations.js';
import { MIGRATION_LOCK, openPostgresStore } from './postgres-store.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** Far beyond a 500 ms statement timeout and the client's read timeout 200 ms after it. */
const HOLD_MS = 1500;

/** The outcome of a promise, without an unhandled rejection while nobody awaits it yet. */
function settle<T>(promise: Promise<T>) {
  const outcome = { settled: false };
  const result = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void result.then(() => {
    outcome.settled = true;
  });
  return Object.assign(outcome, { result });
}

describeWithService('postgres', 'PostgreSQL store', () => {
  let database: Scratch;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it('tags the events stored before migration 5 exactly as app/etag.ts defines the tag', async () => {
    const fresh = await createTestDatabase();
    const store = openPostgresStore({ url: fresh.url });
    try {
      await store.migrate();
      const org = await newOrganization(store);
      const event = newEvent(org, await newUser(store, org), {
        notesForVenue: 'Quiet rooms, please — ☕ 🎉',
      });
      await insertEvent(store, event);
      // Back to the schema of version 4, the event without a tag.
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      await client.query(
        'ALTER TABLE events DROP COLUMN etag; DELETE FROM schema_migrations WHERE version = 5',
      );
      await client.end();
      expect(await store.migrate()).toEqual(['005_event_etags']);
      const text = JSON.stringify(event.details);
      expect(await store.events.findDocument(org, event.details.id)).toEqual({
        body: Buffer.from(text),
        etag: etagOf(text),
      });
    } finally {
      await store.close();
      await fresh.drop();
    }
  });

  it('applies each migration exactly once when ten instances start together on a fresh database', async () => {
    const stores = Array.from({ length: 10 }, () => openPostgresStore({ url: database.url, poolSize: 1 }));
    try {
      const results = await Promise.all(stores.map((store) => store.migrate()));
      const names = migrations.map((migration) => migration.name);
      expect(results.filter((applied) => applied.length > 0)).toEqual([names]);
      expect(results.flat()).toEqual(names);
      await Promise.all(stores.map((store) => expect(store.ping()).resolves.toBeUndefined()));
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows).toEqual(migrations.map(({ version, name }) => ({ version, name })));
    } finally {
      await client.end();
    }
  });

  it("waits for another instance's migration lock past the statement timeout, then migrates", async () => {
    const fresh = await createTestDatabase();
    const holder = new pg.Client({ connectionString: fresh.url });
    await holder.connect();
    const store = openPostgresStore({ url: fresh.url, statementTimeoutMs: 500 });
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const migrating = settle(store.migrate());
      await untilWaitingOnLock(fresh.url);
      await sleep(HOLD_MS);
      expect(migrating.settled).toBe(false);
      await holder.query('COMMIT');
      expect(await migrating.result).toEqual({ value: migrations.map((migration) => migration.name) });
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await holder.end();
      await store.close();
      await fresh.drop();
    }
  });

  it('lets copy-data wait for a table lock past the statement timeout, then import', async () => {
    const store = openPostgresStore({ url: database.url, statementTimeoutMs: 500 });
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await store.migrate();
      await holder.query('BEGIN');
      // The import locks organizations (EXCLUSIVE) before checking the target is empty.
      await holder.query('LOCK TABLE organizations IN SHARE MODE');
      const organization = {
        id: randomUUID(),
        name: 'Moved',
        createdAt: '2026-03-01T09:00:00.000Z',
        eventCount: 0,
        changeSequence: 0,
      };
      async function* batches() {
        yield { kind: 'organizations' as const, records: [organization] };
      }
      const importing = settle(store.transfer.importRecords(batches()));
      await untilWaitingOnLock(database.url);
      await sleep(HOLD_MS);
      expect(importing.settled).toBe(false);
      await holder.query('COMMIT');
      expect(await importing.result).toEqual({ value: undefined });
      const exported = [];
      for await (const batch of store.transfer.exportRecords()) {
        if (batch.kind === 'organizations') exported.push(...batch.records);
      }
      expect(exported).toEqual([organization]);
    } finally {
      await holder.end();
      await store.close();
    }
  });

  it('cancels a statement that runs past the statement timeout and reports the store unavailable', async () => {
    const store = openPostgresStore({ url: database.url, statementTimeoutMs: 300 });
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await store.migrate();
      const org = await newOrganization(store);
      const event = newEvent(org, await newUser(store, org));
      await insertEvent(store, event);
      // Another connection holds the event's row lock, so the update's write waits until it is cancelled.
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM events WHERE id = $1 FOR UPDATE', [event.details.id]);
      const started = Date.now();
      const renamed = (current: StoredEvent) =>
        rewrite(current, { ...current, details: { ...current.details, name: 'Renamed' } });
      await expect(store.events.update(org, event.details.id, renamed)).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      await blocker.query('ROLLBACK');
      // The pool is healthy afterwards.
      expect(await store.events.find(org, event.details.id)).toEqual(event);
    } finally {
      await blocker.end();
      await store.close();
    }
  });

  it('reports an unreachable database as unavailable, promptly', async () => {
    const store = openPostgresStore({
      url: 'postgres://postgres@127.0.0.1:1/none',
      connectionTimeoutMs: 1000,
    });
    try {
      const started = Date.now();
      await expect(store.events.findDocument(randomUUID(), randomUUID())).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      await expect(store.events.update(randomUUID(), randomUUID(), () => undefined)).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await store.close();
    }
  });
});
