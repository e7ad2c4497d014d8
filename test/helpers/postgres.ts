/** Throwaway PostgreSQL databases and schemas, one per test file, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requireServiceUrl } from './services.js';

export interface Scratch {
  /** A postgres:// URL that reaches the new database or schema. */
  url: string;
  drop(): Promise<void>;
}

const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${randomBytes(5).toString('hex')}`;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema in the TEST_DATABASE_URL database; the URL selects it through search_path, so the
 * store sees an empty database of its own. Cheap enough for every test file.
 */
export async function createTestSchema(): Promise<Scratch> {
  const base = requireServiceUrl('postgres');
  const schema = uniqueName('eventplan_test');
  await withClient(base, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(base);
  url.searchParams.delete('options');
  const separator = url.search ? '&' : '?';
  return {
    url: `${url.toString()}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () =>
      withClient(base, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => {}),
  };
}

/** A whole fresh database, for what must start from nothing (concurrent migrations, copy-data). */
export async function createTestDatabase(): Promise<Scratch> {
  const base = requireServiceUrl('postgres');
  const name = uniqueName('eventplan_test');
  await withClient(base, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => {},
      ),
  };
}

/**
 * Resolves once a connection of eventplan's (application_name 'eventplan') waits on a lock: advisory,
 * table or row. Asked from a connection of its own, outside any transaction, where pg_stat_activity
 * would show the same snapshot every time.
 */
export async function untilWaitingOnLock(url: string) {
  const observer = new pg.Client({ connectionString: url });
  await observer.connect();
  try {
    for (;;) {
      const { rows } = await observer.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'eventplan' AND wait_event_type = 'Lock'`,
      );
      if (rows.length > 0) return;
      await new Promise((done) => setTimeout(done, 25));
    }
  } finally {
    await observer.end();
  }
}
