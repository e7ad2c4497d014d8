import type { ChangeType } from '../domain/changes.js';
import type { MailStatus } from '../domain/mail.js';
import type { StoredEvent } from '../domain/types.js';
import type { DeliveryStatus, EndpointStatus } from '../domain/webhooks.js';
import type { InviteRecord, PasswordRecord } from './credential-repository.js';
import type { IdempotencyRecord } from './idempotency-repository.js';
import type { ApiKeyRecord, Group, MemberRole, Organization, User } from './identity-repository.js';
import type { SessionRecord } from './session-repository.js';

export interface OrganizationRecord extends Organization {
  /** The stored event total, copied as it is. */
  eventCount: number;
  /** The last change-log sequence handed out (D17), so numbers are never reused after the move. */
  changeSequence: number;
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

/**
 * One change-log record (D17) as stored: its JSON columns (actor, changedFields, diff, data and the
 * snapshot of the details after the change) travel as the exact text stored. The diff of an
 * `event.created` change is stored once, as its snapshot: an empty text (records stored before
 * hold it in full; both are read the same).
 */
export interface ChangeLogRecord {
  organizationId: string;
  sequence: number;
  id: string;
  eventId: string;
  revision: number;
  type: ChangeType;
  occurredAt: string;
  actor: string;
  changedFields: string;
  diff: string;
  data: string | null;
  snapshot: string;
}

/**
 * One venue of the directory (D20) as stored: its JSON document travels as the exact text stored,
 * with the folded name and city the directory sorts and searches by.
 */
export interface VenueRecord {
  organizationId: string;
  id: string;
  nameKey: string;
  cityKey: string;
  archivedAt: string | null;
  document: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * One request for proposals (D21) as stored, with the hash of its venue's link token (the link keeps
 * working after the move); turn-down and decision as the exact JSON text stored.
 */
export interface VenueRequestRecord {
  organizationId: string;
  id: string;
  eventId: string;
  venueId: string;
  status: string;
  responseDueDate: string | null;
  sentAt: string | null;
  viewedAt: string | null;
  respondedAt: string | null;
  turnDown: string | null;
  decision: string | null;
  tokenHash: string | null;
  /** The reminder's state (D28), so a request reminded on the source is not reminded again on the target. */
  remindedAt: string | null;
  reminderSettledAt: string | null;
  dueDateToldAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One revision of a proposal (D23) as stored: its terms as the exact JSON text stored. */
export interface ProposalRecord {
  organizationId: string;
  id: string;
  eventId: string;
  requestId: string;
  revision: number;
  submittedAt: string;
  submittedBy: string;
  terms: string;
}

/** A version of an event's request as sent (D26): its actor, changes and snapshot as the exact JSON text stored. */
export interface RequestVersionRecord {
  organizationId: string;
  eventId: string;
  version: number;
  sentAt: string;
  sentBy: string;
  message: string | null;
  changes: string;
  snapshot: string;
}

/** A later link of a request (D26, D28: a version's or a moved date's mail), by the hash of its token. */
export interface VenueRequestLinkRecord {
  tokenHash: string;
  organizationId: string;
  requestId: string;
  createdAt: string;
}

/** A venue's question (D27) with its answer as the exact JSON text stored, or null. */
export interface VenueQuestionRecord {
  organizationId: string;
  id: string;
  eventId: string;
  requestId: string;
  venueId: string;
  text: string;
  askedAt: string;
  answer: string | null;
}

/** A secret of the service itself (the dashboard's form-token key): the same after the move. */
export interface ServerSecretRecord {
  name: string;
  value: string;
  createdAt: string;
}

/**
 * One webhook endpoint (D18) as stored: its enabled event types travel as the exact JSON text stored,
 * with both secrets, the previous one's expiry, the cursor, the status and why it was disabled, and
 * since when it has been failing, so the target's dispatcher carries on where the source's stopped.
 */
export interface WebhookEndpointRecord {
  organizationId: string;
  id: string;
  url: string;
  enabledEvents: string;
  status: EndpointStatus;
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  cursor: number;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * One webhook delivery (D18) as stored, without its lease (`locked_until`, `lease_token`): a delivery
 * claimed by an attempt on the source when it was exported is simply pending, and due, on the target.
 */
export interface WebhookDeliveryRecord {
  organizationId: string;
  id: string;
  endpointId: string;
  messageId: string;
  type: string;
  sequence: number | null;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseBody: string | null;
  createdAt: string;
}

/**
 * One mail of the outbox (D25) as stored, without its lease (`locked_until`, `lease_token`): a mail
 * being attempted on the source when it was exported is simply pending, and due, on the target.
 */
export interface MailRecord {
  organizationId: string;
  id: string;
  messageId: string;
  recipient: string;
  recipientName: string | null;
  replyTo: string | null;
  replyToName: string | null;
  subject: string;
  textBody: string | null;
  htmlBody: string | null;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** A kind of notification a person switched off (D24). */
export interface NotificationOptOutRecord {
  organizationId: string;
  userId: string;
  kind: string;
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
  | { kind: 'sessions'; records: SessionRecord[] }
  | { kind: 'notificationOptOuts'; records: NotificationOptOutRecord[] }
  | { kind: 'changes'; records: ChangeLogRecord[] }
  | { kind: 'venues'; records: VenueRecord[] }
  | { kind: 'venueRequests'; records: VenueRequestRecord[] }
  | { kind: 'proposals'; records: ProposalRecord[] }
  | { kind: 'requestVersions'; records: RequestVersionRecord[] }
  | { kind: 'venueRequestLinks'; records: VenueRequestLinkRecord[] }
  | { kind: 'venueQuestions'; records: VenueQuestionRecord[] }
  | { kind: 'webhookEndpoints'; records: WebhookEndpointRecord[] }
  | { kind: 'webhookDeliveries'; records: WebhookDeliveryRecord[] }
  | { kind: 'mails'; records: MailRecord[] }
  | { kind: 'serverSecrets'; records: ServerSecretRecord[] };

export type RecordKind = RecordBatch['kind'];

/**
 * Moves every record between stores as it is: ids, key hashes, grants, statuses, counts, the
 * Idempotency-Key records of creates, the dashboard's password hashes, invites and sessions (so
 * people stay signed in across the move), the notifications each person switched off, the change log with each organization's sequence counter,
 * venues, requests for proposals (with their token hashes, so venues' links keep working) and
 * proposals, the versions of each request as sent with the later links of its mails, venues' questions with their answers, webhook endpoints (secrets, cursor, health) and their deliveries (without leases), the mail outbox
 * (without leases), and the service's own secrets. The scheduler's leases stay behind: a subject being
 * worked on at the source when it was exported is simply due on the target, whose write judges it again. Every stored idempotency record is complete (it is written in
 * its event's transaction); expired ones are copied too, and are ignored and purged as on the source.
 */
export interface DataTransfer {
  /**
   * Every record from one consistent snapshot, kind by kind (organizations, users, groups,
   * memberships, apiKeys, events, grants, idempotencyKeys, passwords, invites, sessions, notificationOptOuts, changes,
   * venues, venueRequests, proposals, requestVersions, venueRequestLinks, venueQuestions, webhookEndpoints, webhookDeliveries, mails, serverSecrets), each kind ordered by its key compared byte by byte (numbers by value),
   * so two stores holding the same data export the same sequence.
   */
  exportRecords(batchSize?: number): AsyncIterable<RecordBatch>;
  /**
   * Writes exported records in one transaction: all of them or, on any failure, none. Refuses
   * (ConflictError) a store that already holds an organization.
   */
  importRecords(batches: AsyncIterable<RecordBatch>): Promise<void>;
}
