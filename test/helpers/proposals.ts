/**
 * An event sent to venues with their answers, through the use cases: each venue shortlisted, the event
 * sent (approval asked and given), then each venue's proposal entered on its behalf, its turn-down
 * through its own link, or no answer at all (D21–D23).
 */
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../src/app/deps.js';
import { moveMyEvent } from '../../src/app/planning.js';
import { turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { addVenueRequest, submitProposalFor } from '../../src/app/venue-requests.js';
import { createVenue } from '../../src/app/venues.js';
import { asPerson } from './sourcing.js';

type PersonRef = { organizationId: string; userId: string };

/** What a venue does with the request: proposes (the body), turns it down, or stays silent. */
export type VenueAnswer =
  | { venue: string; city?: string; proposal: Record<string, unknown>; clock?: AppDeps['clock'] }
  | { venue: string; city?: string; turnDown: { reason: string; comment?: string } }
  | { venue: string; city?: string };

export interface AnsweredVenue {
  requestId: string;
  venueName: string;
  email: string;
}

/** The token of a venue's link, from the newest mail to it. */
async function venueToken(deps: AppDeps, email: string): Promise<string> {
  const [mail] = await deps.store.mail.list({ to: email, limit: 1 });
  const token = /\/rfp\/([0-9A-Za-z]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no venue link in the mail to ${email}`);
  return token;
}

/**
 * Sends the event to one new venue per answer and applies the answers in order. The event must pass
 * D16's checklist but for its shortlist; `planner` creates and `approver` approves.
 */
export async function sendAndAnswer(
  deps: AppDeps,
  people: { planner: PersonRef; approver: PersonRef },
  eventId: string,
  answers: readonly VenueAnswer[],
): Promise<AnsweredVenue[]> {
  const planner = asPerson(people.planner);
  const venues: AnsweredVenue[] = [];
  for (const answer of answers) {
    const email = `${randomUUID()}@venues.example`;
    const venue = await createVenue(deps, planner, {
      name: answer.venue,
      email,
      city: answer.city ?? 'Lisbon',
    });
    // Requests are listed in the order they were added, to the millisecond (ties by id): on a fast
    // machine two adds can share one, so each waits for the clock to move past the one before.
    if (venues.length > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const request = await addVenueRequest(deps, planner, eventId, { venueId: venue.id });
    venues.push({ requestId: request.id, venueName: answer.venue, email });
  }
  await moveMyEvent(deps, people.planner, eventId, { move: 'request_approval' });
  await moveMyEvent(deps, people.approver, eventId, { move: 'approve_and_send' });
  for (const [index, answer] of answers.entries()) {
    const venue = venues[index]!;
    if ('proposal' in answer) {
      const at = answer.clock ? { ...deps, clock: answer.clock } : deps;
      await submitProposalFor(at, planner, eventId, venue.requestId, answer.proposal);
    } else if ('turnDown' in answer) {
      await turnDownVenueRequest(deps, await venueToken(deps, venue.email), answer.turnDown);
    }
  }
  return venues;
}
