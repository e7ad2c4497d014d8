/** The days of an event as its pages offer them: meeting days, ranges of nights, the agenda by day. */
import { dateText, dayNumber } from '../domain/dates.js';
import type { AgendaItem } from '../domain/types.js';

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

/** Nights from `from` to `to` (both included), at most a year of them; none when either is not a date. */
export function nightsBetween(from: string, to: string): string[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (first === undefined || last === undefined || last < first) return [];
  return Array.from({ length: Math.min(last - first + 1, 366) }, (_, index) => dateText(first + index));
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
