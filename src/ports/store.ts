import type { CredentialRepository } from './credential-repository.js';
import type { DataTransfer } from './data-transfer.js';
import type { EventRepository } from './event-repository.js';
import type { IdempotencyRepository } from './idempotency-repository.js';
import type { IdentityRepository } from './identity-repository.js';
import type { MailOutbox } from './mail-outbox.js';
import type { PlaceRepository } from './place-repository.js';
import type { ScheduleLeases } from './schedule.js';
import type { SessionRepository } from './session-repository.js';
import type { VenueRepository } from './venue-repository.js';
import type { VenueRequestRepository } from './venue-request-repository.js';
import type { WebhookRepository } from './webhook-repository.js';

/** What a store can report about its own load, for metrics; each backend fills what it has. */
export interface StoreStats {
  /** Connection pool (PostgreSQL): open connections, idle ones, and queries waiting for one. */
  pool?: { total: number; idle: number; waiting: number };
  /** Writes queued for the next group commit (SQLite). */
  writeQueueDepth?: number;
}

/** Secrets of the service itself, shared by every instance on the database. */
export interface ServerSecrets {
  /** The secret stored under `name`; when there is none yet, `candidate` is stored and returned (first writer wins). */
  ensure(name: string, candidate: string): Promise<string>;
}

/** One storage backend: the repositories plus its lifecycle. */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly events: EventRepository;
  readonly identity: IdentityRepository;
  /** Idempotency keys of creates (their records are written by `events.insert`). */
  readonly idempotency: IdempotencyRepository;
  readonly secrets: ServerSecrets;
  /** Passwords and invites of the dashboard's people (D15). */
  readonly credentials: CredentialRepository;
  /** Signed-in dashboard sessions (D15). */
  readonly sessions: SessionRepository;
  /** Webhook endpoints and the deliveries fed from the change log (D18). */
  readonly webhooks: WebhookRepository;
  /** Mail waiting to be sent, and what became of what was sent (D25). */
  readonly mail: MailOutbox;
  /** The organization's directory of venues (D20). */
  readonly venues: VenueRepository;
  /** Requests for proposals and their proposals, as read (D21–D23); written with their event (`events.updateSourcing`). */
  readonly venueRequests: VenueRequestRepository;
  /** The scheduler's claims on the subjects of its tasks (reminders, …), shared by every instance. */
  readonly schedule: ScheduleLeases;
  /** The gazetteer candidate locations resolve to; shared by every organization. */
  readonly places: PlaceRepository;
  /** Bulk export and import, for moving data between backends (`eventplan copy-data`). */
  readonly transfer: DataTransfer;
  /** Applies pending migrations; resolves to the names applied now. */
  migrate(): Promise<string[]>;
  /**
   * Runs `work` while holding a lock shared by every instance on this database, so work that must
   * happen once (the demo organization of a first start) is not done by each instance starting together.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when the store answers and its schema is current. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Optional load figures for /metrics. */
  stats?(): StoreStats;
}
