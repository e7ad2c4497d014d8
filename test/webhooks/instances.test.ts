/**
 * Deliveries are durable and shared (D18): two instances on one PostgreSQL database deliver each
 * attempt once, and a server killed with SIGKILL delivers after its restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { createSafeTransport } from '../../src/adapters/webhook/safe-transport.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createEvent } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { createDispatcher } from '../../src/app/webhook-dispatcher.js';
import { createEndpoint } from '../../src/app/webhook-endpoints.js';
import type { Store } from '../../src/ports/store.js';
import { createTestSchema, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import {
  listeningUrl,
  prepareSqliteDatabase,
  runEventplan,
  type ServerProcess,
} from '../ops/server-process.js';
import { startReceiver } from './receiver.js';

describeWithService('postgres', 'two instances on one PostgreSQL database', () => {
  let schema: Scratch;
  const stores: Store[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    for (let i = 0; i < 2; i++) stores.push(openPostgresStore({ url: schema.url, poolSize: 4 }));
    await stores[0]!.migrate();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await schema?.drop();
  });

  it('make each attempt exactly once between them, retries included', async () => {
    const receiver = await startReceiver();
    const seen = new Map<string, number>();
    const answered = new Map<string, number>();
    receiver.answerWith((request) => {
      const id = String(request.headers['webhook-id']);
      answered.set(id, (answered.get(id) ?? 0) + 1);
      return answered.get(id) === 1 ? 500 : 204;
    });
    // The first attempt of every change fails, the second succeeds: two attempts per change, no more.
    const deps: AppDeps[] = stores.map((store) => ({ store, clock: systemClock, ids: randomIds }));
    const demo = await createDemo(deps[0]!);
    const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
    await createEndpoint({ ...deps[0]!, urlProblem: () => undefined }, principal, {
      url: receiver.url,
      enabledEvents: ['event.created'],
    });
    const transports = stores.map(() =>
      createSafeTransport({ timeoutMs: 2000, allowPrivateNetworks: true, responseBodyLimit: 1024 }),
    );
    const attemptsBy = [0, 0];
    const dispatchers = deps.map((instance, index) =>
      createDispatcher(instance, {
        transport: {
          ...transports[index]!,
          send: async (request) => {
            const id = request.headers['webhook-id']!;
            const count = (seen.get(id) ?? 0) + 1;
            seen.set(id, count);
            attemptsBy[index]! += 1;
            return transports[index]!.send(request);
          },
        },
        retrySchedule: [50],
        timeoutMs: 2000,
        pollIntervalMs: 10,
        concurrency: 4,
      }),
    );
    for (const dispatcher of dispatchers) dispatcher.start();
    const events = 40;
    for (let i = 0; i < events; i++) await createEvent(deps[i % 2]!, principal, { name: `Event ${i}` });
    await receiver.waitFor(events * 2, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const dispatcher of dispatchers) await dispatcher.stop();
    for (const transport of transports) await transport.close();
    await receiver.close();

    expect(receiver.received).toHaveLength(events * 2);
    expect(seen.size).toBe(events);
    expect([...seen.values()].every((count) => count === 2)).toBe(true);
    // Both instances took part.
    expect(attemptsBy.every((count) => count > 0)).toBe(true);
    const stats = await stores[0]!.webhooks.queueStats();
    expect(stats.pending).toBe(0);
  }, 60_000);
});

// A SQLite server process: run once, in the sqlite project (registered there only, so nothing is skipped).
const onSqlite = process.env.TEST_BACKEND === 'postgres' ? () => undefined : describe;
onSqlite('a server killed with SIGKILL', () => {
  let server: ServerProcess | undefined;
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });

  it('delivers the pending delivery after a restart, with the same webhook-id', async () => {
    const database = await prepareSqliteDatabase();
    const receiver = await startReceiver();
    receiver.answer(500);
    const env = {
      DATABASE_URL: database.databaseUrl,
      PORT: '0',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
      WEBHOOK_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
    };
    try {
      server = runEventplan({ ...env, LOG_LEVEL: 'info' });
      const base = await listeningUrl(server);
      const headers = { 'x-api-key': database.key, 'content-type': 'application/json' };
      const created = await fetch(`${base}/v1/webhook-endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, enabledEvents: ['event.created'] }),
      });
      expect(created.status).toBe(201);
      const event = await fetch(`${base}/v1/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Offsite' }),
      });
      expect(event.status).toBe(201);
      const [first] = await receiver.waitFor(1);
      // Killed once the failed attempt is recorded (an attempt cut short would wait for its lease to run out).
      const endpointId = (await created.json()).id;
      for (let i = 0; i < 100; i++) {
        const list = await fetch(`${base}/v1/webhook-endpoints/${endpointId}/deliveries`, { headers });
        if ((await list.json()).data[0]?.attempts === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      server.child.kill('SIGKILL');
      await server.exited;

      receiver.answer(204);
      server = runEventplan({ ...env, LOG_LEVEL: 'info' });
      await listeningUrl(server);
      const [, second] = await receiver.waitFor(2, 15_000);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.body).toBe(first!.body);
      server.child.kill('SIGTERM');
      await server.exited;
    } finally {
      await receiver.close();
      database.remove();
    }
  }, 60_000);
});
