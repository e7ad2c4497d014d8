import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { createDemo } from '../../src/app/organizations.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { createTestSchema, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import { runCrashCycles } from './crash-harness.js';

describeWithService('postgres', 'crash durability on PostgreSQL', () => {
  let schema: Scratch;
  let key: string;
  let url: string;
  // The server's connections carry a name of this test alone, so other suites' connections never count.
  const applicationName = `eventplan_crash_${process.pid}`;
  beforeAll(async () => {
    schema = await createTestSchema();
    const named = new URL(schema.url);
    named.searchParams.set('application_name', applicationName);
    url = named.toString();
    const store = await openStore(parseDatabaseUrl(schema.url));
    await store.migrate();
    key = (await createDemo({ store, clock: systemClock, ids: randomIds })).key;
    await store.close();
  });
  afterAll(() => schema.drop());

  it('keeps every acknowledged write through 20 SIGKILLs of the server at random moments, none half-applied', async () => {
    const report = await runCrashCycles({
      databaseUrl: url,
      key,
      cycles: 20,
      writers: 6,
      env: { DATABASE_POOL_SIZE: '8' },
      async checkStorage(eventIds) {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        try {
          const problems: string[] = [];
          // A killed client's transactions are rolled back by the server: nothing may be left open or locked.
          // The server notices a dead client's closed socket a moment after the kill: allow it 5 s.
          let open = 0;
          for (let attempt = 0; attempt < 50; attempt++) {
            const result = await client.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'",
              [applicationName],
            );
            open = result.rows[0].n;
            if (open === 0) break;
            await new Promise((done) => setTimeout(done, 100));
          }
          if (open > 0) problems.push(`${open} transactions left open`);
          const grants = await client.query(
            'SELECT event_id, count(*)::int AS n FROM event_grants WHERE event_id = ANY($1::text[]) GROUP BY event_id',
            [eventIds],
          );
          const byEvent = new Map(
            grants.rows.map((row: { event_id: string; n: number }) => [row.event_id, row.n]),
          );
          for (const id of eventIds) {
            if (byEvent.get(id) !== 2) problems.push(`event ${id} has ${byEvent.get(id) ?? 0} grants, not 2`);
          }
          return problems;
        } finally {
          await client.end();
        }
      },
    });
    console.info(`crash durability (PostgreSQL): ${JSON.stringify(report)}`);
    expect(report.kills).toBe(20);
    expect(report.acknowledgedWrites).toBeGreaterThan(200);
  }, 240_000);
});
