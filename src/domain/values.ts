/** Shape checks for single values. Each records its problem and returns INVALID on failure. */
import { dayNumber, rangeLength } from './dates.js';
import { type Checked, fieldPath, INVALID, type Problems } from './problems.js';
import type { DateRange } from './types.js';
import { LIMITS } from './types.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Any surrogate code unit: a text without one (most) needs no look for a lone one. */
const SURROGATE = /[\uD800-\uDFFF]/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const RFC3339_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys that could reach an object's prototype; rejected wherever they appear (D14). */
export function isPrototypeKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** UUIDs are case-insensitive; their canonical form is lower case, as the service writes them. */
export function canonicalUuid(value: string): string {
  const lower = value.toLowerCase();
  // Already lower case (as every id the service wrote): the same text whether or not it is a UUID.
  return lower === value || !isUuid(value) ? value : lower;
}

/** Length in Unicode characters (code points), not UTF-16 units or bytes. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

interface TextOptions {
  max?: number;
  nonEmpty?: boolean;
}

export function checkText(
  value: unknown,
  path: string,
  problems: Problems,
  options: TextOptions = {},
): Checked<string> {
  const max = options.max ?? LIMITS.freeText;
  if (typeof value !== 'string') {
    problems.add(path, 'invalid_type', `must be a string, not ${describeType(value)}`);
    return INVALID;
  }
  if (value.includes('\u0000') || (SURROGATE.test(value) && LONE_SURROGATE.test(value))) {
    problems.add(path, 'invalid_characters', 'must not contain NUL characters or unpaired surrogates');
    return INVALID;
  }
  if (options.nonEmpty && value.trim() === '') {
    problems.add(path, 'empty', 'must not be empty');
    return INVALID;
  }
  // A text has at most as many characters as UTF-16 units: only a longer one needs counting.
  const length = value.length > max ? characterCount(value) : value.length;
  if (length > max) {
    problems.add(path, 'too_long', `must be at most ${max} characters (got ${length})`);
    return INVALID;
  }
  return value;
}

/**
 * Whether checkText accepts `value` as it is, answered without naming a field: a text of at most
 * `max` UTF-16 units (so at most as many characters) without NUL and without any surrogate. A text it
 * does not vouch for (a lone surrogate, or simply an emoji) is judged by checkText.
 */
export function isPlainText(
  value: unknown,
  max: number = LIMITS.freeText,
  nonEmpty = false,
): value is string {
  return (
    typeof value === 'string' &&
    value.length <= max &&
    !value.includes('\u0000') &&
    !SURROGATE.test(value) &&
    (!nonEmpty || value.trim() !== '')
  );
}

/** Whether checkTextList accepts `value` as it is (each item plain text, see isPlainText). */
export function isPlainTextList(value: unknown, max: number): value is string[] {
  if (!Array.isArray(value) || value.length > max) return false;
  for (const item of value) if (!isPlainText(item)) return false;
  return true;
}

/** Whether checkTime accepts `value`. */
export const isTime = (value: unknown): value is string =>
  typeof value === 'string' && TIME_PATTERN.test(value);

/** Whether checkNonNegativeInteger accepts `value`. */
export const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

export function checkNonNegativeInteger(value: unknown, path: string, problems: Problems): Checked<number> {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.add(path, 'invalid_type', `must be an integer, not ${describeType(value)}`);
    return INVALID;
  }
  if (!Number.isInteger(value)) {
    problems.add(path, 'invalid_type', 'must be a whole number');
    return INVALID;
  }
  if (value < 0 || !Number.isSafeInteger(value)) {
    problems.add(path, 'out_of_range', `must be between 0 and ${Number.MAX_SAFE_INTEGER}`);
    return INVALID;
  }
  return value;
}

export function checkInteger(value: unknown, path: string, problems: Problems): Checked<number> {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    problems.add(path, 'invalid_type', `must be an integer, not ${describeType(value)}`);
    return INVALID;
  }
  if (!Number.isSafeInteger(value)) {
    problems.add(path, 'out_of_range', 'must be a safe integer (at most 2^53 - 1 in size)');
    return INVALID;
  }
  return value;
}

/** A money amount: finite, at least 0, at most two decimals. */
export function checkAmount(value: unknown, path: string, problems: Problems): Checked<number> {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.add(path, 'invalid_type', `must be a finite number, not ${describeType(value)}`);
    return INVALID;
  }
  if (value < 0) {
    problems.add(path, 'out_of_range', 'must be at least 0');
    return INVALID;
  }
  // Decimals of the shortest round-trip form; an exponent shifts them (1.5e+21 has none, 1e-7 has 7).
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const decimals = (mantissa.split('.')[1]?.length ?? 0) - Number(exponent);
  if (decimals > 2) {
    problems.add(path, 'invalid_format', 'must have at most 2 decimal places');
    return INVALID;
  }
  return value;
}

export function checkBoolean(value: unknown, path: string, problems: Problems): Checked<boolean> {
  if (typeof value !== 'boolean') {
    problems.add(path, 'invalid_type', `must be a boolean, not ${describeType(value)}`);
    return INVALID;
  }
  return value;
}

