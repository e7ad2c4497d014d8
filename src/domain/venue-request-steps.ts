/**
 * The steps of a request for proposals before a decision (D21, D22): shortlisting or sending at once,
 * sending the shortlist, the venue's first view, the venue turning down, the planner withdrawing, and
 * the event's cancellation. Each is a pure function returning a RequestStep (or throwing a typed
 * error); proposals are in proposal-submission.ts, awards and declines in award.ts.
 */
import { addDays, isPastDate, utcDateOf } from './anywhere-on-earth.js';
import type { ChecklistItem } from './errors.js';
import {
  EventNotSourcingError,
  RequestClosedError,
  RequestNotProposedError,
  RequestNotSentError,
  ValidationError,
  VenueAlreadyRequestedError,
  VenueArchivedError,
} from './errors.js';
import { reminderDecision } from './reply-dates.js';
import type { EventDetails, EventStatus } from './types.js';
import { type Venue, venueSummary } from './venue.js';
import {
  isClosedRequest,
  isOpenRequest,
  isSourcing,
  type RequestStep,
  statusChange,
  type TurnDown,
  type VenueRequest,
} from './venue-request.js';

/** At most this many requests per event, whatever their status (D21). */
export const MAX_REQUESTS_PER_EVENT = 50;

/** Without a decision deadline, a request is due this many days after it is sent (D21). */
export const DEFAULT_RESPONSE_DAYS = 14;

/** What the steps read of the event. */
export type SourcingEvent = Pick<EventDetails, 'id' | 'status' | 'decisionDeadline'>;

/**
 * The response due date a request is sent with (D21): the one the planner gave, else the date of the
 * event's decision deadline, else 14 days after sending (UTC). A date that has passed by the time of
 * sending (a shortlisted request's, or the deadline's) gives way to the next rule.
 */
export function responseDueDateOnSending(
  given: string | null,
  decisionDeadline: string | null,
  now: string,
): string {
  if (given !== null && !isPastDate(given, now)) return given;
  const deadlineDate = decisionDeadline?.slice(0, 10);
  if (deadlineDate !== undefined && !isPastDate(deadlineDate, now)) return deadlineDate;
  return addDays(utcDateOf(now), DEFAULT_RESPONSE_DAYS);
}

export interface AddVenueRequest {
  event: SourcingEvent;
  venue: Venue;
  /** Every request of the event, whatever its status. */
  existing: readonly VenueRequest[];
  /** From readNewVenueRequest: null lets the default apply. */
  responseDueDate: string | null;
  id: string;
  now: string;
}

/**
 * Adds a venue to an event (D21): on the shortlist while the event is `draft` or `pending_approval`,
 * sent at once while venues are being asked. Throws EventNotSourcingError (booked, completed,
 * cancelled), VenueArchivedError, VenueAlreadyRequestedError, or a ValidationError naming `venueId`
 * when the event already has 50 requests.
 */
export function addVenueRequest(input: AddVenueRequest): RequestStep {
  const { event, venue, existing, now } = input;
  if (!isSourcing(event.status)) throw new EventNotSourcingError(event.status);
  if (venue.archivedAt !== null) throw new VenueArchivedError(venue.name);
  const same = existing.find((request) => request.venue.id === venue.id);
  if (same) throw new VenueAlreadyRequestedError(same.id);
  if (existing.length >= MAX_REQUESTS_PER_EVENT) {
    throw new ValidationError([
      {
        field: 'venueId',
        code: 'too_many',
        message: `an event can have at most ${MAX_REQUESTS_PER_EVENT} venue requests`,
      },
    ]);
  }
  const shortlisted: VenueRequest = {
    id: input.id,
    eventId: event.id,
    venue: venueSummary(venue),
    status: 'shortlisted',
    responseDueDate: input.responseDueDate,
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
  };
  if (!sendsAtOnce(event.status)) return { before: null, after: shortlisted, tellVenue: false, change: null };
  return { ...send(shortlisted, event, now), before: null };
}

/** While venues are being asked, a new request goes out at once; before that, it waits on the shortlist. */
function sendsAtOnce(status: EventStatus): boolean {
  return status === 'wait_for_proposals' || status === 'proposals_received';
}

