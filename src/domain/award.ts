/**
 * The planner's decision (D24): awarding one proposal, which books the event and closes every other
 * request, and declining one proposal with a reason. Pure functions over the event's status and all
 * of its requests, returning each request's new state and whether its venue must be told.
 */
import { isPastDate } from './anywhere-on-earth.js';
import {
  EventNotSourcingError,
  NotFoundError,
  ProposalExpiredError,
  RequestNotProposedError,
} from './errors.js';
import type { Proposal } from './proposal.js';
import type { EventStatus } from './types.js';
import {
  type Decision,
  type DeclineReason,
  isSourcing,
  type RequestStatus,
  type RequestStep,
  statusChange,
  type VenueRequest,
} from './venue-request.js';

/**
 * What an award does to every other request of the event, by its status: a standing proposal is
 * declined (`selected_other_venue`), a request never answered gets `no_response`, a venue still on the
 * shortlist is withdrawn without being told (it was never asked), and closed requests stay as they are.
 */
export const AWARD_EFFECT_ON_OTHERS: Record<RequestStatus, { to: RequestStatus; tellVenue: boolean } | null> =
  {
    shortlisted: { to: 'withdrawn', tellVenue: false },
    sent: { to: 'no_response', tellVenue: true },
    viewed: { to: 'no_response', tellVenue: true },
    proposed: { to: 'declined', tellVenue: true },
    turned_down: null,
    awarded: null,
    declined: null,
    withdrawn: null,
    no_response: null,
  };

export interface AwardInput {
  eventStatus: EventStatus;
  /** Every request of the event. */
  requests: readonly VenueRequest[];
  requestId: string;
  /** The latest proposal of the request to award; null when it has none. */
  proposal: Pick<Proposal, 'validUntil'> | null;
  /** The planner's optional comment (readAward). */
  comment: string | null;
  now: string;
}

export interface DecisionOutcome {
  /** The event's status after the decision. */
  eventStatus: EventStatus;
  /** Every request that changed, the decided one first; the others in the order given. */
  steps: RequestStep[];
}

/** What the checks before a decision read of a request. */
type Decided = Pick<VenueRequest, 'id' | 'status'>;

function findRequest<R extends Decided>(requests: readonly R[], requestId: string): R {
  const request = requests.find((candidate) => candidate.id === requestId);
  if (!request) throw new NotFoundError(`The event has no venue request ${requestId}.`);
  return request;
}

/**
 * Whether the request may be awarded now, before its body is read: the request to award, or a throw of
 * NotFoundError, EventNotSourcingError, RequestNotProposedError, ProposalExpiredError, in that order.
 */
export function assertMayAward<R extends Decided = VenueRequest>(
  input: Omit<AwardInput, 'comment' | 'requests'> & { requests: readonly R[] },
): R {
  const awarded = findRequest(input.requests, input.requestId);
  if (!isSourcing(input.eventStatus)) throw new EventNotSourcingError(input.eventStatus);
  if (awarded.status !== 'proposed' || input.proposal === null)
    throw new RequestNotProposedError(awarded.status);
  if (isPastDate(input.proposal.validUntil, input.now))
    throw new ProposalExpiredError(input.proposal.validUntil);
  return awarded;
}

/**
 * Awards a request (D24): only a `proposed` one whose proposal's validUntil has not passed, on an
 * event still sourcing. The request → `awarded`, the event → `booked`, every other request as
 * AWARD_EFFECT_ON_OTHERS says. Throws as assertMayAward does.
 */
export function awardRequest(input: AwardInput): DecisionOutcome {
  const { requests, now } = input;
  const awarded = assertMayAward(input);

  const steps: RequestStep[] = [
    decide(awarded, 'awarded', { reason: null, comment: input.comment }, true, now),
  ];
  for (const other of requests) {
    if (other.id === awarded.id) continue;
    const effect = AWARD_EFFECT_ON_OTHERS[other.status];
    if (!effect) continue;
    const decision: Decision | null =
      effect.to === 'declined' ? { reason: 'selected_other_venue', comment: null } : null;
    steps.push(decide(other, effect.to, decision, effect.tellVenue, now));
  }
  return { eventStatus: 'booked', steps };
}

export interface DeclineInput {
  eventStatus: EventStatus;
  /** Every request of the event. */
  requests: readonly VenueRequest[];
  requestId: string;
  /** From readDecline: a reason, and a comment (required for `other`). */
  decision: { reason: DeclineReason; comment: string | null };
  now: string;
}

/**
 * Declines one proposal (D24): only a `proposed` request; it → `declined` with the reason, and its
 * venue is told. The event and the other requests are unchanged. Throws NotFoundError,
 * EventNotSourcingError (a cancelled event), RequestNotProposedError.
 */
export function declineRequest(input: DeclineInput): DecisionOutcome {
  const request = assertMayDecline(input);
  return {
    eventStatus: input.eventStatus,
    steps: [decide(request, 'declined', input.decision, true, input.now)],
  };
}

/**
 * Whether the request may be declined now, before its body is read: the request, or a throw of
 * NotFoundError, EventNotSourcingError (a cancelled event), RequestNotProposedError, in that order.
 */
export function assertMayDecline<R extends Decided = VenueRequest>(
  input: Omit<DeclineInput, 'decision' | 'now' | 'requests'> & { requests: readonly R[] },
): R {
  const request = findRequest(input.requests, input.requestId);
  if (input.eventStatus === 'cancelled') throw new EventNotSourcingError(input.eventStatus);
  if (request.status !== 'proposed') throw new RequestNotProposedError(request.status);
  return request;
}

function decide(
  request: VenueRequest,
  status: RequestStatus,
  decision: Decision | null,
  tellVenue: boolean,
  now: string,
): RequestStep {
  const after: VenueRequest = { ...request, status, decision, updatedAt: now };
  return { before: request, after, tellVenue, change: statusChange(after, status) };
}
