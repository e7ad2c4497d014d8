/**
 * Approval and status moves in the planning dashboard (D16): who may move an event where, and the
 * pre-send checklist. Pure: the use case passes in who is asking and who is granted on the event.
 */
import { isCalendarDate } from './dates.js';
import type { ChecklistItem } from './errors.js';
import { ChecklistIncompleteError, MoveNotAllowedError, ValidationError } from './errors.js';
import type { EventDetails, EventStatus, StoredEvent } from './types.js';
import { LIMITS } from './types.js';
import { shortlistChecklistItem } from './venue-request-steps.js';

export const MOVES = [
  'request_approval',
  'send_to_venues',
  'approve_and_send',
  'return_to_draft',
  'proposals_received',
  'mark_booked',
  'mark_completed',
  'cancel',
  'reopen',
] as const;
export type Move = (typeof MOVES)[number];

export const isMove = (value: string): value is Move => (MOVES as readonly string[]).includes(value);

/** The button of each move, as D16 names it. */
export const MOVE_LABELS: Record<Move, string> = {
  request_approval: 'Request approval',
  send_to_venues: 'Send to venues',
  approve_and_send: 'Approve and send',
  return_to_draft: 'Return to draft',
  proposals_received: 'Proposals received',
  mark_booked: 'Mark booked',
  mark_completed: 'Mark completed',
  cancel: 'Cancel event',
  reopen: 'Reopen',
};

/** The text a move requires, by form field name. */
export const MOVE_NOTE_FIELD: Partial<Record<Move, 'comment' | 'reason'>> = {
  return_to_draft: 'comment',
  cancel: 'reason',
};

/** Moves that send the event out, and so need the checklist to pass first. */
const CHECKED_MOVES: ReadonlySet<Move> = new Set(['request_approval', 'send_to_venues']);

/** Who asks, in relation to one event: derived from its creator and its grants. */
export interface Viewer {
  userId: string;
  isCreator: boolean;
  /** Granted on the event and not its creator (D16: "approvers of the event"). */
  isApprover: boolean;
  /** Whether the event has any approver at all. */
  eventHasApprovers: boolean;
}

export function viewerOf(
  event: Pick<StoredEvent, 'createdBy'>,
  grantees: readonly string[],
  userId: string,
): Viewer {
  return {
    userId,
    isCreator: event.createdBy === userId,
    isApprover: userId !== event.createdBy && grantees.includes(userId),
    eventHasApprovers: grantees.some((grantee) => grantee !== event.createdBy),
  };
}

/** The status each move leaves the event in (reopen: the status before the cancellation). */
function targetOf(move: Move, event: Pick<StoredEvent, 'previousStatus'>): EventStatus {
  switch (move) {
    case 'request_approval':
      return 'pending_approval';
    case 'send_to_venues':
    case 'approve_and_send':
      return 'wait_for_proposals';
    case 'return_to_draft':
      return 'draft';
    case 'proposals_received':
      return 'proposals_received';
    case 'mark_booked':
      return 'booked';
    case 'mark_completed':
      return 'completed';
    case 'cancel':
      return 'cancelled';
    case 'reopen':
      return event.previousStatus ?? 'draft';
  }
}

/** Whether the move starts from this status at all (whoever asks). */
function startsFrom(move: Move, status: EventStatus): boolean {
  switch (move) {
    case 'request_approval':
    case 'send_to_venues':
      return status === 'draft';
    case 'approve_and_send':
    case 'return_to_draft':
      return status === 'pending_approval';
    case 'proposals_received':
      return status === 'wait_for_proposals';
    case 'mark_booked':
      return status === 'proposals_received';
    case 'mark_completed':
      return status === 'booked';
    case 'cancel':
      return status !== 'cancelled' && status !== 'completed';
    case 'reopen':
      return status === 'cancelled';
  }
}

/** Whether this viewer may make the move (D16's "who" column); every viewer here is granted. */
function permits(move: Move, viewer: Viewer): boolean {
  switch (move) {
    case 'request_approval':
      return viewer.isCreator && viewer.eventHasApprovers;
    case 'send_to_venues':
      return (viewer.isCreator && !viewer.eventHasApprovers) || viewer.isApprover;
    case 'approve_and_send':
      return viewer.isApprover;
    case 'return_to_draft':
      return viewer.isApprover || viewer.isCreator;
    default:
      return viewer.isApprover || viewer.isCreator;
  }
}

/** The moves this viewer may make on the event now, in D16's order. */
export function allowedMoves(event: Pick<StoredEvent, 'details' | 'previousStatus'>, viewer: Viewer): Move[] {
  return MOVES.filter((move) => startsFrom(move, event.details.status) && permits(move, viewer));
}

export type { ChecklistItem } from './errors.js';

export interface Checklist {
  /** Items that block "Request approval" and "Send to venues". */
  missing: ChecklistItem[];
  /** Shown, never blocking. */
  warnings: ChecklistItem[];
}

