/**
 * Submitting a proposal (D23): by the venue on its page or by a planner on its behalf, while the
 * request is open. Each submission is a new revision; the first proposal of any request moves the
 * event from `wait_for_proposals` to `proposals_received`.
 */
import { ValidationError } from './errors.js';
import { type Proposal, type ProposalSource, readProposal } from './proposal.js';
import { isLate } from './reply-dates.js';
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
  /** The latest version of the request sent to venues (D26); 0 when none is kept. */
  latestVersion: number;
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
 * The version a planner's proposal answers (D26): `requestVersion` when the body gives one (a whole
 * number from 1 to the latest), else the latest. The body without it, for the terms. A venue's body
 * never names a version: its form's version is checked by the write.
 */
function answeredVersion(input: SubmitProposal): { version: number; terms: unknown; problem?: string } {
  const latest = Math.max(input.latestVersion, 1);
  const { body } = input;
  if (input.submittedBy !== 'planner' || typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { version: latest, terms: body };
  }
  if (!Object.hasOwn(body, 'requestVersion')) return { version: latest, terms: body };
  const { requestVersion, ...terms } = body as Record<string, unknown>;
  if (requestVersion === null || requestVersion === undefined) return { version: latest, terms };
  if (
    !Number.isInteger(requestVersion) ||
    (requestVersion as number) < 1 ||
    (requestVersion as number) > latest
  ) {
    return {
      version: latest,
      terms,
      problem: `must be a version of the request sent so far, from 1 to ${latest}`,
    };
  }
  return { version: requestVersion as number, terms };
}

/**
 * A new revision of the request's proposal, answering the latest version of the request unless a
 * planner names an older one, and late when submitted after the reply date (D28). Throws, in this
 * order: RequestNotSentError (shortlisted), RequestClosedError, EventNotSourcingError (409s, before
 * the body is read), then a ValidationError naming every problem of the body (400).
 */
export function submitProposal(input: SubmitProposal): ProposalSubmission {
  const { event, request, now } = input;
  assertVenueMayAnswer(request, event.status);
  const answered = answeredVersion(input);
  const versionProblems = answered.problem
    ? [{ field: 'requestVersion', code: 'out_of_range', message: answered.problem }]
    : [];
  let terms: ReturnType<typeof readProposal>;
  try {
    terms = readProposal(answered.terms, { event, now });
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError([...versionProblems, ...error.problems]);
    throw error;
  }
  if (versionProblems.length > 0) throw new ValidationError(versionProblems);
  const proposal: Proposal = {
    id: input.id,
    requestId: request.id,
    revision: input.latestRevision + 1,
    submittedAt: now,
    submittedBy: input.submittedBy,
    requestVersion: answered.version,
    late: isLate(request.responseDueDate, now),
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
