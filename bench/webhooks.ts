/**
 * Webhook delivery on this machine (D18): latency from commit to the receiver, and dispatcher
 * throughput. A receiver on 127.0.0.1 answers 204; the dispatcher uses the real transport.
 *   node --import tsx bench/webhooks.ts [sqlite|postgres]   (postgres: TEST_DATABASE_URL)
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.js';
import { randomIds, systemClock } from '../src/adapters/system.js';
import { createSafeTransport } from '../src/adapters/webhook/safe-transport.js';
import { createEvent } from '../src/app/events.js';
import { createDemo } from '../src/app/organizations.js';
import { createDispatcher } from '../src/app/webhook-dispatcher.js';
import { createEndpoint } from '../src/app/webhook-endpoints.js';

const backend = process.argv[2] ?? 'sqlite';
const dir = mkdtempSync(join(tmpdir(), 'eventplan-bench-hooks-'));
const store =
  backend === 'postgres'
    ? openPostgresStore({ url: process.env.TEST_DATABASE_URL!, poolSize: 10 })
    : openSqliteStore({ path: join(dir, 'bench.db') });
await store.migrate();
const deps = { store, clock: systemClock, ids: randomIds };
const demo = await createDemo(deps);
const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };

let received = 0;
let onReceive: (() => void) | undefined;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received += 1;
    onReceive?.();
    response.statusCode = 204;
    response.end();
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
await createEndpoint({ ...deps, urlProblem: () => undefined }, principal, {
  url,
  enabledEvents: ['event.created'],
});
const transport = createSafeTransport({
  timeoutMs: 5000,
  allowPrivateNetworks: true,
  responseBodyLimit: 65536,
});
const dispatcher = createDispatcher(deps, {
  transport,
  retrySchedule: [1000],
  timeoutMs: 5000,
  concurrency: 16,
});

const percentile = (values: number[], p: number) =>
  values.sort((a, b) => a - b)[Math.floor((values.length - 1) * p)]!;

async function latency(wake: boolean, count: number) {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const arrived = new Promise<void>((resolve) => {
      onReceive = resolve;
    });
    await createEvent(deps, principal, { name: `Latency ${i}` });
    const committed = performance.now();
    if (wake) dispatcher.wake();
    await arrived;
    samples.push(performance.now() - committed);
  }
  onReceive = undefined;
  return {
    p50: percentile(samples, 0.5).toFixed(1),
    p95: percentile(samples, 0.95).toFixed(1),
    max: Math.max(...samples).toFixed(1),
  };
}

dispatcher.start();
const woken = await latency(true, 200);
const polled = await latency(false, 50);
await dispatcher.stop();

// Throughput: a backlog committed while the dispatcher was stopped, then drained.
const backlog = 3000;
for (let i = 0; i < backlog; i += 50) {
  await Promise.all(
    Array.from({ length: 50 }, (_, j) => createEvent(deps, principal, { name: `Backlog ${i + j}` })),
  );
}
const start = received;
const began = performance.now();
const drained = new Promise<void>((resolve) => {
  onReceive = () => {
    if (received - start >= backlog) resolve();
  };
});
dispatcher.start();
await drained;
const seconds = (performance.now() - began) / 1000;
await dispatcher.stop();

console.log(
  JSON.stringify({
    backend,
    latencyMsWithWake: woken,
    latencyMsPollingOnly: polled,
    throughput: {
      deliveries: backlog,
      seconds: seconds.toFixed(2),
      perSecond: Math.round(backlog / seconds),
    },
  }),
);
await transport.close();
server.closeAllConnections();
server.close();
if (backend === 'postgres') {
  await store.close();
} else {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
