/**
 * When a calendar date is "in the past". Neither the planner's nor the venue's time zone is known for
 * sure, so a date counts as past only once it has ended everywhere on Earth, in the last time zone
 * (UTC−12, "anywhere on Earth"): a due date or a validity date is never refused or expired while it is
 * still that day for someone.
 */
import { dateText, dayNumber } from './dates.js';

const TWELVE_HOURS_MS = 12 * 60 * 60 * 1000;

/** The date it still is somewhere on Earth at the instant `now` (RFC 3339): the date in UTC−12. */
export function todayAnywhereOnEarth(now: string): string {
  return new Date(Date.parse(now) - TWELVE_HOURS_MS).toISOString().slice(0, 10);
}

/** Whether the calendar date `YYYY-MM-DD` has ended everywhere on Earth at the instant `now`. */
export function isPastDate(date: string, now: string): boolean {
  return date < todayAnywhereOnEarth(now);
}

/** The date in UTC at the instant `now` (RFC 3339). */
export function utcDateOf(now: string): string {
  return new Date(Date.parse(now)).toISOString().slice(0, 10);
}

/** The calendar date `days` days after `date` (`YYYY-MM-DD`; negative days go back). */
export function addDays(date: string, days: number): string {
  return dateText(dayNumber(date)! + days);
}
