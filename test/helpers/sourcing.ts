/** A venue on an event's shortlist, through the use cases: what D16's checklist asks for before sending (D21). */
import { randomUUID } from 'node:crypto';
import type { KeyRequester, PersonRequester } from '../../src/app/change-event.js';
import type { AppDeps } from '../../src/app/deps.js';
import { addVenueRequest } from '../../src/app/venue-requests.js';
import { createVenue } from '../../src/app/venues.js';

/** A person as the one who changes events (D15). */
export const asPerson = (person: { organizationId: string; userId: string }): PersonRequester => ({
  scope: 'grants',
  organizationId: person.organizationId,
  actor: { type: 'person', userId: person.userId },
});

/** Adds a new venue of the organization to the event's shortlist; resolves to the request. */
export async function shortlistVenue(
  deps: AppDeps,
  requester: KeyRequester | PersonRequester,
  eventId: string,
  name = 'Shortlisted Hotel',
) {
  const venue = await createVenue(deps, requester, {
    name,
    email: `${randomUUID()}@venues.example`,
    city: 'Lisbon',
  });
  return addVenueRequest(deps, requester, eventId, { venueId: venue.id });
}