function send(
  request: VenueRequest,
  event: Pick<SourcingEvent, 'decisionDeadline'>,
  now: string,
): RequestStep {
  const after: VenueRequest = {
    ...request,
    status: 'sent',
    responseDueDate: responseDueDateOnSending(request.responseDueDate, event.decisionDeadline, now),
    sentAt: now,
    // The request's mail tells the venue its reply date.
    dueDateToldAt: now,
    updatedAt: now,
  };
  return { before: request, after, tellVenue: true, change: statusChange(after, 'sent') };
}

/**
 * Sends every shortlisted request: what a move into `wait_for_proposals` does (D21), whoever makes it.
 * Requests in other statuses are left as they are.
 */
export function sendShortlist(
  requests: readonly VenueRequest[],
  event: Pick<SourcingEvent, 'decisionDeadline'>,
  now: string,
): RequestStep[] {
  return requests
    .filter((request) => request.status === 'shortlisted')
    .map((request) => send(request, event, now));
}

/**
 * The venue opened its link (D22): a `sent` request becomes `viewed`, and `viewedAt` is set the first
 * time only, while the request is open (a closed request's page changes nothing). Returns null when
 * nothing changes. No change record and no mail: a view is not a step of the log (D21).
 */
export function markViewed(request: VenueRequest, now: string): RequestStep | null {
  if (request.viewedAt !== null || !isOpenRequest(request.status)) return null;
  const after: VenueRequest = {
    ...request,
    status: request.status === 'sent' ? 'viewed' : request.status,
    viewedAt: now,
    updatedAt: now,
  };
  return { before: request, after, tellVenue: false, change: null };
}

/**
 * The reminder round's step for one request (D28), as `reminderDecision` judges it at `now` with
 * reminders `days` before the reply date: `send` mails the venue once and records
 * `venue_request.reminded`; `not_needed` settles the reminder without a mail or a record; otherwise
 * null, and nothing is written. Judged on the request as the write read it, so a request answered or
 * closed since the round found it, or reminded by another instance meanwhile, is left alone.
 */
export function remindRequest(
  request: VenueRequest,
  eventStatus: EventStatus,
  now: string,
  days: number,
): RequestStep | null {
  const decision = reminderDecision(request, eventStatus, now, days);
  if (decision === 'not_due') return null;
  if (decision === 'not_needed') {
    return { before: request, after: { ...request, reminderSettledAt: now }, tellVenue: false, change: null };
  }
  const after: VenueRequest = { ...request, remindedAt: now, reminderSettledAt: now };
  return {
    before: request,
    after,
    tellVenue: true,
    change: {
      type: 'venue_request.reminded',
      data: { requestId: request.id, venueId: request.venue.id, responseDueDate: request.responseDueDate! },
    },
  };
}

/**
 * The planner asks the venue to revise its proposal (D26): one answering an older version of the
 * request, or expired. Only a `proposed` request (RequestNotProposedError) while sourcing goes on
 * (EventNotSourcingError). The request is left as it is but for `updatedAt`, so a page read before it
 * is stale; recorded as `venue_request.revision_requested`. The use case writes the mail, which says
 * what changed since the version the proposal answers.
 */
export function askForRevision(
  request: VenueRequest,
  eventStatus: EventStatus,
  proposalRevision: number,
  now: string,
): RequestStep {
  if (!isSourcing(eventStatus)) throw new EventNotSourcingError(eventStatus);
  if (request.status !== 'proposed')
    throw new RequestNotProposedError(request.status, 'asked for a revision');
  return {
    before: request,
    after: { ...request, updatedAt: now },
    tellVenue: false,
    change: {
      type: 'venue_request.revision_requested',
      data: { requestId: request.id, venueId: request.venue.id, proposalRevision },
    },
  };
}

/** A reply date moves while sourcing goes on (EventNotSourcingError) on a request not closed (RequestClosedError). */
export function assertMayMoveReplyDate(request: VenueRequest, eventStatus: EventStatus): void {
  if (!isSourcing(eventStatus)) throw new EventNotSourcingError(eventStatus);
  if (isClosedRequest(request.status)) throw new RequestClosedError(request.status);
}

/**
 * The planner moves a request's reply date (D28): on the shortlist, the date it will be sent with; on
 * an open request, the venue is told by mail and the reminder is re-armed for the new date (the move's
 * mail tells the date, so a date moved to within the reminder's days needs no reminder). Recorded as
 * `venue_request.due_date_changed`. The same date again changes nothing (null). Refused as
 * `assertMayMoveReplyDate` says.
 */
