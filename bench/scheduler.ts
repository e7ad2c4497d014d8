/**
 * The scheduler's reminder rounds (D28) with many open requests: what a round costs when nothing is
 * due (every instance pays it once per SCHEDULER_INTERVAL_MS), and what each reminder costs when a
 * whole batch falls due at 09:00 UTC. Statements are counted at the driver (better-sqlite3's
 * statement executions; every pg query, BEGIN and COMMIT included); time is wall-clock on this machine.
 *   node --import tsx bench/scheduler.ts [sqlite|postgres] [--requests=10000] [--due=1000] [--rounds=50]
 * (postgres: a schema of its own in TEST_DATABASE_URL, dropped afterwards)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgresStore } from '../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.js';
import { randomIds } from '../src/adapters/system.js';
import type { AppDeps, Principal } from '../src/app/deps.js';
import { apiKeyRequester, changeEventStatus, createEvent } from '../src/app/events.js';
import { createDemo } from '../src/app/organizations.js';
import { createScheduler } from '../src/app/scheduler.js';
import { rfpReminders } from '../src/app/tasks/rfp-reminders.js';
import { addVenueRequest } from '../src/app/venue-requests.js';
import { createVenue } from '../src/app/venues.js';
import { addDays } from '../src/domain/anywhere-on-earth.js';

const backend = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const requestCount = option('requests', 10_000);
const dueCount = option('due', 1000);
const rounds = option('rounds', 50);
const PER_EVENT = 50;

// Every statement the store runs, counted where the drivers run them.
let statements = 0;
const sqliteStatement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
for (const method of ['run', 'get', 'all', 'iterate'] as const) {
  const original = sqliteStatement[method];
  sqliteStatement[method] = function counted(this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
}
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements++;
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const dir = mkdtempSync(join(tmpdir(), 'eventplan-bench-scheduler-'));
let dropSchema = async () => {};
let databaseUrl = '';
if (backend === 'postgres') {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is needed for the postgres run');
  const schema = `eventplan_bench_scheduler_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
  dropSchema = async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  };
}
const store =
  backend === 'postgres'
    ? openPostgresStore({ url: databaseUrl, poolSize: 10 })
    : openSqliteStore({ path: join(dir, 'bench.db') });

let time = Date.parse('2027-03-01T10:00:00.000Z');
const clock = { now: () => new Date(time) };
const deps: AppDeps = {
  store,
  clock,
  ids: randomIds,
  mail: {
    from: { address: 'eventplan@bench.example', name: 'eventplan' },
    publicBaseUrl: 'https://bench.example',
  },
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  await store.migrate();
  const demo = await createDemo(deps);
  const principal: Principal = {
    organizationId: demo.organizationId,
    userId: demo.userId,
    keyId: demo.keyId,
  };
  const planner = apiKeyRequester(principal);

  // Open requests: `dueCount` of them due on 2027-04-10 (reminded from 2027-04-08 09:00 UTC), the
  // others spread over the 60 days after, so a round at that moment finds the first batch only.
  const seedStarted = performance.now();
  const events = Math.ceil(requestCount / PER_EVENT);
  let made = 0;
  await Promise.all(
    Array.from({ length: events }, async (_, eventIndex) => {
      const { id } = await createEvent(deps, principal, {
        name: `Bench summit ${eventIndex + 1}`,
        formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
        numPeople: 100,
        meetingRoomDates: [{ startDate: '2027-06-14', endDate: '2027-06-16' }],
      });
      for (let index = 0; index < PER_EVENT && eventIndex * PER_EVENT + index < requestCount; index++) {
        const number = eventIndex * PER_EVENT + index;
        const venue = await createVenue(deps, planner, {
          name: `Venue ${number + 1}`,
          email: `venue-${number + 1}@bench.example`,
          city: 'Lisbon',
        });
        const responseDueDate =
          number < dueCount ? '2027-04-10' : addDays('2027-04-11', (number - dueCount) % 60);
        await addVenueRequest(deps, planner, id, { venueId: venue.id, responseDueDate });
        made++;
      }
      await changeEventStatus(deps, id, 'wait_for_proposals');
    }),
  );
  console.log(
    `${backend}: ${made} open requests in ${events} events, seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );

  const scheduler = createScheduler(deps, {
    tasks: [rfpReminders({ rfpReminderDays: 2 })!],
    intervalMs: 60_000,
    concurrency: 4,
  });

  // A round with nothing due: the moment of the first batch has not come.
  time = Date.parse('2027-04-08T08:00:00.000Z');
  await scheduler.round(); // the first round of a process also purges leases left behind
  const idleTimes: number[] = [];
  const idleStatements: number[] = [];
  for (let round = 0; round < rounds; round++) {
    time += 60_000;
    const before = statements;
    const started = performance.now();
    const runs = await scheduler.round();
    await scheduler.idle();
    idleTimes.push(performance.now() - started);
    idleStatements.push(statements - before);
    if (runs !== 0) throw new Error('a round before the moment found work');
  }
  console.log(
    `round with nothing due: median ${median(idleTimes).toFixed(2)} ms, max ${Math.max(...idleTimes).toFixed(2)} ms, ${median(idleStatements)} statements (${rounds} rounds)`,
  );

  // The moment: the first batch falls due at once; rounds follow each other until it is done.
  time = Date.parse('2027-04-08T09:00:00.000Z');
  const before = statements;
  const started = performance.now();
  let reminded = 0;
  let busyRounds = 0;
  for (;;) {
    const runs = await scheduler.round();
    await scheduler.idle();
    if (runs === 0) break;
    reminded += runs;
    busyRounds++;
  }
  const elapsed = performance.now() - started;
  const used = statements - before;
  console.log(
    `${reminded} reminders due at once: ${(elapsed / 1000).toFixed(2)} s in ${busyRounds} rounds of up to 4, ${(elapsed / reminded).toFixed(2)} ms and ${(used / reminded).toFixed(1)} statements per reminder (${(reminded / (elapsed / 1000)).toFixed(0)} reminders/s)`,
  );
  const sampleAfter = statements;
  const lastStarted = performance.now();
  await scheduler.round();
  console.log(
    `round right after, nothing left due: ${(performance.now() - lastStarted).toFixed(2)} ms, ${statements - sampleAfter} statements`,
  );
} finally {
  await store.close();
  await dropSchema();
  rmSync(dir, { recursive: true, force: true });
}
