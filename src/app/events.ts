/** Event use cases: the HTTP routes and the CLI call these, never the store directly. */
import { buildNewEvent } from '../domain/create-event.js';
import { NotFoundError, PreconditionFailedError, type Problem, ValidationError } from '../domain/errors.js';
import { changeStatus, type StatusTarget } from '../domain/status.js';
import type { EventDetails } from '../domain/types.js';
import { applyUpdate } from '../domain/update-event.js';
import { isUuid } from '../domain/values.js';
import type { EventPage } from '../ports/event-repository.js';
import type { IdempotencyClaim } from '../ports/idempotency-repository.js';
import { type AppDeps, nowText, type Principal } from './deps.js';
import { etagOf, ifMatchAllows } from './etag.js';

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

const notFound = (id: string) => new NotFoundError(`No event with id ${id}.`);

/** `idempotency`: the Idempotency-Key to record with the event (see idempotent-create.ts). */
export async function createEvent(
  deps: AppDeps,
  principal: Principal,
  body: unknown,
  idempotency?: IdempotencyClaim,
) {
  const now = nowText(deps);
  const details = buildNewEvent(body, { id: deps.ids.uuid(), now, newId: () => deps.ids.uuid() });
  const { grantedTo } = await deps.store.events.insert(
    {
      organizationId: principal.organizationId,
      createdBy: principal.userId,
      previousStatus: null,
      details,
    },
    idempotency,
  );
  return { id: details.id, grantedTo };
}

/** The full details view as ready-to-send JSON. */
export async function getEventDocument(deps: AppDeps, principal: Principal, id: string): Promise<string> {
  const eventId = assertEventId(id);
  const document = await deps.store.events.findDocument(principal.organizationId, eventId);
  if (document === undefined) throw notFound(id);
  return document;
}

/**
 * `ifMatch` (an If-Match header) is compared inside the store's update transaction, so two clients
 * holding the same ETag cannot both win. Order (D5): a cancelled event is a 409 first, then 412.
 */
export async function updateEvent(
  deps: AppDeps,
  principal: Principal,
  id: string,
  body: unknown,
  conditions: { ifMatch?: string } = {},
): Promise<EventDetails> {
  const eventId = assertEventId(id);
  const now = nowText(deps);
  const { ifMatch } = conditions;
  const updated = await deps.store.events.update(principal.organizationId, eventId, (current) => {
    if (
      ifMatch !== undefined &&
      current.details.status !== 'cancelled' &&
      !ifMatchAllows(ifMatch, etagOf(JSON.stringify(current.details)))
    ) {
      throw new PreconditionFailedError();
    }
    const outcome = applyUpdate(current.details, body, { now, newId: () => deps.ids.uuid() });
    return outcome.changed ? { ...current, details: outcome.details } : current;
  });
  if (!updated) throw notFound(id);
  return updated.details;
}

export async function listEvents(
  deps: AppDeps,
  principal: Principal,
  query: { page: number; limit: number },
): Promise<EventPage> {
  return deps.store.events.list(principal.organizationId, {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
}

/** Operators move statuses (D2); the API never does. */
export async function changeEventStatus(deps: AppDeps, id: string, target: StatusTarget) {
  const eventId = assertEventId(id);
  const organizationId = await deps.store.events.findOrganizationOf(eventId);
  if (!organizationId) throw notFound(eventId);
  const now = nowText(deps);
  const updated = await deps.store.events.update(organizationId, eventId, (current) =>
    changeStatus(current, target, now),
  );
  if (!updated) throw notFound(eventId);
  return { id: eventId, status: updated.details.status };
}