export function moveReplyDate(
  request: VenueRequest,
  eventStatus: EventStatus,
  responseDueDate: string,
  now: string,
): RequestStep | null {
  assertMayMoveReplyDate(request, eventStatus);
  if (request.responseDueDate === responseDueDate) return null;
  const open = request.status !== 'shortlisted';
  const after: VenueRequest = {
    ...request,
    responseDueDate,
    ...(open ? { remindedAt: null, reminderSettledAt: null, dueDateToldAt: now } : {}),
    updatedAt: now,
  };
  return {
    before: request,
    after,
    tellVenue: open,
    change: {
      type: 'venue_request.due_date_changed',
      data: {
        requestId: request.id,
        venueId: request.venue.id,
        responseDueDate,
        previousResponseDueDate: request.responseDueDate,
      },
    },
  };
}

/**
 * Refuses a step the venue takes (a proposal or a turn-down) unless the request is open and the
 * event still sourcing: RequestNotSentError, RequestClosedError, EventNotSourcingError.
 */
export function assertVenueMayAnswer(request: VenueRequest, eventStatus: EventStatus): void {
  if (request.status === 'shortlisted') throw new RequestNotSentError();
  if (isClosedRequest(request.status)) throw new RequestClosedError(request.status);
  if (!isSourcing(eventStatus)) throw new EventNotSourcingError(eventStatus);
}

/**
 * The venue declines to bid (D22), from `sent`, `viewed` or `proposed` (a venue may take back a
 * proposal this way). The planners are told by the use case (D24); the venue is not.
 */
export function turnDownRequest(
  request: VenueRequest,
  eventStatus: EventStatus,
  turnDown: TurnDown,
  now: string,
): RequestStep {
  assertVenueMayAnswer(request, eventStatus);
  const after: VenueRequest = {
    ...request,
    status: 'turned_down',
    turnDown,
    respondedAt: request.respondedAt ?? now,
    updatedAt: now,
  };
  return { before: request, after, tellVenue: false, change: statusChange(after, 'turned_down') };
}

/**
 * The planner withdraws a request (D21's DELETE): a shortlisted one is removed (`after` is null,
 * nothing recorded, nobody told); an open one becomes `withdrawn` and the venue is told. A closed one
 * is refused with RequestClosedError.
 */
export function withdrawRequest(request: VenueRequest, now: string): RequestStep {
  if (request.status === 'shortlisted')
    return { before: request, after: null, tellVenue: false, change: null };
  if (isClosedRequest(request.status)) throw new RequestClosedError(request.status);
  const after: VenueRequest = { ...request, status: 'withdrawn', updatedAt: now };
  return { before: request, after, tellVenue: true, change: statusChange(after, 'withdrawn') };
}

/**
 * The event is cancelled (D24): every open request is withdrawn and its venue told. The shortlist
 * stays as it is (nothing was sent), so an event reopened to `draft` keeps it; closed requests stay.
 */
export function withdrawOnCancel(requests: readonly VenueRequest[], now: string): RequestStep[] {
  return requests
    .filter((request) => !isClosedRequest(request.status) && request.status !== 'shortlisted')
    .map((request) => withdrawRequest(request, now));
}

/** While the event is in one of these statuses, venues are being asked: nothing waits on the shortlist. */
export function sendsAtOnceIn(status: EventStatus): boolean {
  return sendsAtOnce(status);
}

/**
 * The request steps a move of the event from `from` to `to` brings, whoever makes it (a person's
 * move, an operator's status, a reopening): into `wait_for_proposals` (or straight into
 * `proposals_received`) every shortlisted request is sent (D21); into `cancelled` every open request
 * is withdrawn and its venue told (D24). Other moves change no request.
 */
export function stepsOnStatusMove(
  from: EventStatus,
  to: EventStatus,
  requests: readonly VenueRequest[],
  event: Pick<SourcingEvent, 'decisionDeadline'>,
  now: string,
): RequestStep[] {
  if (from === to) return [];
  if (to === 'cancelled') return withdrawOnCancel(requests, now);
  if (sendsAtOnce(to)) return sendShortlist(requests, event, now);
  return [];
}

/**
 * D16's pre-send checklist item that D21 adds, given how many venues are on the shortlist: null when
 * there is at least one.
 */
export function shortlistChecklistItem(shortlisted: number): ChecklistItem | null {
  if (shortlisted > 0) return null;
  return { field: 'venueRequests', message: 'Add at least one venue to the shortlist.' };
}