export function checkDate(value: unknown, path: string, problems: Problems): Checked<string> {
  if (typeof value !== 'string') {
    problems.add(path, 'invalid_type', `must be a date string YYYY-MM-DD, not ${describeType(value)}`);
    return INVALID;
  }
  if (dayNumber(value) === undefined) {
    problems.add(path, 'invalid_date', `must be a real calendar date YYYY-MM-DD (got "${clip(value)}")`);
    return INVALID;
  }
  return value;
}

export function checkTime(value: unknown, path: string, problems: Problems): Checked<string> {
  if (typeof value !== 'string' || !TIME_PATTERN.test(value)) {
    problems.add(path, 'invalid_format', 'must be a 24-hour time HH:MM');
    return INVALID;
  }
  return value;
}

/** RFC 3339 date-time or a plain `YYYY-MM-DD` date. */
export function checkDeadline(value: unknown, path: string, problems: Problems): Checked<string> {
  if (typeof value !== 'string') {
    problems.add(path, 'invalid_type', `must be a string, not ${describeType(value)}`);
    return INVALID;
  }
  if (dayNumber(value) !== undefined) return value;
  const match = RFC3339_DATE_TIME.exec(value);
  if (!match || dayNumber(match[1]!) === undefined) {
    problems.add(
      path,
      'invalid_format',
      'must be an RFC 3339 date-time (2026-05-01T17:00:00Z) or a date YYYY-MM-DD',
    );
    return INVALID;
  }
  return value;
}

export function checkDateRange(value: unknown, path: string, problems: Problems): Checked<DateRange> {
  const { range, valid } = readDateRange(value, path, problems);
  return range && valid ? range : INVALID;
}

export function checkMeetingRoomRange(value: unknown, path: string, problems: Problems): Checked<DateRange> {
  const { range, valid } = readDateRange(value, path, problems);
  if (!range) return INVALID;
  const days = rangeLength(range);
  if (days > LIMITS.meetingRoomRangeDays) {
    problems.add(
      path,
      'too_long',
      `a range may span at most ${LIMITS.meetingRoomRangeDays} days (got ${days})`,
    );
    return INVALID;
  }
  return valid ? range : INVALID;
}

/**
 * A DateRange, when both of its days are sound and in order (`range`), and whether nothing else was
 * wrong with it (`valid`): an unknown key does not stop the days from being judged too.
 */
function readDateRange(
  value: unknown,
  path: string,
  problems: Problems,
): { range?: DateRange; valid: boolean } {
  if (!isPlainObject(value)) {
    problems.add(
      path,
      'invalid_type',
      `must be an object with startDate and endDate, not ${describeType(value)}`,
    );
    return { valid: false };
  }
  const valid = rejectUnknownKeys(value, ['startDate', 'endDate'], path, problems);
  const days: Partial<DateRange> = {};
  for (const key of ['startDate', 'endDate'] as const) {
    if (value[key] === undefined) {
      problems.add(fieldPath(path, key), 'required', 'is required');
      continue;
    }
    const date = checkDate(value[key], fieldPath(path, key), problems);
    if (date !== INVALID) days[key] = date;
  }
  const { startDate, endDate } = days;
  if (startDate === undefined || endDate === undefined) return { valid: false };
  if (startDate > endDate) {
    problems.add(fieldPath(path, 'endDate'), 'out_of_range', 'must not be before startDate');
    return { valid: false };
  }
  return { range: { startDate, endDate }, valid };
}

/** Whether `value` is an array of at most `max` items; records why not. */
export function checkArrayShape(
  value: unknown,
  path: string,
  problems: Problems,
  max: number,
): value is unknown[] {
  if (!Array.isArray(value)) {
    problems.add(path, 'invalid_type', `must be an array, not ${describeType(value)}`);
    return false;
  }
  if (value.length > max) {
    problems.add(path, 'too_many', `must have at most ${max} entries (got ${value.length})`);
    return false;
  }
  return true;
}

/** An array whose items are each checked; the whole array is INVALID if any item is. */
export function checkArray<T>(
  value: unknown,
  path: string,
  problems: Problems,
  max: number,
  checkItem: (item: unknown, itemPath: string) => Checked<T>,
): Checked<T[]> {
  if (!checkArrayShape(value, path, problems, max)) return INVALID;
  // Mapped, so the array kept holds exactly its items (one grown by push keeps room for more).
  const items = value.map((item, index) => checkItem(item, fieldPath(path, index)));
  return items.includes(INVALID) ? INVALID : (items as T[]);
}

export function checkTextList(
  value: unknown,
  path: string,
  problems: Problems,
  max: number,
): Checked<string[]> {
  return checkArray(value, path, problems, max, (item, itemPath) => checkText(item, itemPath, problems));
}

/** Records every key outside `allowed`; returns whether there were none. */
export function rejectUnknownKeys(
  value: Record<string, unknown>,
  allowed: readonly string[] | ReadonlySet<string>,
  path: string,
  problems: Problems,
  /** A key judged elsewhere, neither known nor unknown here. */
  except?: string,
): boolean {
  let valid = true;
  const known = Array.isArray(allowed)
    ? (key: string) => allowed.includes(key)
    : (key: string) => (allowed as ReadonlySet<string>).has(key);
  for (const key in value) {
    if (!Object.hasOwn(value, key) || key === except) continue;
    if (!known(key)) {
      problems.add(fieldPath(path, key), 'unknown_field', 'is not a known field');
      valid = false;
    }
  }
  return valid;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
