/**
 * Instances started together on an empty database, as a rolling deploy or an autoscaler does: every
 * one becomes ready, the gazetteer is loaded once (not once per instance, one after the other), and
 * one demo organization is created. PostgreSQL with several instances; SQLite with two processes on
 * one fresh file, which is not a supported deployment but must not corrupt or half-load the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import { type Instance, startInstance } from './server-processes.js';

const STARTUP_MS = 150_000;

interface Counts {
  places: number;
  distinctPlaces: number;
  organizations: number;
}

/** Starts `count` instances at once; resolves once all listen (or rejects with the first that did not). */
async function startTogether(count: number, env: Record<string, string>): Promise<Instance[]> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startInstance(env, STARTUP_MS)),
  );
  const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(instances.map((instance) => instance.stop()));
    throw (failed as PromiseRejectedResult).reason;
  }
  return instances;
}

/** What the instances logged about loading the gazetteer, one entry per load. */
function loads(instances: Instance[]): number[] {
  return instances.flatMap((instance) =>
    instance
      .output()
      .split('\n')
      .filter((line) => line.includes('"gazetteer loaded"'))
      .map((line) => (JSON.parse(line) as { places: number }).places),
  );
}

async function expectEveryOneReady(instances: Instance[]) {
  const statuses = await Promise.all(
    instances.map(async (instance) => (await fetch(`${instance.url}/readyz`)).status),
  );
  expect(statuses).toEqual(instances.map(() => 200));
}

function expectLoadedOnce(instances: Instance[], counts: Counts) {
  const loaded = loads(instances);
  expect(loaded).toHaveLength(1);
  expect(loaded[0]).toBeGreaterThan(100_000);
  expect(counts.places).toBe(loaded[0]);
  expect(counts.distinctPlaces).toBe(counts.places);
  expect(counts.organizations).toBe(1);
}

describeWithService('postgres', 'instances started together on an empty PostgreSQL database', () => {
  let database: Scratch | undefined;
  let instances: Instance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await database?.drop();
  });

  it(
    'all become ready, and the gazetteer is loaded once with each place once',
    async () => {
      database = await createTestDatabase();
      // A short statement timeout, as a busy deployment might set: waiting for another instance's
      // first load is not a slow statement and must not be cut by it.
      instances = await startTogether(4, {
        DATABASE_URL: database.url,
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
        DATABASE_POOL_SIZE: '2',
      });
      await expectEveryOneReady(instances);

      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ places: string; distinct: string; organizations: string }>(
          `SELECT (SELECT count(*) FROM places) AS places, (SELECT count(DISTINCT id) FROM places) AS distinct,
                  (SELECT count(*) FROM organizations) AS organizations`,
        );
        expectLoadedOnce(instances, {
          places: Number(rows[0]!.places),
          distinctPlaces: Number(rows[0]!.distinct),
          organizations: Number(rows[0]!.organizations),
        });
      } finally {
        await client.end();
      }
    },
    STARTUP_MS + 30_000,
  );
});

describe('two processes started together on one fresh SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-starts-'));
  let instances: Instance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'both become ready, and the gazetteer is loaded once with each place once',
    async () => {
      const path = join(dir, 'eventplan.db');
      instances = await startTogether(2, { DATABASE_URL: path });
      await expectEveryOneReady(instances);

      const db = new Database(path, { readonly: true });
      try {
        const counts = db
          .prepare(
            `SELECT (SELECT count(*) FROM places) AS places, (SELECT count(DISTINCT id) FROM places) AS distinctPlaces,
                    (SELECT count(*) FROM organizations) AS organizations`,
          )
          .get() as Counts;
        expectLoadedOnce(instances, counts);
      } finally {
        db.close();
      }
    },
    STARTUP_MS + 30_000,
  );
});
