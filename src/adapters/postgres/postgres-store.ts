import pg from 'pg';
import type { Store } from '../../ports/store.js';
import { createPostgresCredentialRepository } from './postgres-credential-repository.js';
import { createPostgresDataTransfer } from './postgres-data-transfer.js';
import { createPostgresEventRepository } from './postgres-event-repository.js';
import { createPostgresIdempotencyRepository } from './postgres-idempotency-repository.js';
import { createPostgresIdentityRepository } from './postgres-identity-repository.js';
import { createPostgresMailOutbox } from './postgres-mail-outbox.js';
import { migrations } from './postgres-migrations.js';
import { createPostgresPlaceRepository } from './postgres-place-repository.js';
import { createPostgresScheduleLeases } from './postgres-schedule-leases.js';
import { createPostgresSessionRepository } from './postgres-session-repository.js';
import { inTransaction, query } from './postgres-transaction.js';
import { createPostgresVenueRepository } from './postgres-venue-repository.js';
import { createPostgresVenueRequestRepository } from './postgres-venue-request-repository.js';
import { createPostgresWebhookRepository } from './postgres-webhook-repository.js';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database[?options=-c search_path=schema] */
  url: string;
  /** Connections this process may open (default 10). */
  poolSize?: number;
  /** Longest a single statement may run before it is cancelled, in ms (default 5000; 0 = no limit). */
  statementTimeoutMs?: number;
  /** Longest a query waits for a free or new connection, in ms (default: the statement timeout, at most 5000). */
  connectionTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
const QUERY_TIMEOUT_MARGIN_MS = 200;

/**
 * Every instance takes this transaction-scoped advisory lock before migrating, so instances that
 * start together apply each migration exactly once, one after the other. The number is arbitrary
 * but fixed: it names "eventplan schema migrations" in this database.
 */
export const MIGRATION_LOCK = 7_331_905_112;
/** Names "eventplan first-start work" in this database, for `Store.exclusively`. */
export const FIRST_START_LOCK = 7_331_905_113;

/** The shared store for several instances: a connection pool; every statement carries the tenant key. */
export function openPostgresStore(options: PostgresOptions): Store {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  // A database that stops answering makes requests fail with a 503 about the statement timeout,
  // whether they wait for a connection or for an answer.
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? Math.min(statementTimeoutMs || 5000, 5000);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis,
    // The server's statement_timeout cannot fire when the network goes silent: the client gives up a
    // little later than the server would, so a slow but reachable database still cancels cleanly.
    ...(statementTimeoutMs > 0 ? { query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS } : {}),
    idleTimeoutMillis: 30_000,
    application_name: 'eventplan',
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // An idle connection that dies (server restart, network) is dropped by the pool and replaced on
  // the next checkout; without a listener the error would end the process.
  pool.on('error', () => undefined);
  // Migrations (and the wait for another instance's) and copy-data may rightly take longer than any
  // request: they get connections of their own, with neither the statement timeout nor the client's
  // read timeout. Connecting is still bounded; TCP keep-alive notices a peer that vanished meanwhile.
  const unlimited = new pg.Pool({
    connectionString: options.url,
    max: 2,
    connectionTimeoutMillis,
    idleTimeoutMillis: 1000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'eventplan',
  });
  unlimited.on('error', () => undefined);

  const latest = migrations[migrations.length - 1]!.version;
  const events = createPostgresEventRepository(pool);
  const identity = createPostgresIdentityRepository(pool);
  const idempotency = createPostgresIdempotencyRepository(pool);
  const credentials = createPostgresCredentialRepository(pool);
  const sessions = createPostgresSessionRepository(pool);
  const webhooks = createPostgresWebhookRepository(pool);
  const mail = createPostgresMailOutbox(pool);
  const places = createPostgresPlaceRepository(pool, unlimited);
  const venues = createPostgresVenueRepository(pool);
  const venueRequests = createPostgresVenueRequestRepository(pool);
  const schedule = createPostgresScheduleLeases(pool);
  const transfer = createPostgresDataTransfer(unlimited);
  let closed: Promise<void> | undefined;

  return {
    kind: 'postgres',
    events,
    identity,
    idempotency,
    credentials,
    sessions,
    webhooks,
    mail,
    places,
    venues,
    venueRequests,
    schedule,
    transfer,
    secrets: {
      async ensure(name, candidate) {
        await query(
          pool,
          'INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO NOTHING',
          [name, candidate],
        );
        const { rows } = await query<{ value: string }>(
          pool,
          'SELECT value FROM server_secrets WHERE name = $1',
          [name],
        );
        return rows[0]!.value;
      },
    },
    migrate() {
      return inTransaction(unlimited, async (client) => {
        // Waiting for another instance's migration is not a slow statement; server defaults of the
        // role or database must not cut it either.
        await query(client, 'SET LOCAL statement_timeout = 0');
        await query(client, 'SET LOCAL lock_timeout = 0');
        await query(client, 'SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await query(
          client,
          `CREATE TABLE IF NOT EXISTS schema_migrations (
             version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
        );
        const { rows } = await query<{ version: number }>(client, 'SELECT version FROM schema_migrations');
        const done = new Set(rows.map((row) => row.version));
        const applied: string[] = [];
        for (const migration of migrations) {
          if (done.has(migration.version)) continue;
          await query(client, migration.sql);
          await query(client, 'INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          applied.push(migration.name);
        }
        return applied;
      });
    },
    async exclusively(work) {
      // A session lock on a connection of its own: `work` runs its queries through the pool, so
      // holding one of the pool's connections could starve it (a pool of one would deadlock).
      const client = new pg.Client({ connectionString: options.url, application_name: 'eventplan' });
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [FIRST_START_LOCK]);
        return await work();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async ping() {
      const version = await query<{ version: number | null }>(
        pool,
        'SELECT MAX(version) AS version FROM schema_migrations',
      ).then(
        ({ rows }) => rows[0]?.version ?? 0,
        (error: { code?: string }) => {
          // A database never migrated has no schema_migrations table yet (undefined_table).
          if (error.code === '42P01') return 0;
          throw error;
        },
      );
      if (version < latest) throw new Error('database schema is not migrated');
    },
    stats: () => ({ pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } }),
    close() {
      closed ??= Promise.all([pool.end(), unlimited.end()]).then(() => undefined);
      return closed;
    },
  };
}
