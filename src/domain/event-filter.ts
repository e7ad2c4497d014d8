/**
 * The filters of the event list (D17): `status`, a comma-separated list of known statuses, and
 * `updatedAfter`, an RFC 3339 date-time. Read into a plain filter, or every problem found.
 */
import { dayNumber } from './dates.js';
import type { Problem } from './errors.js';
import { type EventStatus, STATUSES } from './types.js';

export interface EventListFilter {
  statuses: EventStatus[];
  /** The instant as ISO 8601 UTC with milliseconds, the form updatedAt is stored in. */
  updatedAfter?: string;
}

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d+))?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Whether the raw query has any filter, so the filtered path is taken only when one is given. */
export function hasEventFilter(query: Record<string, unknown>): boolean {
  return query.status !== undefined || query.updatedAfter !== undefined;
}

function readStatuses(raw: unknown, problems: Problem[]): EventStatus[] {
  const field = 'query.status';
  if (typeof raw !== 'string') {
    problems.push({ field, code: 'invalid_type', message: 'give it once, as a comma-separated list' });
    return [];
  }
  const names = raw.split(',');
  const unknown = names.filter((name) => !(STATUSES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    problems.push({
      field,
      code: 'invalid_value',
      message: `${unknown.map((name) => JSON.stringify(name)).join(', ')} ${unknown.length === 1 ? 'is not a status' : 'are not statuses'}; use a comma-separated list of ${STATUSES.join(', ')}`,
    });
    return [];
  }
  return [...new Set(names as EventStatus[])];
}

/** RFC 3339 with a time zone; seconds 60 and fractions beyond milliseconds are refused or floored. */
function readInstant(raw: unknown, problems: Problem[]): string | undefined {
  const field = 'query.updatedAfter';
  const message = 'must be an RFC 3339 date-time with a time zone, such as 2026-05-01T17:00:00Z';
  if (typeof raw !== 'string') {
    problems.push({ field, code: 'invalid_type', message: `${message}, given once` });
    return undefined;
  }
  const match = DATE_TIME.exec(raw);
  if (!match || dayNumber(match[1]!) === undefined) {
    problems.push({ field, code: 'invalid_format', message });
    return undefined;
  }
  // Stored instants have whole milliseconds, so "strictly after x" is "strictly after x floored to ms".
  const fraction = (match[5] ?? '').slice(0, 3).padEnd(3, '0');
  const zone = match[6]!.toUpperCase();
  const instant = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${fraction}${zone}`);
  if (Number.isNaN(instant.getTime())) {
    problems.push({ field, code: 'invalid_format', message });
    return undefined;
  }
  return instant.toISOString();
}

/** The filter of a list query whose parameters are already known to be only `page`, `limit` and these. */
export function readEventFilter(
  query: Record<string, unknown>,
): { filter: EventListFilter; problems: [] } | { filter?: undefined; problems: Problem[] } {
  const problems: Problem[] = [];
  const statuses = query.status === undefined ? [] : readStatuses(query.status, problems);
  const updatedAfter =
    query.updatedAfter === undefined ? undefined : readInstant(query.updatedAfter, problems);
  if (problems.length > 0) return { problems };
  return { filter: { statuses, ...(updatedAfter === undefined ? {} : { updatedAfter }) }, problems: [] };
}
