/**
 * The changes of an event's requests for proposals (D21–D24), each made through `changeEvent` on the
 * store's sourcing path: the requests are read inside the write, so a step is decided on what is
 * stored at that moment, and the step's request, proposal, change records and mails are written in
 * the event's transaction. Checks come in D5's order: the request (404), its state (409), the body (400).
 */
import { assertMayAward, assertMayDecline, awardRequest, declineRequest } from '../domain/award.js';
import { EventNotSourcingError, type Problem, ValidationError } from '../domain/errors.js';
import type { ProposalSource } from '../domain/proposal.js';
import { submitProposal } from '../domain/proposal-submission.js';
import type { StoredEvent } from '../domain/types.js';
import type { Venue } from '../domain/venue.js';
import { isOpenRequest, isSourcing, type RequestStep } from '../domain/venue-request.js';
import { readAward, readDecline, readReplyDateMove, readTurnDown } from '../domain/venue-request-bodies.js';
import {
  addVenueRequest,
  assertMayMoveReplyDate,
  assertVenueMayAnswer,
  markViewed,
  moveReplyDate,
  remindRequest,
  turnDownRequest,
  withdrawRequest,
} from '../domain/venue-request-steps.js';
import type { ChangeContext, ChangeOutcome, EventChange, Requester } from './change-event.js';
import { readParties, requestIn, type SourcingParties, tellVenues } from './sourcing.js';

/** The requests as the write read them. */
const requestsOf = (context: ChangeContext<unknown, Requester>) =>
  (context.sourcing ?? []).map(({ request }) => request);

/** An outcome of request steps, with the mails (and new links) of those whose venue is told. */
function stepped(
  event: StoredEvent,
  steps: readonly RequestStep[],
  context: ChangeContext<SourcingParties, Requester>,
  extra: Partial<ChangeOutcome> = {},
): ChangeOutcome {
  const { mails, tokenHashes, links } = tellVenues(steps, event.details, context.prepared, context.newToken);
  return { event, steps, mails, tokenHashes, ...(links.length > 0 ? { links } : {}), ...extra };
}

/** The event moved to `status` by a sourcing step (a proposal's arrival, an award), with its record data. */
function withStatus(current: StoredEvent, status: StoredEvent['details']['status'], now: string) {
  if (status === current.details.status) return { event: current };
  return {
    event: { ...current, previousStatus: null, details: { ...current.details, status, updatedAt: now } },
    data: { from: current.details.status, to: status },
  };
}

/** What adding a venue takes: the venue as read, or why it cannot be (reported after the event's checks). */
export interface AddRequestInput {
  /** The venue the body names, when the organization has it. */
  venue: Venue | undefined;
  /** The body as read (readNewVenueRequest); null with `problems` when it was refused. */
  body: { venueId: string; responseDueDate: string | null } | null;
  problems: Problem[];
}

/**
 * Adds a venue to the event (D21): on the shortlist before the event is sent out, sent at once (a
 * mail with the venue's new link) while venues are being asked.
 */
export const ADD_REQUEST: EventChange<AddRequestInput, SourcingParties> = {
  sourcing: true,
  prepare: readParties,
  apply(current, input, context) {
    if (!isSourcing(current.details.status)) throw new EventNotSourcingError(current.details.status);
    if (input.problems.length > 0) throw new ValidationError(input.problems);
    if (!input.body || !input.venue) {
      throw new ValidationError([
        { field: 'venueId', code: 'unknown_venue', message: 'is not a venue of your organization' },
      ]);
    }
    const step = addVenueRequest({
      event: current.details,
      venue: input.venue,
      existing: requestsOf(context),
      responseDueDate: input.body.responseDueDate,
      id: context.newId(),
      now: context.now,
    });
    return stepped(current, [step], context);
  },
};

/**
 * The planner withdraws a request (D21's DELETE): a shortlisted one is removed, an open one becomes
 * `withdrawn` and its venue is told; a closed one is refused.
 */
export const WITHDRAW_REQUEST: EventChange<{ requestId: string }, SourcingParties> = {
  sourcing: true,
  prepare: readParties,
  apply(current, { requestId }, context) {
    const { request } = requestIn(context.sourcing ?? [], requestId);
    return stepped(current, [withdrawRequest(request, context.now)], context);
  },
};

/** A proposal (or a revision) for a request, by the venue or by a planner on its behalf (D23). */
export interface ProposalInput {
  requestId: string;
  body: unknown;
  submittedBy: ProposalSource;
  /** The version of the request the venue's form was opened on (D26): the write refuses it when newer exists. */
  openedOn?: number;
}

/**
 * Submits a proposal (D23): a new revision, the request `proposed`, and the first proposal of the
 * event moves it to `proposals_received`, recorded with the same actor (the venue, or the planner who
 * entered it).
 */
