/**
 * A request for proposals to one venue for one event (D21): its statuses and what each means, the
 * reasons a venue turns one down or a planner declines a proposal, the labels people read, and what a
 * step on a request leaves behind (the request after it, a mail to the venue, a change record).
 */
import type { EventStatus } from './types.js';
import type { VenueSummary } from './venue.js';

export const REQUEST_STATUSES = [
  'shortlisted',
  'sent',
  'viewed',
  'proposed',
  'turned_down',
  'awarded',
  'declined',
  'withdrawn',
  'no_response',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export function isRequestStatus(value: string): value is RequestStatus {
  return (REQUEST_STATUSES as readonly string[]).includes(value);
}

/**
 * `shortlist`: on the event's shortlist, nothing sent. `open`: sent and waiting on the venue or the
 * planner; the venue may propose, revise or turn down, the planner may withdraw. `closed`: final; the
 * venue's page shows it closed and refuses every form.
 */
export type RequestStage = 'shortlist' | 'open' | 'closed';

export const REQUEST_STAGE: Record<RequestStatus, RequestStage> = {
  shortlisted: 'shortlist',
  sent: 'open',
  viewed: 'open',
  proposed: 'open',
  turned_down: 'closed',
  awarded: 'closed',
  declined: 'closed',
  withdrawn: 'closed',
  no_response: 'closed',
};

export const isOpenRequest = (status: RequestStatus): boolean => REQUEST_STAGE[status] === 'open';
export const isClosedRequest = (status: RequestStatus): boolean => REQUEST_STAGE[status] === 'closed';

/** The status of a request, in words. */
export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  shortlisted: 'On the shortlist',
  sent: 'Sent',
  viewed: 'Viewed by the venue',
  proposed: 'Proposal received',
  turned_down: 'Turned down by the venue',
  awarded: 'Awarded',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  no_response: 'No response',
};

/** Why a venue declines to bid (D22). */
export const TURN_DOWN_REASONS = [
  'dates_unavailable',
  'rooms_unavailable',
  'space_unavailable',
  'budget_too_low',
  'rate_too_low',
  'event_too_small',
  'other',
] as const;
export type TurnDownReason = (typeof TURN_DOWN_REASONS)[number];

export const TURN_DOWN_REASON_LABELS: Record<TurnDownReason, string> = {
  dates_unavailable: 'The dates are not available',
  rooms_unavailable: 'Not enough guest rooms available',
  space_unavailable: 'Not enough meeting space available',
  budget_too_low: 'The budget is too low',
  rate_too_low: 'The room rate is too low',
  event_too_small: 'The event is too small',
  other: 'Another reason',
};

/** Why a planner declines a proposal (D24); `selected_other_venue` is also what an award gives the others. */
export const DECLINE_REASONS = [
  'rate_too_high',
  'fb_minimum_too_high',
  'meeting_room_rental_too_high',
  'dates_unsuitable',
  'space_unsuitable',
  'late_response',
  'incomplete',
  'selected_other_venue',
  'other',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export const DECLINE_REASON_LABELS: Record<DeclineReason, string> = {
  rate_too_high: 'The room rate is too high',
  fb_minimum_too_high: 'The food and beverage minimum is too high',
  meeting_room_rental_too_high: 'The meeting-room rental is too high',
  dates_unsuitable: 'The dates offered do not suit',
  space_unsuitable: 'The space does not suit',
  late_response: 'The proposal came too late',
  incomplete: 'The proposal is incomplete',
  selected_other_venue: 'Another venue was selected',
  other: 'Another reason',
};

export interface TurnDown {
  reason: TurnDownReason;
  /** Required for `other`. */
  comment: string | null;
}

/** The planner's decision: an award (no reason, an optional comment) or a decline (a reason). */
export interface Decision {
  reason: DeclineReason | null;
  comment: string | null;
}

/** A request for proposals as the domain keeps it; the API adds the latest proposal when it reads one. */
export interface VenueRequest {
  id: string;
  eventId: string;
  venue: VenueSummary;
  status: RequestStatus;
  /** `YYYY-MM-DD`; null on the shortlist until a date is given or the request is sent. */
  responseDueDate: string | null;
  sentAt: string | null;
  /** The first opening of the venue's link. */
  viewedAt: string | null;
  /** The venue's first answer: its first proposal or its turn-down. */
  respondedAt: string | null;
  turnDown: TurnDown | null;
  decision: Decision | null;
  /** When the venue was reminded of its current reply date (D28); null until then, and again once the date moves. */
  remindedAt: string | null;
  /**
   * When the reminder of the current reply date was settled: sent, or found not needed (the venue was
   * told the date after its reminder's moment). Null while a reminder may still be due; a move clears it.
   */
  reminderSettledAt: string | null;
  /** When the venue was last told its reply date: the request's mail, or the mail of a move. */
  dueDateToldAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a request keeps for its reminder only: never part of what the API or the venue reads. */
export const REMINDER_BOOKKEEPING = ['reminderSettledAt', 'dueDateToldAt'] as const;

/** The statuses an event takes requests in; in the others (booked, completed, cancelled) sourcing is over. */
export function isSourcing(status: EventStatus): boolean {
  return status !== 'booked' && status !== 'completed' && status !== 'cancelled';
}

/** Types of the change records a step on a request appends to the event's log (D21). */
export const REQUEST_CHANGE_TYPES = [
  'venue_request.sent',
  'venue_request.turned_down',
  'venue_request.awarded',
  'venue_request.declined',
  'venue_request.withdrawn',
  'venue_request.no_response',
  'venue_request.reminded',
  'venue_request.due_date_changed',
  'venue_request.revision_requested',
  'proposal.submitted',
] as const;
export type RequestChangeType = (typeof REQUEST_CHANGE_TYPES)[number];

/** What a request step's change record carries (D21). */
export interface RequestChangeData {
  requestId: string;
  venueId: string;
  /** `proposal.submitted`: the revision submitted; `venue_request.revision_requested`: the one to revise. */
  proposalRevision?: number;
  /** `venue_request.reminded`: the reply date the venue was reminded of; `…due_date_changed`: the new one. */
  responseDueDate?: string;
  /** `venue_request.due_date_changed`: the reply date before the move (null on a shortlist without one). */
  previousResponseDueDate?: string | null;
}

export interface RequestChange {
  type: RequestChangeType;
  /** D21: `changedFields` is empty; this is the record's `data`. */
  data: RequestChangeData;
}

/** What one step did to one request, for the use case to store, record and mail. */
export interface RequestStep {
  /** The request before the step; null when the step adds it. */
  before: VenueRequest | null;
  /** The request after the step; null when the step removes it (a shortlisted request withdrawn). */
  after: VenueRequest | null;
  /** Whether the venue is told by mail (D21, D24). */
  tellVenue: boolean;
  /** The change record to append, or null for a step that records none (shortlisting, a first view). */
  change: RequestChange | null;
}

/** The change record of a move into `status`, for the request. */
export function statusChange(request: VenueRequest, status: RequestStatus): RequestChange | null {
  const type = `venue_request.${status}`;
  if (!(REQUEST_CHANGE_TYPES as readonly string[]).includes(type)) return null;
  return { type: type as RequestChangeType, data: { requestId: request.id, venueId: request.venue.id } };
}
