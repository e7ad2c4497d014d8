/** The days of an event as its pages offer them: meeting days, ranges of nights, the agenda by day. */
import { dateText, dayNumber } from '../domain/dates.js';
import type { AgendaItem, DateRange } from '../domain/types.js';
import { day } from './format.js';

/** The days of an event's meeting-room ranges, which are the days a session may be on. */
export function meetingDays(ranges: ReadonlyArray<{ startDate: string; endDate: string }>): string[] {
  const days = new Set<string>();
  for (const range of ranges) {
    const first = dayNumber(range.startDate);
    const last = dayNumber(range.endDate);
    if (first === undefined || last === undefined) continue;
    for (let day = first; day <= last; day++) days.add(dateText(day));
  }
  return [...days].sort();
}

/** The most nights one range of "Add nights" or "Copy night" may hold: a year. */
export const MAX_RANGE_NIGHTS = 366;

/** A range of nights as a form gives it, or the problem to show beside the field to blame. */
export type NightRange = { nights: string[] } | { problem: { field: 'first' | 'last'; message: string } };

/**
 * The nights from `first` to `last`, both included; a blank `last` means the one night `first`. Anything
 * else is a problem: a first night that is not a date, a last night before it, more than a year of nights.
 */
export function nightRange(first: string, last: string): NightRange {
  const from = dayNumber(first.trim());
  if (from === undefined) {
    return { problem: { field: 'first', message: 'Give the first night as a date, such as 2030-05-01.' } };
  }
  const to = last.trim() === '' ? from : dayNumber(last.trim());
  if (to === undefined) {
    return {
      problem: {
        field: 'last',
        message: 'Give the last night as a date, such as 2030-05-03, or leave it blank for one night.',
      },
    };
  }
  if (to < from) {
    return {
      problem: {
        field: 'last',
        message: `The last night must be on or after the first night, ${day(first.trim())}.`,
      },
    };
  }
  if (to - from + 1 > MAX_RANGE_NIGHTS) {
    return { problem: { field: 'last', message: `A range holds at most ${MAX_RANGE_NIGHTS} nights.` } };
  }
  return { nights: Array.from({ length: to - from + 1 }, (_, index) => dateText(from + index)) };
}

/** How many of `nights` fall outside `ranges` (the event's dates). */
export function nightsOutside(nights: readonly string[], ranges: readonly DateRange[]): number {
  const spans = ranges.map((range) => [dayNumber(range.startDate), dayNumber(range.endDate)] as const);
  return nights.filter((night) => {
    const number = dayNumber(night);
    return !spans.some(
      ([start, end]) =>
        number !== undefined && start !== undefined && end !== undefined && number >= start && number <= end,
    );
  }).length;
}

/** Sessions grouped by day, each day in time order. */
export function agendaByDay(agenda: readonly AgendaItem[]): Array<{ day: string; sessions: AgendaItem[] }> {
  const days = new Map<string, AgendaItem[]>();
  for (const session of agenda) {
    for (const date of session.dates) {
      const list = days.get(date) ?? [];
      list.push(session);
      days.set(date, list);
    }
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, sessions]) => ({
      day: date,
      sessions: sessions.sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0)),
    }));
}
