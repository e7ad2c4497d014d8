/**
 * The dashboard's words for the service's codes: statuses, moves, kinds of change, the reasons of a
 * venue request, and the names of fields and form controls. The API keeps its codes and field names
 * (D4); a page never shows one, it asks here. New pages (venue requests, proposals) take their words
 * from here too.
 */
import { isCalendarDate } from '../domain/dates.js';
import { EVENT_FIELDS, fieldNamed } from '../domain/event-field-table.js';
import { MOVE_LABELS, type Move } from '../domain/moves.js';
import { NOTIFICATION_LABELS, type NotificationKind } from '../domain/notifications.js';
import type { EventStatus } from '../domain/types.js';
import {
  DECLINE_REASON_LABELS,
  type DeclineReason,
  REQUEST_STATUS_LABELS,
  type RequestStatus,
  TURN_DOWN_REASON_LABELS,
  type TurnDownReason,
} from '../domain/venue-request.js';
import { day } from './format.js';

/** An event's status, as the badge, the list's filter and the history say it. */
const STATUS_WORDS: Record<EventStatus, string> = {
  draft: 'Draft',
  pending_approval: 'Waiting for approval',
  wait_for_proposals: 'Waiting for proposals',
  proposals_received: 'Proposals received',
  booked: 'Booked',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const statusLabel = (status: EventStatus): string => STATUS_WORDS[status];

/** A status move's button (D16 names them). */
export const moveLabel = (move: Move): string => MOVE_LABELS[move];

/** A venue request's status, and the reasons a venue turns one down or a planner declines a proposal. */
export const requestStatusLabel = (status: RequestStatus): string => REQUEST_STATUS_LABELS[status];
export const turnDownReasonLabel = (reason: TurnDownReason): string => TURN_DOWN_REASON_LABELS[reason];
export const declineReasonLabel = (reason: DeclineReason): string => DECLINE_REASON_LABELS[reason];

/** A kind of mail a person may switch off on their account page (D24), and what it tells of. */
export const notificationLabel = (kind: NotificationKind): string => NOTIFICATION_LABELS[kind].label;
export const notificationHint = (kind: NotificationKind): string => NOTIFICATION_LABELS[kind].hint;

/** The budget's lines as people name them. */
export const BUDGET_LABELS: Record<string, string> = {
  venue: 'Venue',
  fb: 'Food and beverage',
  av: 'Audio-visual',
  transport: 'Transport',
  flight: 'Flights',
  activities: 'Activities',
  merch: 'Merchandise',
  other: 'Other',
};

/** The parts of a row of a repeated group of the event form. */
const ROW_PART_LABELS: Record<string, string> = {
  city: 'city',
  state: 'state or region',
  country: 'country',
  startDate: 'first day',
  endDate: 'last day',
};

/** Controls of the dashboard's forms that are no field of an event. */
const OTHER_CONTROLS: Record<string, string> = {
  comment: 'Comment',
  reason: 'Reason',
  password: 'Password',
  email: 'Email',
  removeSession: 'Sessions to remove',
  agendaOperations: 'Agenda',
  // The room grid's "Add nights" and "Copy night".
  from: 'First night',
  to: 'Last night',
  copyNight: 'Night to copy',
  copyFrom: 'First night of the range',
  copyTo: 'Last night of the range',
};

/** The fields of an agenda session, as its form labels them. */
const SESSION_LABELS: Record<string, string> = {
  title: 'Title',
  dates: 'Days',
  startTime: 'Start time',
  endTime: 'End time',
  roomType: 'Room type',
  capacity: 'Expected attendees',
  avRequirements: 'AV requirements',
  fbRequirements: 'Food and beverage requirements',
  avOtherText: 'Other AV needs',
  fbOtherText: 'Other food and beverage needs',
  notes: 'Notes',
  sessionId: 'Session',
};

/** A session's field: `startTime` → "Start time"; an entry of a list belongs to its list. */
export const sessionLabel = (field: string): string =>
  SESSION_LABELS[field.replace(/\[\d+\]$/, '')] ?? 'This field';

/** The event field a control path starts with: `formattedLocations[1].city` → `formattedLocations`. */
const fieldOf = (path: string): string => /^\w+/.exec(path)?.[0] ?? path;

/**
 * A person's name for a control of the event's forms, from the field table: `budgetBreakdown.venue`
 * → "Budget: Venue", `meetingRoomDates[1].endDate` → "Meeting-room dates, row 2: last day",
 * `accommodations.2027-05-12.Single` → "Room block, Single" (the page adds the night).
 */
export function fieldLabel(path: string): string {
  const row = /^(\w+)\[(\d+)\]\.?(\w*)/.exec(path);
  const group = row && fieldNamed(row[1]!);
  if (row && group?.itemLabel) {
    const part = row[3] && ROW_PART_LABELS[row[3]] ? `: ${ROW_PART_LABELS[row[3]]}` : '';
    return `${group.label}, row ${Number(row[2]) + 1}${part}`;
  }
  if (row) return OTHER_CONTROLS[row[1]!] ?? group?.label ?? 'This field';
  const rooms = /^accommodations\.([^.]+)(?:\.(\w+))?$/.exec(path);
  if (rooms) {
    const night = /^\d{4}-\d{2}-\d{2}$/.test(rooms[1]!) ? day(rooms[1]!) : 'a night';
    return rooms[2] ? `${rooms[2]} rooms, night of ${night}` : `Rooms, night of ${night}`;
  }
  const budget = /^budgetBreakdown\.(\w+)$/.exec(path);
  if (budget) return `${EVENT_FIELDS.budgetBreakdown.label}: ${BUDGET_LABELS[budget[1]!] ?? 'a line'}`;
  if (path === 'decisionDeadlineTime') return `${EVENT_FIELDS.decisionDeadline.label}: time`;
  if (OTHER_CONTROLS[path]) return OTHER_CONTROLS[path];
  return fieldNamed(fieldOf(path))?.label ?? 'This field';
}

/**
 * The fields a change record names, for people: derived fields (`location`, `eventDates`) are said
 * by the fields they come from, so they are left out; in the order of the details view.
 */
export function changedFieldLabels(changedFields: readonly string[]): string[] {
  return shownChangedFields(changedFields).map((name) => fieldNamed(name)!.label);
}

/** The changed fields worth showing: known, not derived, in the order of the details view. */
export function shownChangedFields(changedFields: readonly string[]): string[] {
  return Object.keys(EVENT_FIELDS).filter(
    (name) => changedFields.includes(name) && fieldNamed(name)!.access !== 'derived',
  );
}

/** A sentence of the domain's (a checklist warning) with its calendar dates written as the dashboard writes dates. */
export const withReadableDates = (text: string): string =>
  text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (date) => (isCalendarDate(date) ? day(date) : date));
