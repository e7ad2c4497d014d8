/** How the dashboard writes money, dates, statuses and room counts: one place, tested. */
import type { DateRange, EventStatus } from '../domain/types.js';

const STATUS_LABELS: Record<EventStatus, string> = {
  draft: 'Draft',
  pending_approval: 'Pending approval',
  wait_for_proposals: 'Waiting for proposals',
  proposals_received: 'Proposals received',
  booked: 'Booked',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const statusLabel = (status: EventStatus): string => STATUS_LABELS[status];

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
const SHORT_DAY = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** `2027-03-01` → `Mon, Mar 1, 2027`. Calendar dates carry no time zone: they are shown as written. */
export const day = (date: string): string => DAY.format(new Date(`${date}T00:00:00Z`));

/** A range of days: `Mar 1 – Mon, Mar 3, 2027`, or one day alone. */
export function dateRange(range: DateRange): string {
  if (range.startDate === range.endDate) return day(range.startDate);
  return `${SHORT_DAY.format(new Date(`${range.startDate}T00:00:00Z`))} – ${day(range.endDate)}`;
}

export const dateRanges = (ranges: readonly DateRange[]): string =>
  ranges.length === 0 ? '—' : ranges.map(dateRange).join('; ');

const INSTANT = new Intl.DateTimeFormat('en-US', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
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
