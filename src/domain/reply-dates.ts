/**
 * Reply dates (D28): when a request's reminder is due, when a request is overdue, and when a proposal
 * is late. A reply date is a calendar date; it has passed once it has ended everywhere on Earth, the
 * rule D21 uses for "not in the past" (anywhere-on-earth.ts), so a venue is never overdue while it is
 * still the reply date somewhere.
 */
import { addDays, isPastDate, todayAnywhereOnEarth, utcDateOf } from './anywhere-on-earth.js';
import type { EventStatus } from './types.js';
import type { VenueRequest } from './venue-request.js';

/** Reminders go out from this hour (UTC) of the day `RFP_REMINDER_DAYS` before the reply date. */
export const REMINDER_HOUR_UTC = 9;

const HOUR_MS = 60 * 60 * 1000;

/** Whether a request waits for the venue's answer: sent or viewed, neither proposed nor turned down. */
export const awaitsAnswer = (status: VenueRequest['status']): boolean =>
  status === 'sent' || status === 'viewed';

/** While the event is in one of these statuses, venues are asked and may still answer. */
const asksVenues = (status: EventStatus): boolean =>
  status === 'wait_for_proposals' || status === 'proposals_received';

/** The instant the reminder of `responseDueDate` becomes due: 09:00 UTC, `days` days before it. */
export function reminderMoment(responseDueDate: string, days: number): string {
  return `${addDays(responseDueDate, -days)}T${String(REMINDER_HOUR_UTC).padStart(2, '0')}:00:00.000Z`;
}

/**
 * The reply dates whose reminder may be due at `now`, both ends included: from the first date not yet
 * past to the last date whose reminder's moment has come. What the scheduler's query looks for.
 */
export function reminderWindow(now: string, days: number): { from: string; to: string } {
  const lastDayReached = utcDateOf(new Date(Date.parse(now) - REMINDER_HOUR_UTC * HOUR_MS).toISOString());
  return { from: todayAnywhereOnEarth(now), to: addDays(lastDayReached, days) };
}

/**
 * What a reminder round makes of one request at `now`, with reminders `days` before the reply date:
 * - `send`: a request still waiting for its answer, on an event still asking venues, whose reminder's
 *   moment has come, whose reply date has not passed, and whose venue was told the date before that
 *   moment;
 * - `not_needed`: the same, but the venue was told its reply date at or after the moment (a request
 *   sent, or a date moved, with less than `days` to go) or the date has passed: settled without a mail;
 * - `not_due`: anything else (not yet its moment, answered, closed, settled already, reminders off).
 */
export function reminderDecision(
  request: Pick<VenueRequest, 'status' | 'responseDueDate' | 'reminderSettledAt' | 'dueDateToldAt'>,
  eventStatus: EventStatus,
  now: string,
  days: number,
): 'send' | 'not_needed' | 'not_due' {
  const date = request.responseDueDate;
  if (days <= 0 || date === null || request.reminderSettledAt !== null) return 'not_due';
  if (!awaitsAnswer(request.status) || !asksVenues(eventStatus)) return 'not_due';
  const moment = reminderMoment(date, days);
  if (now < moment) return 'not_due';
  if (isPastDate(date, now)) return 'not_needed';
  if (request.dueDateToldAt !== null && request.dueDateToldAt >= moment) return 'not_needed';
  return 'send';
}

/** Whether a request is overdue at `now`: still waiting for the venue's answer after its reply date. */
export function isOverdue(request: Pick<VenueRequest, 'status' | 'responseDueDate'>, now: string): boolean {
  return (
    awaitsAnswer(request.status) &&
    request.responseDueDate !== null &&
    isPastDate(request.responseDueDate, now)
  );
}

/** Whether a proposal submitted at `submittedAt` came after the reply date then in force. */
export function isLate(responseDueDate: string | null, submittedAt: string): boolean {
  return responseDueDate !== null && isPastDate(responseDueDate, submittedAt);
}