export const SUBMIT_PROPOSAL: EventChange<ProposalInput, { latestVersion: number }> = {
  sourcing: true,
  tellsPeople: true,
  async prepare(deps, organizationId, eventId) {
    const [latest] = await deps.store.venueRequests.versions(organizationId, eventId);
    return { latestVersion: latest?.version ?? 0 };
  },
  apply(current, input, context) {
    const { request, proposal: latest } = requestIn(context.sourcing ?? [], input.requestId);
    const { latestVersion } = context.prepared;
    const submission = submitProposal({
      event: current.details,
      request,
      latestRevision: latest?.revision ?? 0,
      body: input.body,
      submittedBy: input.submittedBy,
      latestVersion: input.openedOn ?? latestVersion,
      id: context.newId(),
      now: context.now,
    });
    return {
      ...withStatus(current, submission.eventStatus, context.now),
      steps: [submission.step],
      proposals: [submission.proposal],
      // The version the proposal was judged against must still be the latest when it is written.
      openedOn: input.openedOn ?? latestVersion,
    };
  },
};

/** The venue turns the request down (D22): `{ reason, comment? }`. */
export const TURN_DOWN: EventChange<{ requestId: string; body: unknown }> = {
  sourcing: true,
  tellsPeople: true,
  apply(current, { requestId, body }, context) {
    const { request } = requestIn(context.sourcing ?? [], requestId);
    // The request's state before the body: a closed request never answers with a 400.
    assertVenueMayAnswer(request, current.details.status);
    const step = turnDownRequest(request, current.details.status, readTurnDown(body), context.now);
    return { event: current, steps: [step] };
  },
};

/** The venue opened its link (D22): the request is `viewed`, once; nothing is recorded or sent. */
export const MARK_VIEWED: EventChange<{ requestId: string }> = {
  sourcing: true,
  apply(current, { requestId }, context) {
    const step = markViewed(requestIn(context.sourcing ?? [], requestId).request, context.now);
    return step ? { event: current, steps: [step] } : undefined;
  },
};

/**
 * Awards a request (D24): the request `awarded`, the event `booked`, every other request declined,
 * marked `no_response` or withdrawn from the shortlist, and each venue asked told by mail. Decided on
 * the requests as the write read them: of two awards at the same moment, the second finds the event
 * booked and is refused.
 */
export const AWARD: EventChange<{ requestId: string; body: unknown }, SourcingParties> = {
  sourcing: true,
  prepare: readParties,
  apply(current, { requestId, body }, context) {
    const sourcing = context.sourcing ?? [];
    const proposal = requestIn(sourcing, requestId).proposal;
    const input = {
      eventStatus: current.details.status,
      requests: requestsOf(context),
      requestId,
      proposal,
      now: context.now,
    };
    assertMayAward(input);
    const decision = awardRequest({ ...input, comment: readAward(body).comment });
    const moved = withStatus(current, decision.eventStatus, context.now);
    return stepped(moved.event, decision.steps, context, 'data' in moved ? { data: moved.data } : {});
  },
};

/** Declines one proposal with a reason (D24); its venue is told. */
export const DECLINE: EventChange<{ requestId: string; body: unknown }, SourcingParties> = {
  sourcing: true,
  prepare: readParties,
  apply(current, { requestId, body }, context) {
    requestIn(context.sourcing ?? [], requestId);
    const input = { eventStatus: current.details.status, requests: requestsOf(context), requestId };
    assertMayDecline(input);
    const decision = declineRequest({ ...input, decision: readDecline(body), now: context.now });
    return stepped(current, decision.steps, context);
  },
};

/**
 * The reminder of a request's reply date (D28), `days` before it: judged inside the write on the
 * request as stored, so a request answered, closed, moved or reminded since the round found it is
 * left alone (nothing written); otherwise the venue is mailed once and `venue_request.reminded`
 * recorded, or the reminder is settled without a mail when it is not needed.
 */
export const REMIND: EventChange<{ requestId: string; days: number }, SourcingParties> = {
  sourcing: true,
  prepare: readParties,
  apply(current, { requestId, days }, context) {
    const found = (context.sourcing ?? []).find(({ request }) => request.id === requestId);
    if (!found) return undefined;
    const step = remindRequest(found.request, current.details.status, context.now, days);
    return step ? stepped(current, [step], context) : undefined;
  },
};

/** Which requests a move of reply dates is for (D28): one, or every open request of the event. */
export type ReplyDateMoveInput = { body: unknown } & ({ requestId: string } | { allOpen: true });

/**
 * Moves reply dates (D28): one request's (on the shortlist or open; closed is a 409), or every open
 * request's at once (the dashboard's "Move for every open request"). Each open request's venue is
 * told by mail with a new link; the event's state is checked before the body, as D5 orders.
 */
export const MOVE_REPLY_DATE: EventChange<ReplyDateMoveInput, SourcingParties> = {
  sourcing: true,
  prepare: readParties,
  apply(current, input, context) {
    const sourcing = context.sourcing ?? [];
    const status = current.details.status;
    if (!isSourcing(status)) throw new EventNotSourcingError(status);
    const requests =
      'requestId' in input
        ? [requestIn(sourcing, input.requestId).request]
        : requestsOf(context).filter((request) => isOpenRequest(request.status));
    // The request's state before the body: a closed request never answers with a 400.
    for (const request of requests) assertMayMoveReplyDate(request, status);
    const { responseDueDate } = readReplyDateMove(input.body, context.now);
    const steps = requests.flatMap((request) => {
      const step = moveReplyDate(request, status, responseDueDate, context.now);
      return step ? [step] : [];
    });
    return steps.length > 0 ? stepped(current, steps, context) : undefined;
  },
};
