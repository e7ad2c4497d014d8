/**
 * The contract's checks of single values (interface-v1, D6–D9), as the floor makes them. A check
 * answers the problem's code and message, or undefined; the caller names the field only when there
 * is a problem, so a valid request builds no field paths at all.
 */
import { dayNumber } from '../../src/domain/dates.js';

export interface Fault {
  code: string;
  message: string;
}

/** One problem of a request, as the 400's `errors` list names it. */
export interface Problem extends Fault {
  field: string;
}

export const NAME_MAX = 100;
export const FREE_TEXT_MAX = 1000;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const RFC3339_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const fault = (code: string, message: string): Fault => ({ code, message });

/** `a.b` and `a[3]`, the way problems name fields. */
export const fieldPath = (base: string, key: string | number) =>
  typeof key === 'number' ? `${base}[${key}]` : base === '' ? key : `${base}.${key}`;

/** The field `key` of `base` (or `base` itself), made only once a problem names it. */
const at = (base: string, key: string | number | undefined) =>
  key === undefined ? base : fieldPath(base, key);

/** Adds `fault`, if any, under the field `key` of `base`; answers whether there was none. */
export function passes(
  problems: Problem[],
  fault: Fault | undefined,
  base: string,
  key?: string | number,
): boolean {
  if (fault === undefined) return true;
  problems.push({ field: at(base, key), code: fault.code, message: fault.message });
  return false;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isUuid = (text: string) => UUID.test(text);

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Text of at most `max` characters (code points). An unpaired surrogate can only come from a `\u`
 * escape, and the body check (json-body.ts) refused those already, so only NUL is looked for here.
 */
export function textFault(value: unknown, max = FREE_TEXT_MAX, nonEmpty = false): Fault | undefined {
  if (typeof value !== 'string') return fault('invalid_type', `must be a string, not ${describeType(value)}`);
  if (value.includes('\u0000'))
    return fault('invalid_characters', 'must not contain NUL characters or unpaired surrogates');
  if (nonEmpty && value.trim() === '') return fault('empty', 'must not be empty');
  // A text is never longer in code points than in UTF-16 units: only a long one needs counting.
  if (value.length > max) {
    const length = characterCount(value);
    if (length > max) return fault('too_long', `must be at most ${max} characters (got ${length})`);
  }
  return undefined;
}

export function countFault(value: unknown): Fault | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return fault('invalid_type', `must be an integer, not ${describeType(value)}`);
  if (!Number.isInteger(value)) return fault('invalid_type', 'must be a whole number');
  if (value < 0 || !Number.isSafeInteger(value))
    return fault('out_of_range', `must be between 0 and ${Number.MAX_SAFE_INTEGER}`);
  return undefined;
}

/** A money amount: finite, at least 0, at most two decimals (of its shortest round-trip form). */
export function amountFault(value: unknown): Fault | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return fault('invalid_type', `must be a finite number, not ${describeType(value)}`);
  if (value < 0) return fault('out_of_range', 'must be at least 0');
  if (Number.isInteger(value)) return undefined;
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  if ((mantissa.split('.')[1]?.length ?? 0) - Number(exponent) > 2)
    return fault('invalid_format', 'must have at most 2 decimal places');
  return undefined;
}

export const booleanFault = (value: unknown): Fault | undefined =>
  typeof value === 'boolean'
    ? undefined
    : fault('invalid_type', `must be a boolean, not ${describeType(value)}`);

export function dateFault(value: unknown): Fault | undefined {
  if (typeof value !== 'string')
    return fault('invalid_type', `must be a date string YYYY-MM-DD, not ${describeType(value)}`);
  if (dayNumber(value) === undefined) {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return fault('invalid_date', `must be a real calendar date YYYY-MM-DD (got "${shown}")`);
  }
  return undefined;
}

export const timeFault = (value: unknown): Fault | undefined =>
  typeof value === 'string' && TIME.test(value)
    ? undefined
    : fault('invalid_format', 'must be a 24-hour time HH:MM');

/** RFC 3339 date-time or a plain `YYYY-MM-DD` date. */
export function deadlineFault(value: unknown): Fault | undefined {
  if (typeof value !== 'string') return fault('invalid_type', `must be a string, not ${describeType(value)}`);
  if (dayNumber(value) !== undefined) return undefined;
  const match = RFC3339_DATE_TIME.exec(value);
  if (match && dayNumber(match[1]!) !== undefined) return undefined;
  return fault('invalid_format', 'must be an RFC 3339 date-time (2026-05-01T17:00:00Z) or a date YYYY-MM-DD');
}

/** Whether `value` is an array of at most `max` items; the problem is added under the field when not. */
export function checkArrayShape(
  value: unknown,
  max: number,
  problems: Problem[],
  base: string,
  key?: string | number,
): value is unknown[] {
  if (!Array.isArray(value)) {
    problems.push({
      field: at(base, key),
      code: 'invalid_type',
      message: `must be an array, not ${describeType(value)}`,
    });
    return false;
  }
  if (value.length > max) {
    problems.push({
      field: at(base, key),
      code: 'too_many',
      message: `must have at most ${max} entries (got ${value.length})`,
    });
    return false;
  }
  return true;
}

/** A list of texts (decision factors, a session's requirements); undefined when any item failed. */
export function checkTextList(
  value: unknown,
  max: number,
  problems: Problem[],
  base: string,
  key?: string | number,
): string[] | undefined {
  if (!checkArrayShape(value, max, problems, base, key)) return undefined;
  let valid = true;
  for (let index = 0; index < value.length; index++) {
    const fault = textFault(value[index]);
    if (fault === undefined) continue;
    passes(problems, fault, at(base, key), index);
    valid = false;
  }
  return valid ? (value as string[]) : undefined;
}

/** Adds an `unknown_field` problem for every key of `value` outside `allowed`; answers whether there was none. */
export function refuseUnknownKeys(
  value: Record<string, unknown>,
  allowed: ReadonlySet<string>,
  path: string,
  problems: Problem[],
): boolean {
  let valid = true;
  for (const key in value) {
    if (!allowed.has(key)) {
      problems.push({ field: fieldPath(path, key), code: 'unknown_field', message: 'is not a known field' });
      valid = false;
    }
  }
  return valid;
}

/** Structural equality of JSON values; key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
    count++;
  }
  for (const _ in right) count--;
  return count === 0;
}
