/** How the dashboard writes money, dates, moments and counts: one place, tested. Codes become words in words.ts. */
import type { DateRange } from '../domain/types.js';

/** An amount in the event's currency, with the currency's own number of decimals (en-US conventions). */
export function money(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
}

/** A whole count with thousands separators. */
export const count = (value: number): string => new Intl.NumberFormat('en-US').format(value);

const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const DAY_IN_YEAR = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** `2027-03-01` → `Mon, Mar 1, 2027`. Calendar dates carry no time zone: they are shown as written. */
export const day = (date: string): string => DAY.format(new Date(`${date}T00:00:00Z`));

/**
 * A range of days with the weekday on both ends: `Mon, Mar 1 – Wed, Mar 3, 2027`; the year once when
 * both ends share it, on both ends when not; one day alone.
 */
export function dateRange(range: DateRange): string {
  if (range.startDate === range.endDate) return day(range.startDate);
  const sameYear = range.startDate.slice(0, 4) === range.endDate.slice(0, 4);
  const start = sameYear
    ? DAY_IN_YEAR.format(new Date(`${range.startDate}T00:00:00Z`))
    : day(range.startDate);
  return `${start} – ${day(range.endDate)}`;
}

export const dateRanges = (ranges: readonly DateRange[]): string =>
  ranges.length === 0 ? '—' : ranges.map(dateRange).join('; ');

const INSTANT = new Intl.DateTimeFormat('en-US', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  // 00:05, never the 24:05 that `hour12: false` gives for the first hour of a day.
  hourCycle: 'h23',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** A moment (createdAt, a session's last use): in UTC, said so, as the server knows no person's zone. */
export const instant = (iso: string): string => INSTANT.format(new Date(iso));

/** A decision deadline as typed: a date, or an RFC 3339 date-time. */
export function deadline(value: string | null): string {
  if (value === null) return '—';
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? day(value) : instant(value);
}

/** A person as the dashboard names them: their name, else their email. */
export const personName = (person: { name: string | null; email: string } | undefined): string =>
  person ? (person.name ?? person.email) : 'someone no longer here';

/** A percentage as typed, up to two decimals: `12.5` → `12.5%`. */
export const percent = (value: number): string =>
  `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value)}%`;
