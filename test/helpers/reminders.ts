/**
 * Requests waiting for the venues' answers, sent through the use cases at the deps' clock, for the
 * scheduler's reminders (D28): what a reminder round finds, and what it left behind.
 */
import { randomUUID } from 'node:crypto';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { apiKeyRequester, changeEventStatus, createEvent } from '../../src/app/events.js';
import { addVenueRequest } from '../../src/app/venue-requests.js';
import { createVenue } from '../../src/app/venues.js';
import { requestChangeData } from '../../src/domain/changes.js';
import type { Store } from '../../src/ports/store.js';

export interface WaitingRequest {
  organizationId: string;
  eventId: string;
  requestId: string;
  venueEmail: string;
}

/** A body D16's checklist accepts; the reply date comes from the request. */
const READY = {
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 40,
  meetingRoomDates: [{ startDate: '2027-06-14', endDate: '2027-06-15' }],
  accommodations: { '2027-06-14': { Single: 20 } },
};

/**
 * `count` requests sent now (the clock of `deps`) with reply date `responseDueDate`, at most 50 per
 * event, each to a venue of its own.
 */
export async function sendWaitingRequests(
  deps: AppDeps,
  principal: Principal,
  options: { count: number; responseDueDate: string; eventName?: string; venueName?: string },
): Promise<WaitingRequest[]> {
  const planner = apiKeyRequester(principal);
  const waiting: WaitingRequest[] = [];
  for (let first = 0; first < options.count; first += 50) {
    const { id: eventId } = await createEvent(deps, principal, {
      name: options.eventName ?? `Summit ${first / 50 + 1}`,
      ...READY,
    });
    const batch = Math.min(50, options.count - first);
    for (let index = 0; index < batch; index++) {
      const venueEmail = `${randomUUID()}@venues.example`;
      const venue = await createVenue(deps, planner, {
        name: options.venueName ?? `Venue ${first + index + 1}`,
        email: venueEmail,
        city: 'Lisbon',
      });
      const request = await addVenueRequest(deps, planner, eventId, {
        venueId: venue.id,
        responseDueDate: options.responseDueDate,
      });
      waiting.push({ organizationId: principal.organizationId, eventId, requestId: request.id, venueEmail });
    }
    await changeEventStatus(deps, eventId, 'wait_for_proposals');
  }
  return waiting;
}

/** The `venue_request.reminded` records of the event, by request id. */
export async function remindersRecorded(store: Store, organizationId: string, eventId: string) {
  const changes = await store.events.changes(organizationId, eventId, { limit: 100 });
  const byRequest = new Map<string, number>();
  for (const change of changes) {
    if (change.type !== 'venue_request.reminded') continue;
    const requestId = requestChangeData(change)!.requestId;
    byRequest.set(requestId, (byRequest.get(requestId) ?? 0) + 1);
  }
  return byRequest;
}

/** The reminder mails in the outbox to `address`. */
export async function reminderMails(store: Store, address: string) {
  const mails = await store.mail.list({ to: address, limit: 20 });
  return mails.filter((mail) => mail.subject.startsWith('Reminder:'));
}
