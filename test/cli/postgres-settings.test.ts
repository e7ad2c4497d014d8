/**
 * Operator commands on PostgreSQL open the database as `serve` does: DATABASE_STATEMENT_TIMEOUT_MS
 * bounds their statements, and never the wait for another instance's migration.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIGRATION_LOCK, openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { newEvent, newOrganization, newUser } from '../contract/fixtures.js';
import { createTestDatabase, type Scratch, untilWaitingOnLock } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import { runCli, SPAWN_TIMEOUT_MS } from './run-cli.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** Far beyond the 500 ms statement timeout below and the client's read timeout 200 ms after it. */
const HOLD_MS = 1500;

describeWithService('postgres', 'eventplan commands on PostgreSQL', () => {
  let database: Scratch;
  let holder: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await database?.drop();
  });

  const env = () => ({ DATABASE_URL: database.url, DATABASE_STATEMENT_TIMEOUT_MS: '500' });

  it(
    'migrate waits for the migration lock another instance holds past the statement timeout',
    { timeout: SPAWN_TIMEOUT_MS },
    async () => {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      let exited = false;
      const migrating = runCli(['--json', 'migrate'], env()).finally(() => {
        exited = true;
      });
      await untilWaitingOnLock(database.url);
      await sleep(HOLD_MS);
      expect(exited).toBe(false);
      await holder.query('COMMIT');
      const result = await migrating;
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        applied: ['001_initial', '002_idempotency_keys', '003_people'],
      });
    },
  );

  it(
    'an operator command gives up on a locked row after DATABASE_STATEMENT_TIMEOUT_MS',
    { timeout: SPAWN_TIMEOUT_MS },
    async () => {
      const store = openPostgresStore({ url: database.url });
      let eventId: string;
      try {
        await store.migrate();
        const org = await newOrganization(store);
        const event = newEvent(org, await newUser(store, org));
        await store.events.insert(event);
        eventId = event.details.id;
      } finally {
        await store.close();
      }
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM events WHERE id = $1 FOR UPDATE', [eventId]);
      const changing = runCli(['--json', 'event', 'status', '--event', eventId, '--to', 'cancelled'], env());
      await untilWaitingOnLock(database.url);
      // With the default 5 s limit the command would still be waiting when the lock is let go, and succeed.
      await sleep(HOLD_MS);
      await holder.query('ROLLBACK');
      const result = await changing;
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('The database is unavailable or too slow right now');
    },
  );
});
