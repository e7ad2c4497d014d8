/**
 * Submitting a proposal (D23): by the venue on its page or by a planner on its behalf, while the
 * request is open. Each submission is a new revision; the first proposal of any request moves the
 * event from `wait_for_proposals` to `proposals_received`.
 */
import { type Proposal, type ProposalSource, readProposal } from './proposal.js';
import type { EventDetails, EventStatus } from './types.js';
import type { RequestStep, VenueRequest } from './venue-request.js';
import { assertVenueMayAnswer } from './venue-request-steps.js';

export interface SubmitProposal {
  event: Pick<EventDetails, 'status' | 'currency' | 'eventDates'>;
  request: VenueRequest;
  /** The request's latest revision so far; 0 when it has none. */
  latestRevision: number;
  body: unknown;
  submittedBy: ProposalSource;
  id: string;
  now: string;
}

export interface ProposalSubmission {
  proposal: Proposal;
  /** The request now `proposed`; recorded as `proposal.submitted` with the revision. */
  step: RequestStep;
  /** The event's status after the submission. */
  eventStatus: EventStatus;
}

/** The event's status after a proposal arrives: `proposals_received` once any has, else unchanged. */
export function eventStatusAfterProposal(status: EventStatus): EventStatus {
  return status === 'wait_for_proposals' ? 'proposals_received' : status;
}

/**
 * A new revision of the request's proposal. Throws, in this order: RequestNotSentError (shortlisted),
 * RequestClosedError, EventNotSourcingError (409s, before the body is read), then a ValidationError
 * naming every problem of the body (400).
 */
export function submitProposal(input: SubmitProposal): ProposalSubmission {
  const { event, request, now } = input;
  assertVenueMayAnswer(request, event.status);
  const terms = readProposal(input.body, { event, now });
  const proposal: Proposal = {
    id: input.id,
    requestId: request.id,
    revision: input.latestRevision + 1,
    submittedAt: now,
    submittedBy: input.submittedBy,
    ...terms,
  };
  const after: VenueRequest = {
    ...request,
    status: 'proposed',
    respondedAt: request.respondedAt ?? now,
    updatedAt: now,
  };
  return {
    proposal,
    step: {
      before: request,
      after,
      tellVenue: false,
      change: {
        type: 'proposal.submitted',
        data: { requestId: request.id, venueId: request.venue.id, proposalRevision: proposal.revision },
      },
    },
    eventStatus: eventStatusAfterProposal(event.status),
  };
}
