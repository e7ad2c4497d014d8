/** The days of an event as its pages offer them: meeting days, ranges of nights, the agenda by day. */
import { dateText, dayNumber } from '../domain/dates.js';
import type { AgendaItem, DateRange } from '../domain/types.js';

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

/**
 * A range's problem, coded as the domain codes its problems (the message in the API's terms, never
 * shown): the dashboard says it in words through problem-words.ts, beside the field to blame.
 */
export interface NightRangeProblem {
  field: 'first' | 'last';
  code: 'required' | 'invalid_format' | 'out_of_range' | 'too_many';
  message: string;
}

/** A range of nights as a form gives it, or the problem to show beside the field to blame. */
export type NightRange = { nights: string[] } | { problem: NightRangeProblem };

/**
 * The nights from `first` to `last`, both included; a blank `last` means the one night `first`. Anything
 * else is a problem: a first night that is not a date, a last night before it, more than a year of nights.
 */
export function nightRange(first: string, last: string): NightRange {
  const from = dayNumber(first.trim());
  if (from === undefined) {
    const code = first.trim() === '' ? 'required' : 'invalid_format';
    return { problem: { field: 'first', code, message: 'must be a date' } };
  }
  const to = last.trim() === '' ? from : dayNumber(last.trim());
  if (to === undefined) {
    return { problem: { field: 'last', code: 'invalid_format', message: 'must be a date or blank' } };
  }
  if (to < from) {
    const message = `must not be before the first night ${dateText(from)}`;
    return { problem: { field: 'last', code: 'out_of_range', message } };
  }
  const nights = to - from + 1;
  if (nights > MAX_RANGE_NIGHTS) {
    const message = `must hold at most ${MAX_RANGE_NIGHTS} nights (got ${nights})`;
    return { problem: { field: 'last', code: 'too_many', message } };
  }
  return { nights: Array.from({ length: nights }, (_, index) => dateText(from + index)) };
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
