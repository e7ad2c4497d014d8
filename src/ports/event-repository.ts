import type { ChangeRecord, NewChange } from '../domain/changes.js';
import type { OutboxMail } from '../domain/mail.js';
import type { Proposal } from '../domain/proposal.js';
import type { VenueQuestion } from '../domain/questions.js';
import type { StoredRequestVersion } from '../domain/request-versions.js';
import type { EventDetails, EventStatus, StoredEvent } from '../domain/types.js';
import type { VenueRequest } from '../domain/venue-request.js';
import type { IdempotencyClaim } from './idempotency-repository.js';
import type { KeyCredentials } from './identity-repository.js';
import type { RequestWithProposal } from './venue-request-repository.js';

export interface EventPage {
  /** Each list item as ready-to-send JSON, newest first. */
  items: string[];
  total: number;
}

/**
 * An event's details document as the store keeps it and GET sends it: `JSON.stringify(details)` and
 * its entity tag (app/etag.ts), both made once, when the event is written.
 */
/** A stored document as read for sending: its UTF-8 bytes, so nothing decodes or re-encodes them. */
export interface EventBody {
  body: Buffer;
  /** Null only for a row written without one (by a version before migration 5, after it ran). */
  etag: string | null;
}

export interface EventDocument {
  text: string;
  /** Null only for a row written without one (by a version before migration 5, after it ran). */
  etag: string | null;
}

/** What a write stores: the new state, its change record, its document, and the mails that tell of it. */
export interface EventWrite {
  event: StoredEvent;
  change: NewChange;
  document: EventDocument & { etag: string };
  /** Stored in the outbox in the write's transaction (D25): sent if, and only if, the write commits. */
  mails?: readonly OutboxMail[];
}

/** The event's requests for proposals with their latest proposals, as read inside a write (D21–D24). */
export type EventSourcing = readonly RequestWithProposal[];

/** A request as a write stores it: inserted, or replacing the stored one with the same id. */
export interface RequestRowWrite {
  request: VenueRequest;
  /** The SHA-256 (hex) of the venue's new link token, when the step sent the request; else the stored one stays. */
  tokenHash?: string;
}

/**
 * What a write of an event's sourcing stores, all in one transaction: the event itself when it
 * changed (its row and its own change record, first), then one change record per request step in
 * order, the requests saved or removed, the proposals added, and the mails that tell of it all.
 */
export interface SourcingWrite {
  /** Absent when only the requests changed: the event's row is then left as it is. */
  event?: Omit<EventWrite, 'mails'>;
  /** Records of the request steps, after the event's own; `occurredAt` is when the step was made. */
  changes: readonly { change: NewChange; occurredAt: string }[];
  requests: { saved: readonly RequestRowWrite[]; removed: readonly string[] };
  proposals: readonly { eventId: string; proposal: Proposal }[];
  mails: readonly OutboxMail[];
  /** D26: version 1 of the request, stored only when the event has no version yet (its first send). */
  firstVersion?: StoredRequestVersion;
  /**
   * D26: the next version sent. Judged before anything is written: when the event's latest version is
   * not the one before it (sent meanwhile, a double click), the write is refused with NothingToSendError.
   */
  version?: StoredRequestVersion;
  /** D26: the version a venue's form was opened on; the write is refused (RequestChangedError) when it is not the latest. */
  openedOn?: number;
  /** D26: more link tokens of requests (their SHA-256), each leading to its request like the first. */
  links?: readonly { requestId: string; tokenHash: string; createdAt: string }[];
  /** D27: questions asked, or answered (the answer replaced), written as they are. */
  questions?: readonly VenueQuestion[];
}

/** One person on an event's grants, with what the dashboard shows of them. */
export interface Grantee {
  userId: string;
  email: string;
  name: string | null;
}

/** One row of a person's event list: the full details and who created the event. */
export interface GrantedEvent {
  details: EventDetails;
  createdBy: Grantee;
}

/** What the filtered event list keeps (D17): every given condition must hold. */
export interface EventFilter {
  /** Only events in these statuses (every status when empty). */
  statuses: readonly EventStatus[];
  /** Only events whose updatedAt is strictly after this instant (an ISO 8601 UTC text with milliseconds). */
  updatedAfter?: string;
}

/** A change record with the full details view as it was right after the change (ready-to-send JSON). */
export interface ChangeWithSnapshot {
  change: ChangeRecord;
  snapshot: string;
}

