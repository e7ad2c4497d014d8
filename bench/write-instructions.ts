/**
 * Repeatable cost of the write use cases, for valgrind: seeds EVENTS events on a durable SQLite file
 * (no gazetteer: locations stay unresolved), then makes CALLS updates or creates, CONCURRENCY per
 * event-loop turn as under load. Run it under callgrind with CALLS = 0 and CALLS = n; the difference in
 * instructions ÷ n is the user-space instructions per write, which, unlike CPU time, do not move with
 * the machine's other work:
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --import tsx bench/write-instructions.ts update 400
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.js';
import { randomIds, systemClock } from '../src/adapters/system.js';
import type { AppDeps } from '../src/app/deps.js';
import { createEvent, updateEvent } from '../src/app/events.js';
import { createDemo } from '../src/app/organizations.js';
import { createBody, eventIdFor, patchBody, SESSIONS_PER_EVENT, uuidFor } from './workload.js';

const KIND = process.argv[2] === 'create' ? 'create' : 'update';
const CALLS = Number(process.argv[3] ?? 0);
const EVENTS = 100;
const CONCURRENCY = 20;

const dir = mkdtempSync(join(tmpdir(), 'eventplan-count-'));
const store = await openStore({ kind: 'sqlite', path: join(dir, 'count.db') });
await store.migrate();
const deps: AppDeps = { store, clock: systemClock, ids: randomIds };
const demo = await createDemo(deps);
const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
const seededIds = (index: number) => {
  let slot = 0;
  return {
    uuid: () => (slot > SESSIONS_PER_EVENT ? randomIds.uuid() : uuidFor(index, slot++)),
    token: randomIds.token,
  };
};
await Promise.all(
  Array.from({ length: EVENTS }, (_, index) =>
    createEvent({ ...deps, ids: seededIds(index) }, principal, createBody(index)),
  ),
);
// A warm-up of the same calls, so both runs compile the same code before counting starts to differ.
const call = (i: number) =>
  KIND === 'update'
    ? updateEvent(deps, principal, eventIdFor(i % EVENTS), patchBody(i % EVENTS, i))
    : createEvent(deps, principal, createBody(EVENTS + i));
let i = 0;
for (const count of [200, CALLS]) {
  for (let done = 0; done < count; done += CONCURRENCY) {
    await Promise.all(Array.from({ length: CONCURRENCY }, () => call(i++)));
  }
}
await store.close();
rmSync(dir, { recursive: true, force: true });