/** The first instant after a decision deadline: the next day for a date, the instant itself otherwise. */
function deadlineEnd(deadline: string): number {
  if (isCalendarDate(deadline)) return Date.parse(`${deadline}T00:00:00Z`) + 24 * 60 * 60 * 1000;
  return Date.parse(deadline);
}

/**
 * D16's pre-send checklist and its warnings, with D21's item: at least one venue on the shortlist
 * (`shortlisted`: how many there are). `now` decides whether the deadline has passed.
 */
export function preSendChecklist(details: EventDetails, now: string, shortlisted: number): Checklist {
  const missing: ChecklistItem[] = [];
  if (details.formattedLocations.length === 0) {
    missing.push({ field: 'formattedLocations', message: 'Add at least one candidate city.' });
  }
  if (details.numPeople < 1) missing.push({ field: 'numPeople', message: 'Give the number of attendees.' });
  if (details.eventDates.length === 0) {
    missing.push({
      field: 'meetingRoomDates',
      message: 'Give the event at least one day: meeting-room dates or a night of rooms.',
    });
  }
  if (details.decisionDeadline === null) {
    missing.push({ field: 'decisionDeadline', message: 'Set a decision deadline.' });
  }
  const shortlist = shortlistChecklistItem(shortlisted);
  if (shortlist) missing.push(shortlist);

  const warnings: ChecklistItem[] = [];
  const peak = peakNight(details);
  if (peak && peak.rooms > details.numPeople) {
    warnings.push({
      field: 'accommodations',
      message: `The peak night (${peak.night}) has ${peak.rooms} rooms, more than the ${details.numPeople} attendees.`,
    });
  }
  for (const session of details.agenda) {
    if (session.capacity > details.numPeople) {
      warnings.push({
        field: 'agenda',
        message: `Session "${session.title}" expects ${session.capacity} people, more than the ${details.numPeople} attendees.`,
      });
    }
  }
  if (details.decisionDeadline !== null && deadlineEnd(details.decisionDeadline) <= Date.parse(now)) {
    warnings.push({ field: 'decisionDeadline', message: 'The decision deadline has passed.' });
  }
  return { missing, warnings };
}

/**
 * The night with the most rooms (the earliest of equals, whatever order the nights are stored in),
 * or undefined when no night holds a room.
 */
export function peakNight(
  details: Pick<EventDetails, 'accommodations'>,
): { night: string; rooms: number } | undefined {
  let peak: { night: string; rooms: number } | undefined;
  for (const [night, counts] of Object.entries(details.accommodations)) {
    const rooms = Object.values(counts).reduce<number>((sum, count) => sum + (count ?? 0), 0);
    const earlierTie = peak !== undefined && rooms === peak.rooms && night < peak.night;
    if (rooms > 0 && (!peak || rooms > peak.rooms || earlierTie)) peak = { night, rooms };
  }
  return peak;
}

export interface MoveRequest {
  move: Move;
  /** `comment` (return to draft) or `reason` (cancel): required for those moves, ignored otherwise. */
  note?: string;
}

export interface MoveOutcome {
  event: StoredEvent;
  from: EventStatus;
  to: EventStatus;
  /** The comment or reason given, for the change record. */
  note: { field: 'comment' | 'reason'; text: string } | undefined;
}

/**
 * Makes one D16 move, or throws: ValidationError (a required comment or reason is missing or too
 * long), MoveNotAllowedError (not from this status, or not for this viewer), ChecklistIncompleteError.
 * `shortlisted`: how many venues are on the event's shortlist (D21's checklist item).
 */
export function makeMove(
  event: StoredEvent,
  viewer: Viewer,
  request: MoveRequest,
  now: string,
  shortlisted: number,
): MoveOutcome {
  const { move } = request;
  const from = event.details.status;
  const noteField = MOVE_NOTE_FIELD[move];
  const text = request.note?.trim() ?? '';
  if (noteField) {
    if (text === '') {
      throw new ValidationError([
        { field: noteField, code: 'required', message: `A ${noteField} is required.` },
      ]);
    }
    if ([...text].length > LIMITS.freeText) {
      throw new ValidationError([
        { field: noteField, code: 'too_long', message: `must be at most ${LIMITS.freeText} characters` },
      ]);
    }
  }
  if (!startsFrom(move, from)) {
    throw new MoveNotAllowedError(`"${MOVE_LABELS[move]}" is not possible: the event is now ${from}.`);
  }
  if (!permits(move, viewer)) {
    throw new MoveNotAllowedError(`You may not "${MOVE_LABELS[move]}" this event.`);
  }
  if (CHECKED_MOVES.has(move)) {
    const { missing } = preSendChecklist(event.details, now, shortlisted);
    if (missing.length > 0) throw new ChecklistIncompleteError(missing);
  }
  const to = targetOf(move, event);
  return {
    event: {
      ...event,
      previousStatus: move === 'cancel' ? from : null,
      details: { ...event.details, status: to, updatedAt: now },
    },
    from,
    to,
    note: noteField ? { field: noteField, text } : undefined,
  };
}