export interface GrantedEventQuery {
  /** Only events in these statuses (every status when empty). */
  statuses: readonly EventStatus[];
  /** Only events whose name contains this text, compared case-insensitively (none when empty). */
  nameContains: string;
  offset: number;
  limit: number;
}

export interface EventRepository {
  /**
   * Stores a new event, grants it to its creator and the creator's approvers, and appends its
   * `event.created` change, in one transaction. With a claim, the idempotency key is recorded in
   * that transaction too; when the key already has a live record, nothing is written and it rejects
   * with IdempotencyKeyTakenError.
   */
  insert(write: EventWrite, idempotency?: IdempotencyClaim): Promise<{ grantedTo: number }>;
  /** The full details view as ready-to-send JSON with its tag, or undefined outside the organization. */
  findDocument(organizationId: string, id: string): Promise<EventBody | undefined>;
  /**
   * A key's credentials and, in the same read, one event of the key's organization: a GET by id in one
   * statement (one round trip on PostgreSQL). Undefined when no key has the id. The credentials are
   * read afresh, so a revocation or deactivation counts from the very next request.
   */
  findDocumentByKey(
    keyId: string,
    eventId: string,
  ): Promise<{ credentials: KeyCredentials; document: EventBody | undefined } | undefined>;
  find(organizationId: string, id: string): Promise<StoredEvent | undefined>;
  /** The organization that owns an event (operator commands address events by id alone). */
  findOrganizationOf(id: string): Promise<string | undefined>;
  /**
   * Reads, changes and writes one event atomically, so concurrent updates never lose each other, and
   * appends the change record in the same transaction, numbered in commit order. `change` gets the
   * event and its stored document, and returns undefined for "nothing to write" or throws to abort
   * with nothing written. Resolves to the event as stored afterwards, or undefined when the event is
   * not in the organization.
   */
  update(
    organizationId: string,
    id: string,
    change: (current: StoredEvent, stored: EventDocument) => EventWrite | undefined,
  ): Promise<StoredEvent | undefined>;
  /**
   * Like `update`, for a change that reads and writes the event's requests for proposals (D21–D24):
   * `change` also gets the event's requests with their latest proposals, read inside the write's
   * transaction after the event is locked (SQLite: the write queue's transaction; PostgreSQL: the
   * event's row lock), so two changes deciding on the same requests (two awards) run one after the
   * other and the second sees what the first wrote. Plain updates never take this path.
   */
  updateSourcing(
    organizationId: string,
    id: string,
    change: (
      current: StoredEvent,
      stored: EventDocument,
      sourcing: EventSourcing,
    ) => SourcingWrite | undefined,
  ): Promise<StoredEvent | undefined>;
  list(organizationId: string, page: { offset: number; limit: number }): Promise<EventPage>;
  /**
   * The events matching `filter`, in the order of `list`, with `total` counting the matching events.
   * A path of its own: `list` stays the fast unfiltered page.
   */
  listFiltered(
    organizationId: string,
    filter: EventFilter,
    page: { offset: number; limit: number },
  ): Promise<EventPage>;
  /** The event, when `userId` holds a grant on it (D15 visibility); undefined otherwise. */
  findGranted(organizationId: string, userId: string, id: string): Promise<StoredEvent | undefined>;
  /** The events `userId` holds a grant on, newest first, with the total matching the query. */
  listGranted(
    organizationId: string,
    userId: string,
    query: GrantedEventQuery,
  ): Promise<{ items: GrantedEvent[]; total: number }>;
  /** Everyone granted on the event (its creator included when granted), in email order. */
  grantees(organizationId: string, eventId: string): Promise<Grantee[]>;
  /** The event's change records, newest first; with `beforeRevision`, only those older than it. */
  changes(
    organizationId: string,
    eventId: string,
    page: { limit: number; beforeRevision?: number },
  ): Promise<ChangeRecord[]>;
  /** One change of an event with its snapshot, or undefined when the event has no such revision. */
  revision(
    organizationId: string,
    eventId: string,
    revision: number,
  ): Promise<ChangeWithSnapshot | undefined>;
  /**
   * The organization's changes numbered after `afterSequence`, in sequence order. Sequence order is
   * commit order, so a change not yet visible here will be numbered after every change returned.
   */
  changesAfter(
    organizationId: string,
    page: { afterSequence: number; limit: number },
  ): Promise<ChangeRecord[]>;
}
