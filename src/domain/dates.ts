/** Calendar dates as `YYYY-MM-DD` text and as day numbers (days since 1970-01-01, UTC). */
import type { DateRange } from './types.js';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/**
 * Both conversions below build a Date, and the same few hundred dates come back with every event
 * (nights, meeting days, sessions): their answers are remembered, up to this many of each.
 */
const REMEMBERED = 4096;
const dayNumbers = new Map<string, number | undefined>();
const dateTexts = new Map<number, string>();

function remember<K, V>(memory: Map<K, V>, key: K, value: V): V {
  if (memory.size >= REMEMBERED) memory.clear();
  memory.set(key, value);
  return value;
}

/** The day number of a real calendar date, or undefined for anything else (2026-02-30, 2026-1-1, …). */
export function dayNumber(text: string): number | undefined {
  // Only text of a date's length is remembered: what a client sends can be of any size.
  if (text.length !== 10) return computeDayNumber(text);
  const known = dayNumbers.get(text);
  if (known !== undefined || dayNumbers.has(text)) return known;
  return remember(dayNumbers, text, computeDayNumber(text));
}

function computeDayNumber(text: string): number | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.UTC maps years 0–99 to 1900–1999; setting the full year afterwards avoids that.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const ms = date.getTime();
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return ms / MS_PER_DAY;
}

export function isCalendarDate(text: string): boolean {
  return dayNumber(text) !== undefined;
}

export function dateText(day: number): string {
  return (
    dateTexts.get(day) ?? remember(dateTexts, day, new Date(day * MS_PER_DAY).toISOString().slice(0, 10))
  );
}

/** Number of days in a range, both ends inclusive. */
export function rangeLength(range: DateRange): number {
  return dayNumber(range.endDate)! - dayNumber(range.startDate)! + 1;
}

/**
 * A test of whether a day lies in any of the ranges: the ranges are merged once, then each day is a
 * binary search (`YYYY-MM-DD` text sorts like the dates it names).
 */
export function rangesCover(ranges: readonly DateRange[]): (date: string) => boolean {
  const spans = unionOfRanges(ranges, []);
  return (date) => {
    let low = 0;
    let high = spans.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const span = spans[middle]!;
      if (date < span.startDate) high = middle - 1;
      else if (date > span.endDate) low = middle + 1;
      else return true;
    }
    return false;
  };
}

/** Sorted, non-overlapping ranges covering exactly the given days; adjacent days merge. */
export function rangesFromDays(days: Iterable<number>): DateRange[] {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const ranges: DateRange[] = [];
  let start: number | undefined;
  let end = 0;
  for (const day of sorted) {
    if (start !== undefined && day === end + 1) {
      end = day;
      continue;
    }
    if (start !== undefined) ranges.push({ startDate: dateText(start), endDate: dateText(end) });
    start = day;
    end = day;
  }
  if (start !== undefined) ranges.push({ startDate: dateText(start), endDate: dateText(end) });
  return ranges;
}

/** Union of ranges and single days as sorted, non-overlapping ranges; touching ranges merge. */
export function unionOfRanges(ranges: readonly DateRange[], days: readonly string[]): DateRange[] {
  const spans: Array<[number, number]> = ranges.map((r) => [dayNumber(r.startDate)!, dayNumber(r.endDate)!]);
  for (const day of days) {
    const n = dayNumber(day)!;
    spans.push([n, n]);
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1] + 1) {
      last[1] = Math.max(last[1], span[1]);
    } else {
      merged.push([span[0], span[1]]);
    }
  }
  return merged.map(([s, e]) => ({ startDate: dateText(s), endDate: dateText(e) }));
}
