import type { StoredEvent } from '../domain/types.js';
import type { InviteRecord, PasswordRecord } from './credential-repository.js';
import type { IdempotencyRecord } from './idempotency-repository.js';
import type { ApiKeyRecord, Group, MemberRole, Organization, User } from './identity-repository.js';
import type { SessionRecord } from './session-repository.js';

export interface OrganizationRecord extends Organization {
  /** The stored event total, copied as it is. */
  eventCount: number;
}

export interface MembershipRecord {
  organizationId: string;
  groupId: string;
  userId: string;
  role: MemberRole;
}

/** One person who may see one event: a snapshot taken when the event was created. */
/** An event with the entity tag stored with its document, carried as it is (never recomputed). */
export interface EventRecord extends StoredEvent {
  etag: string | null;
}

export interface GrantRecord {
  organizationId: string;
  eventId: string;
  userId: string;
}

export type RecordBatch =
  | { kind: 'organizations'; records: OrganizationRecord[] }
  | { kind: 'users'; records: User[] }
  | { kind: 'groups'; records: Group[] }
  | { kind: 'memberships'; records: MembershipRecord[] }
  | { kind: 'apiKeys'; records: ApiKeyRecord[] }
  | { kind: 'events'; records: EventRecord[] }
  | { kind: 'grants'; records: GrantRecord[] }
  | { kind: 'idempotencyKeys'; records: IdempotencyRecord[] }
  | { kind: 'passwords'; records: PasswordRecord[] }
  | { kind: 'invites'; records: InviteRecord[] }
  | { kind: 'sessions'; records: SessionRecord[] };

export type RecordKind = RecordBatch['kind'];

/**
 * Moves every record between stores as it is: ids, key hashes, grants, statuses, counts, the
 * Idempotency-Key records of creates, and the dashboard's password hashes, invites and sessions (so
 * people stay signed in across the move). Every stored idempotency record is complete (it is written in
 * its event's transaction); expired ones are copied too, and are ignored and purged as on the source.
 */
export interface DataTransfer {
  /**
   * Every record from one consistent snapshot, kind by kind (organizations, users, groups,
   * memberships, apiKeys, events, grants, idempotencyKeys, passwords, invites, sessions), each kind ordered by its key compared byte by byte,
   * so two stores holding the same data export the same sequence.
   */
  exportRecords(batchSize?: number): AsyncIterable<RecordBatch>;
  /**
   * Writes exported records in one transaction: all of them or, on any failure, none. Refuses
   * (ConflictError) a store that already holds an organization.
   */
  importRecords(batches: AsyncIterable<RecordBatch>): Promise<void>;
}
