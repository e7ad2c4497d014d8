/** Event use cases: the HTTP routes and the CLI call these, never the store directly. */
import type { Actor } from '../domain/changes.js';
import { buildNewEvent } from '../domain/create-event.js';
import { NotFoundError, PreconditionFailedError, type Problem, ValidationError } from '../domain/errors.js';
import type { EventListFilter } from '../domain/event-filter.js';
import { changeStatus, type StatusTarget } from '../domain/status.js';
import { applyUpdate } from '../domain/update-event.js';
import { isUuid } from '../domain/values.js';
import type { EventBody, EventPage } from '../ports/event-repository.js';
import type { IdempotencyClaim } from '../ports/idempotency-repository.js';
import type { Authenticate } from './api-keys.js';
import { describeChange } from './change-log.js';
import { type AppDeps, nowText, type Principal } from './deps.js';
import { eventDocument, ifMatchAllows, storedEtag } from './etag.js';
import { resolvePlaces, resolveSentPlaces, withResolvedPlaces } from './places.js';

/** The problem of a malformed event id, if any (none for a UUID in either case). */
export function eventIdProblems(id: string): Problem[] {
  return isUuid(id) ? [] : [{ field: 'id', code: 'invalid_format', message: 'must be a UUID' }];
}

/** Checks an event id and returns it in canonical form: UUIDs are case-insensitive, stored ids are lower case. */
export function assertEventId(id: string): string {
  const problems = eventIdProblems(id);
  if (problems.length > 0) throw new ValidationError(problems);
  return id.toLowerCase();
}

export const notFound = (id: string) => new NotFoundError(`No event with id ${id}.`);

/** The change log's name for the caller of an API request. */
export const apiKeyActor = (principal: Principal): Actor => ({
  type: 'api_key',
  keyId: principal.keyId,
  userId: principal.userId,
});

/** Who creates an event: their organization, the user who becomes its creator, and the change log's actor. */
export interface Creator {
  organizationId: string;
  userId: string;
  actor: Actor;
}

/** Validates a create body (D9) and stores the event with its `event.created` change. */
export async function insertNewEvent(
  deps: AppDeps,
  creator: Creator,
  body: unknown,
  idempotency?: IdempotencyClaim,
) {
  const now = nowText(deps);
  const built = buildNewEvent(body, { id: deps.ids.uuid(), now, newId: () => deps.ids.uuid() });
  const details = withResolvedPlaces(built, await resolvePlaces(deps, built.formattedLocations));
  const { grantedTo } = await deps.store.events.insert(
    {
      event: {
        organizationId: creator.organizationId,
        createdBy: creator.userId,
        previousStatus: null,
        details,
      },
      change: describeChange(deps, creator.actor, undefined, details),
      document: eventDocument(details),
    },
    idempotency,
  );
  return { id: details.id, grantedTo };
}

/** `idempotency`: the Idempotency-Key to record with the event (see idempotent-create.ts). */
export function createEvent(
  deps: AppDeps,
  principal: Principal,
  body: unknown,
  idempotency?: IdempotencyClaim,
) {
  const creator = {
    organizationId: principal.organizationId,
    userId: principal.userId,
    actor: apiKeyActor(principal),
  };
  return insertNewEvent(deps, creator, body, idempotency);
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

/**
 * `ifMatch` (an If-Match header) is compared inside the store's update transaction, so two clients
 * holding the same ETag cannot both win. Order (D5): a cancelled event is a 409 first, then 412.
 * Resolves to the details after the update as ready-to-send JSON and its ETag: what the store keeps,
 * made once.
 */
export async function updateEvent(
  deps: AppDeps,
  principal: Principal,
  id: string,
  body: unknown,
  conditions: { ifMatch?: string } = {},
): Promise<{ text: string; etag: string }> {
  const eventId = assertEventId(id);
  const now = nowText(deps);
  const { ifMatch } = conditions;
  // Looked up before the transaction (the store's update runs synchronously); undefined: locations unchanged.
  const places = await resolveSentPlaces(deps, body);
  let result: { text: string; etag: string } | undefined;
  const updated = await deps.store.events.update(principal.organizationId, eventId, (current, stored) => {
    // Nothing changed: the stored document is the answer.
    result = { text: stored.text, etag: storedEtag(stored) };
    if (
      ifMatch !== undefined &&
      current.details.status !== 'cancelled' &&
      !ifMatchAllows(ifMatch, result.etag)
    ) {
      throw new PreconditionFailedError();
    }
    const outcome = applyUpdate(current.details, body, { now, newId: () => deps.ids.uuid() });
    if (!outcome.changed) return undefined;
    const details = places ? withResolvedPlaces(outcome.details, places) : outcome.details;
    const document = eventDocument(details);
    result = document;
    return {
      event: { ...current, details },
      change: describeChange(deps, apiKeyActor(principal), current.details, details),
      document,
    };
  });
  if (!updated || !result) throw notFound(id);
  return result;
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

/** Operators move statuses (D2); the API never does. */
export async function changeEventStatus(deps: AppDeps, id: string, target: StatusTarget) {
  const eventId = assertEventId(id);
  const organizationId = await deps.store.events.findOrganizationOf(eventId);
  if (!organizationId) throw notFound(eventId);
  const now = nowText(deps);
  const updated = await deps.store.events.update(organizationId, eventId, (current) => {
    const next = changeStatus(current, target, now);
    if (next === current) return undefined;
    const data = { from: current.details.status, to: next.details.status };
    return {
      event: next,
      change: describeChange(deps, { type: 'operator' }, current.details, next.details, data),
      document: eventDocument(next.details),
    };
  });
  if (!updated) throw notFound(eventId);
  return { id: eventId, status: updated.details.status };
}
