/** Records written straight through the ports, so the contract suites test the repositories alone. */
import { randomUUID } from 'node:crypto';
import { describeChange } from '../../src/app/change-log.js';
import { eventDocument } from '../../src/app/etag.js';
import { buildNewEvent } from '../../src/domain/create-event.js';
import type { StoredEvent } from '../../src/domain/types.js';
import { buildNewVenue, type Venue, venueSummary } from '../../src/domain/venue.js';
import type { VenueRequest } from '../../src/domain/venue-request.js';
import type { EventWrite } from '../../src/ports/event-repository.js';
import type { IdempotencyClaim } from '../../src/ports/idempotency-repository.js';
import type { ApiKeyRecord, MemberRole } from '../../src/ports/identity-repository.js';
import type { Store } from '../../src/ports/store.js';

let tick = Date.parse('2026-03-01T09:00:00.000Z');
/** Distinct, increasing timestamps, so orderings are deterministic. */
export function nextTime(): string {
  tick += 1000;
  return new Date(tick).toISOString();
}

export async function newOrganization(store: Store, name = 'Org') {
  const id = randomUUID();
  await store.identity.insertOrganization({ id, name, createdAt: nextTime() });
  return id;
}

export async function newUser(store: Store, organizationId: string, email = `${randomUUID()}@example.com`) {
  const id = randomUUID();
  await store.identity.insertUser({
    id,
    organizationId,
    email,
    name: null,
    active: true,
    createdAt: nextTime(),
  });
  return id;
}

export async function newGroup(store: Store, organizationId: string, members: Array<[string, MemberRole]>) {
  const id = randomUUID();
  await store.identity.insertGroup({ id, organizationId, name: 'Group', createdAt: nextTime() });
  for (const [userId, role] of members) await store.identity.putMember(organizationId, id, userId, role);
  return id;
}

export function newKey(organizationId: string, userId: string, keyId: string): ApiKeyRecord {
  return {
    keyId,
    organizationId,
    userId,
    secretHash: 'ab'.repeat(32),
    createdAt: nextTime(),
    revokedAt: null,
    lastUsedAt: null,
  };
}

export function newEvent(
  organizationId: string,
  createdBy: string,
  body: Record<string, unknown> = {},
  createdAt = nextTime(),
): StoredEvent {
  return {
    organizationId,
    createdBy,
    previousStatus: null,
    details: buildNewEvent(
      { name: 'Summit', eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }], ...body },
      { id: randomUUID(), now: createdAt, newId: randomUUID },
    ),
  };
}

const fixtureIds = { uuid: randomUUID, token: () => randomUUID().replaceAll('-', '') };
const operator = { type: 'operator' } as const;

/** The write that creates `event`, with its `event.created` change, as the create use case makes it. */
export function createWrite(event: StoredEvent): EventWrite {
  return {
    event,
    change: describeChange({ ids: fixtureIds }, operator, undefined, event.details),
    document: eventDocument(event.details),
  };
}

/** Stores an event with its `event.created` change, as the create use case does. */
export function insertEvent(store: Store, event: StoredEvent, idempotency?: IdempotencyClaim) {
  return store.events.insert(createWrite(event), idempotency);
}

/** The write of `next` in place of `current`, with its change record, for EventRepository.update. */
export function rewrite(current: StoredEvent, next: StoredEvent): EventWrite {
  return {
    event: next,
    change: describeChange({ ids: fixtureIds }, operator, current.details, next.details),
    document: eventDocument(next.details),
  };
}

/** A venue of the directory as a create makes it (D20). */
export function newVenue(body: Record<string, unknown> = {}, now = nextTime()): Venue {
  return buildNewVenue(
    { name: 'Hotel Atlântico', email: 'sales@atlantico.example', city: 'Lisbon', ...body },
    { id: randomUUID(), now },
  );
}

/** A request of `event` to `venue`, on the shortlist unless `fields` say otherwise. */
export function newRequest(
  event: StoredEvent,
  venue: Venue,
  fields: Partial<VenueRequest> = {},
  now = nextTime(),
): VenueRequest {
  return {
    id: randomUUID(),
    eventId: event.details.id,
    venue: venueSummary(venue),
    status: 'shortlisted',
    responseDueDate: null,
    sentAt: null,
    viewedAt: null,
    respondedAt: null,
    turnDown: null,
    decision: null,
    remindedAt: null,
    reminderSettledAt: null,
    dueDateToldAt: null,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}
