import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newEvent, newOrganization, newUser } from '../../../test/contract/fixtures.js';
import { createTestDatabase, type Scratch } from '../../../test/helpers/postgres.js';
import { describeWithService } from '../../../test/helpers/services.js';
import { ServiceUnavailableError } from '../../domain/errors.js';
import { migrations } from './postgres-migrations.js';
import { openPostgresStore } from './postgres-store.js';

describeWithService('postgres', 'PostgreSQL store', () => {
  let database: Scratch;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

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

  it('cancels a statement that runs past the statement timeout and reports the store unavailable', async () => {
    const store = openPostgresStore({ url: database.url, statementTimeoutMs: 300 });
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await store.migrate();
      const org = await newOrganization(store);
      const event = newEvent(org, await newUser(store, org));
      await store.events.insert(event);
      // Another connection holds the event's row lock, so the update waits until it is cancelled.
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM events WHERE id = $1 FOR UPDATE', [event.details.id]);
      const started = Date.now();
      await expect(store.events.update(org, event.details.id, (current) => current)).rejects.toBeInstanceOf(
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
      await expect(store.events.update(randomUUID(), randomUUID(), (event) => event)).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await store.close();
    }
  });
});
