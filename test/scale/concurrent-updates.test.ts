/**
 * No lost updates across instances: two server processes on one PostgreSQL database take 100
 * concurrent PATCHes of the same event, each adding one agenda session; all 100 must be there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createEvent } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { createTestSchema, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import { type Instance, startInstance } from './server-processes.js';

const PATCHES = 100;

describeWithService('postgres', 'two instances on one PostgreSQL database', () => {
  let schema: Scratch;
  let instances: Instance[] = [];
  let key: string;
  let eventId: string;

  beforeAll(async () => {
    schema = await createTestSchema();
    const store = openPostgresStore({ url: schema.url });
    try {
      await store.migrate();
      const deps: AppDeps = { store, clock: systemClock, ids: randomIds };
      const demo = await createDemo(deps);
      key = demo.key;
      const created = await createEvent(
        deps,
        { ...demo, keyId: demo.keyId },
        {
          name: 'Shared summit',
          eventDates: [{ startDate: '2026-06-01', endDate: '2026-06-03' }],
        },
      );
      eventId = created.id;
    } finally {
      await store.close();
    }
    const env = { DATABASE_URL: schema.url, RATE_LIMIT_PER_MINUTE: '1000000', DATABASE_POOL_SIZE: '8' };
    instances = await Promise.all([startInstance(env), startInstance(env)]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await schema?.drop();
  });

  it(`keeps all ${PATCHES} agenda sessions added by concurrent PATCHes split between the instances, with no 5xx`, async () => {
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: PATCHES }, async (_, index) => {
        const response = await fetch(`${instances[index % 2]!.url}/v1/events/${eventId}`, {
          method: 'PATCH',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({
            agendaOperations: [
              {
                op: 'add',
                session: {
                  title: `Session ${index}`,
                  dates: ['2026-06-02'],
                  startTime: '09:00',
                  endTime: '10:00',
                },
              },
            ],
          }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const elapsedMs = performance.now() - started;
    const serverErrors = statuses.filter((status) => status >= 500).length;

    const read = await fetch(`${instances[0]!.url}/v1/events/${eventId}`, { headers: { 'x-api-key': key } });
    const event = (await read.json()) as { agenda: Array<{ title: string }> };
    const titles = new Set(event.agenda.map((session) => session.title));
    console.info(
      `${PATCHES} concurrent PATCHes over 2 instances: ${titles.size} sessions present, ${serverErrors} 5xx, ${elapsedMs.toFixed(0)} ms`,
    );
    expect(serverErrors).toBe(0);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(event.agenda).toHaveLength(PATCHES);
    expect(titles).toEqual(new Set(Array.from({ length: PATCHES }, (_, index) => `Session ${index}`)));
  });
});
