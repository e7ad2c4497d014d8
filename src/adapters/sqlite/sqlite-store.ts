import { hash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../../ports/store.js';
import { createSqliteCredentialRepository } from './sqlite-credential-repository.js';
import { createSqliteDataTransfer } from './sqlite-data-transfer.js';
import { createSqliteEventRepository } from './sqlite-event-repository.js';
import { createSqliteIdempotencyRepository } from './sqlite-idempotency-repository.js';
import { createSqliteIdentityRepository } from './sqlite-identity-repository.js';
import { createSqliteMailOutbox } from './sqlite-mail-outbox.js';
import { migrations } from './sqlite-migrations.js';
import { createSqlitePlaceRepository } from './sqlite-place-repository.js';
import { createSqliteScheduleLeases } from './sqlite-schedule-leases.js';
import { createSqliteSessionRepository } from './sqlite-session-repository.js';
import { createSqliteVenueRepository } from './sqlite-venue-repository.js';
import { createSqliteVenueRequestRepository } from './sqlite-venue-request-repository.js';
import { createSqliteWebhookRepository } from './sqlite-webhook-repository.js';
import { WriteQueue } from './write-queue.js';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  busyTimeoutMs?: number;
}

/**
 * The embedded store. WAL journal with synchronous=FULL: COMMIT waits for the WAL to reach the
 * disk, so an acknowledged write survives a crash of the process and of the machine.
 */
export function openSqliteStore(options: SqliteOptions): Store {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // A 4 MB page cache, not better-sqlite3's 16 MB: it holds the tables' and indexes' inner pages, which
  // is what repeats between requests; random event pages miss either way, and the other 12 MB were
  // resident memory for nothing (docs/performance.md, "Memory").
  db.pragma('cache_size = -4000');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  // SQLite has no SHA-256 of its own; migration 5 uses this one to tag the events stored before it.
  db.function('sha256_base64url', { deterministic: true }, (text) =>
    hash('sha256', String(text), 'base64url'),
  );
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );

  const queue = new WriteQueue(db);
  let exclusive: Promise<unknown> = Promise.resolve();
  const appliedVersions = () =>
    new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  let events: Store['events'] | undefined;
  let identity: Store['identity'] | undefined;
  let idempotency: Store['idempotency'] | undefined;
  let credentials: Store['credentials'] | undefined;
  let sessions: Store['sessions'] | undefined;
  let webhooks: Store['webhooks'] | undefined;
  let mail: Store['mail'] | undefined;
  let places: Store['places'] | undefined;
  let venues: Store['venues'] | undefined;
  let venueRequests: Store['venueRequests'] | undefined;
  let schedule: Store['schedule'] | undefined;
  const ready = () => {
    events ??= createSqliteEventRepository(db, queue);
    identity ??= createSqliteIdentityRepository(db, queue);
    idempotency ??= createSqliteIdempotencyRepository(db, queue);
    credentials ??= createSqliteCredentialRepository(db, queue);
    sessions ??= createSqliteSessionRepository(db, queue);
    webhooks ??= createSqliteWebhookRepository(db, queue);
    mail ??= createSqliteMailOutbox(db, queue);
    places ??= createSqlitePlaceRepository(db);
    venues ??= createSqliteVenueRepository(db, queue);
    venueRequests ??= createSqliteVenueRequestRepository(db);
    schedule ??= createSqliteScheduleLeases(db, queue);
  };

  return {
    kind: 'sqlite',
    get events() {
      ready();
      return events!;
    },
    get identity() {
      ready();
      return identity!;
    },
    get idempotency() {
      ready();
      return idempotency!;
    },
    secrets: {
      async ensure(name, candidate) {
        await queue.run(() =>
          db
            .prepare(
              'INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
            )
            .run(name, candidate, new Date().toISOString()),
        );
        return db.prepare('SELECT value FROM server_secrets WHERE name = ?').pluck().get(name) as string;
      },
    },
    get credentials() {
      ready();
      return credentials!;
    },
    get sessions() {
      ready();
      return sessions!;
    },
    get webhooks() {
      ready();
      return webhooks!;
    },
    get mail() {
      ready();
      return mail!;
    },
    get places() {
      ready();
      return places!;
    },
    get venues() {
      ready();
      return venues!;
    },
    get venueRequests() {
      ready();
      return venueRequests!;
    },
    get schedule() {
      ready();
      return schedule!;
    },
    get transfer() {
      return createSqliteDataTransfer(db);
    },
    async migrate() {
      const applied: string[] = [];
      db.transaction(() => {
        // Each migration is applied once, by version, whatever order versions were added in.
        const done = appliedVersions();
        for (const migration of migrations) {
          if (done.has(migration.version)) continue;
          db.exec(migration.sql);
          db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
            migration.version,
            migration.name,
            new Date().toISOString(),
          );
          applied.push(migration.name);
        }
      }).immediate();
      return applied;
    },
    async ping() {
      const done = appliedVersions();
      if (migrations.some((migration) => !done.has(migration.version))) {
        throw new Error('database schema is not migrated');
      }
    },
    stats: () => ({ writeQueueDepth: queue.depth }),
    exclusively(work) {
      // One process owns the file in practice; serialize this process's callers.
      const run = exclusive.then(work);
      exclusive = run.catch(() => undefined);
      return run;
    },
    async close() {
      queue.drain();
      if (db.open) db.close();
    },
  };
}
