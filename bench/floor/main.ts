/**
 * `node --import tsx bench/floor/main.ts`: the floor server, run by the benchmark beside the service on
 * the service's own database. The environment names what it needs, as the service's does:
 * DATABASE_URL (a SQLite file path or a postgres:// URL), HOST, PORT, RATE_LIMIT_PER_MINUTE. Access
 * lines go to stdout.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createGcra } from './gcra.js';
import { createObservers, logDestination } from './observers.js';
import { createPostgresFloor } from './postgres-floor.js';
import { createSqliteFloor } from './sqlite-floor.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL must name the database the service serves');
const destination = logDestination();
const options = {
  limiter: createGcra(Number(process.env.RATE_LIMIT_PER_MINUTE ?? 600)),
  observers: createObservers(destination),
  uuid: randomUUID,
  now: () => new Date(),
};
const floor = /^postgres(ql)?:\/\//.test(databaseUrl)
  ? createPostgresFloor(databaseUrl, options)
  : createSqliteFloor(databaseUrl, options);

// The service's default socket limits (src/config.ts), so both keep the same timers per connection.
const server = createServer(
  { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 },
  floor.listener,
);
server.keepAliveTimeout = 5000;
server.setTimeout(60_000);
server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  Promise.resolve(floor.close()).finally(() => {
    try {
      destination.flushSync();
    } catch {
      // A write is under way: the last lines may be lost; nothing reads them after a run.
    }
    process.exit(0);
  });
});
