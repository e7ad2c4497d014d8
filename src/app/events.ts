/** Event use cases: the HTTP routes and the CLI call these, never the store directly. */
import type { EventListFilter } from '../domain/event-filter.js';
import type { StatusTarget } from '../domain/status.js';
import type { EventBody, EventPage } from '../ports/event-repository.js';
import type { IdempotencyClaim } from '../ports/idempotency-repository.js';
import type { Authenticate } from './api-keys.js';
import { changeEvent, createEventBy, type KeyRequester, OPERATOR } from './change-event.js';
import type { AppDeps, Principal } from './deps.js';
import { storedEtag } from './etag.js';
import { SET_STATUS, UPDATE_DETAILS } from './event-changes.js';
import { assertEventId, notFound } from './event-ids.js';

/** An API request's caller as the one who changes events: its key's organization is its scope. */
export const apiKeyRequester = (principal: Principal): KeyRequester => ({
  scope: 'organization',
  organizationId: principal.organizationId,
  actor: { type: 'api_key', keyId: principal.keyId, userId: principal.userId },
});

/** `POST /v1/events` (D9). `idempotency`: the Idempotency-Key to record with the event (idempotent-create.ts). */
export function createEvent(
  deps: AppDeps,
  principal: Principal,
  body: unknown,
  idempotency?: IdempotencyClaim,
) {
  return createEventBy(deps, apiKeyRequester(principal), body, idempotency);
}

/** The full details view as ready-to-send JSON, with its ETag (stored with it, not hashed per read). */
export async function getEventDocument(
  deps: AppDeps,
  principal: Principal,
  id: string,
): Promise<{ body: Buffer; etag: string }> {
  const eventId = assertEventId(id);
  const document = await deps.store.events.findDocument(principal.organizationId, eventId);
  if (document === undefined) throw notFound(id);
  return { body: document.body, etag: storedEtag(document) };
}

/**
 * A key checked and one of its organization's events read, in one store read (fast-reads.ts): the
 * principal, and the event's document and ETag, or undefined when the organization has no such event.
 * Rejects as `authenticate` does for a key that does not work, and as `getEventDocument` for an id
 * that is not a UUID.
 */
export async function getEventDocumentWithKey(
  deps: AppDeps,
  authenticate: Authenticate,
  key: string | undefined,
  id: string,
): Promise<{ principal: Principal; document: { body: Buffer; etag: string } | undefined }> {
  const eventId = assertEventId(id);
  let document: EventBody | undefined;
  const principal = await authenticate(key, async (keyId) => {
    const found = await deps.store.events.findDocumentByKey(keyId, eventId);
    document = found?.document;
    return found?.credentials;
  });
  const read = document as EventBody | undefined;
  return { principal, document: read && { body: read.body, etag: storedEtag(read) } };
}

/** `PATCH /v1/events/{id}` (D5–D7), applied only while the event's ETag matches `ifMatch` when given. */
export function updateEvent(
  deps: AppDeps,
  principal: Principal,
  id: string,
  body: unknown,
  ifMatch?: string,
) {
  const precondition = ifMatch === undefined ? undefined : { ifMatch };
  return changeEvent(deps, apiKeyRequester(principal), id, UPDATE_DETAILS, body, precondition);
}

/** Without a filter, the organization's plain list; with one (`status`, `updatedAfter`), its own path. */
export async function listEvents(
  deps: AppDeps,
  principal: Principal,
  query: { page: number; limit: number; filter?: EventListFilter },
): Promise<EventPage> {
  const page = { offset: (query.page - 1) * query.limit, limit: query.limit };
  if (query.filter) return deps.store.events.listFiltered(principal.organizationId, query.filter, page);
  return deps.store.events.list(principal.organizationId, page);
}

/** The operator's `event status` (D2): the API never moves a status. */
export async function changeEventStatus(deps: AppDeps, id: string, target: StatusTarget) {
  const { event } = await changeEvent(deps, OPERATOR, id, SET_STATUS, target);
  return { id: event.details.id, status: event.details.status };
}
