/**
 * One description of a resource's fields, as plain data: name, kind, limits, whether required, what
 * `null` does, the label people read. Validation of create bodies and merge patches (D6) is derived
 * from it here; API schemas and forms can be derived from the same table.
 */

import { isPastDate } from './anywhere-on-earth.js';
import { checkCancellationLadder } from './cancellation-ladder.js';
import { checkEmailAddress, checkHttpsUrl, checkLine, checkPercent } from './contact-values.js';
import { isCurrencyCode } from './create-event.js';
import { deepEqual } from './deep-equal.js';
import { type Checked, INVALID, type Problems } from './problems.js';
import { checkRoomRates } from './room-rates.js';
import {
  canonicalUuid,
  checkAmount,
  checkDate,
  checkDateRange,
  checkNonNegativeInteger,
  checkText,
  describeType,
  isUuid,
} from './values.js';

/** What a writable field holds, with its limits. */
export type FieldKind =
  /** One line of text (no line breaks: it may reach a mail header). */
  | { readonly type: 'line'; readonly maxLength: number }
  /** Free text; line breaks allowed. */
  | { readonly type: 'text'; readonly maxLength: number }
  /** One email address. */
  | { readonly type: 'email'; readonly maxLength: number }
  /** An absolute https:// URL. */
  | { readonly type: 'https_url'; readonly maxLength: number }
  /** An integer ≥ 0. */
  | { readonly type: 'count' }
  /** Money: a finite number ≥ 0 with at most 2 decimals (D6). */
  | { readonly type: 'amount' }
  /** 0–100 with at most 2 decimals. */
  | { readonly type: 'percent' }
  /** A calendar date `YYYY-MM-DD`; `notInPast`: not a date that has ended everywhere on Earth. */
  | { readonly type: 'date'; readonly notInPast: boolean }
  /** `{ startDate, endDate }`, both ends inclusive, start ≤ end. */
  | { readonly type: 'date_range' }
  /** An ISO 4217 code. */
  | { readonly type: 'currency' }
  /** One of a fixed list of codes. */
  | { readonly type: 'choice'; readonly choices: readonly string[] }
  /** `{ night: { roomType: { count, rate } } }` (room-rates.ts). */
  | { readonly type: 'room_rates' }
  /** `[{ daysBefore, percent }]` (cancellation-ladder.ts). */
  | { readonly type: 'cancellation_ladder' };

/** What an explicit `null` does to a writable field, and what an absent one holds on create. */
export type WhenNull = 'refused' | 'null' | 'empty_list' | 'empty_object';

/** Where a field's value comes from when it is absent on create, other than its empty value. */
export type FieldDefault =
  | { readonly value: string }
  /** The event's currency, or the span of the event's dates. */
  | { readonly fromEvent: 'currency' | 'dates' };

export interface WritableFieldDescription {
  readonly name: string;
  readonly label: string;
  /** A short help text for forms and documentation. */
  readonly hint?: string;
  readonly access: 'writable';
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly whenNull: WhenNull;
  readonly default?: FieldDefault;
}

export interface ReadOnlyFieldDescription {
  readonly name: string;
  readonly label: string;
  readonly hint?: string;
  readonly access: 'read_only';
  /** `service`: set when written (ids, times, revision); `computed`: worked out on every read. */
  readonly source: 'service' | 'computed';
}

export type FieldDescription = WritableFieldDescription | ReadOnlyFieldDescription;

export interface FieldCheckContext {
  /** The current instant (RFC 3339), for dates that may not be in the past. */
  now: string;
}

export function isWritable(field: FieldDescription): field is WritableFieldDescription {
  return field.access === 'writable';
}

/** The labels of a table, by field name. */
export function fieldLabels<const Name extends string>(
  fields: readonly { readonly name: Name; readonly label: string }[],
): Record<Name, string> {
  return Object.fromEntries(fields.map((field) => [field.name, field.label])) as Record<Name, string>;
}

/** The value an absent or cleared field holds: `null`, `[]` or `{}` (a new one each time). */
export function emptyValue(field: WritableFieldDescription): null | unknown[] | Record<string, never> {
  if (field.whenNull === 'empty_list') return [];
  if (field.whenNull === 'empty_object') return {};
  return null;
}

function staticDefault(field: WritableFieldDescription): string | undefined {
  return field.default && 'value' in field.default ? field.default.value : undefined;
}

/** Checks one value against its field's kind; records problems at `path`. */
export function checkFieldValue(
  field: WritableFieldDescription,
  value: unknown,
  path: string,
  problems: Problems,
  context: FieldCheckContext,
): Checked<unknown> {
  const { kind } = field;
  switch (kind.type) {
    case 'line':
      return checkLine(value, path, problems, { max: kind.maxLength, nonEmpty: field.required });
    case 'text':
      return checkText(value, path, problems, { max: kind.maxLength, nonEmpty: field.required });
    case 'email':
      return checkEmailAddress(value, path, problems, kind.maxLength);
    case 'https_url':
      return checkHttpsUrl(value, path, problems, kind.maxLength);
    case 'count':
      return checkNonNegativeInteger(value, path, problems);
    case 'amount':
      return checkAmount(value, path, problems);
    case 'percent':
      return checkPercent(value, path, problems);
    case 'date': {
      const date = checkDate(value, path, problems);
      if (date === INVALID) return INVALID;
      if (kind.notInPast && isPastDate(date, context.now)) {
        problems.add(path, 'in_the_past', `must not be in the past (got ${date})`);
        return INVALID;
      }
      return date;
    }
    case 'date_range':
      return checkDateRange(value, path, problems);
    case 'currency':
      if (typeof value !== 'string' || !isCurrencyCode(value)) {
        problems.add(path, 'invalid_value', 'must be an ISO 4217 currency code such as USD or EUR');
        return INVALID;
      }
      return value;
    case 'choice':
      if (typeof value !== 'string' || !kind.choices.includes(value)) {
        problems.add(
          path,
          'invalid_value',
          `must be one of ${kind.choices.join(', ')}${typeof value === 'string' ? '' : `, not ${describeType(value)}`}`,
        );
        return INVALID;
      }
      return value;
    case 'room_rates':
      return checkRoomRates(value, path, problems);
    case 'cancellation_ladder':
      return checkCancellationLadder(value, path, problems);
  }
}

export interface ReadOptions extends FieldCheckContext {
  /** Body keys accepted and ignored (D6: `organizationId` always comes from the caller). */
  ignored?: readonly string[];
  /** Values for absent fields, by name, where the table's default comes from elsewhere (the event). */
  defaults?: Readonly<Record<string, unknown>>;
}

/**
 * Reads a create body against a table: every writable field present is checked, an absent (or null)
 * one takes its default or its empty value, a missing required one is a problem; read-only fields are
 * set by the service and unknown ones are refused. Returns the values by name in table order; the
 * problems are recorded, every one at once.
 */
export function readNewResource(
  fields: readonly FieldDescription[],
  body: Record<string, unknown>,
  problems: Problems,
  options: ReadOptions,
): Record<string, unknown> {
  const byName = new Map(fields.map((field) => [field.name, field]));
  for (const key of Object.keys(body)) {
    if (options.ignored?.includes(key)) continue;
    const field = byName.get(key);
    if (!field) problems.add(key, 'unknown_field', 'is not a known field');
    else if (field.access === 'read_only')
      problems.add(
        key,
        'read_only',
        field.source === 'computed' ? 'is computed by the service' : 'is set by the service',
      );
  }
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (!isWritable(field)) continue;
    const value = Object.hasOwn(body, field.name) ? body[field.name] : undefined;
    if (value === undefined || value === null) {
      if (field.required) problems.add(field.name, 'required', 'is required');
      else values[field.name] = options.defaults?.[field.name] ?? staticDefault(field) ?? emptyValue(field);
      continue;
    }
    const checked = checkFieldValue(field, value, field.name, problems, options);
    if (checked !== INVALID) values[field.name] = checked;
  }
  return values;
}

/** Equal values; ids are UUIDs, the same in any case (as an event's id, D6). */
function sameValue(sent: unknown, stored: unknown): boolean {
  if (deepEqual(sent, stored)) return true;
  return (
    typeof sent === 'string' && typeof stored === 'string' && isUuid(sent) && canonicalUuid(sent) === stored
  );
}

/**
 * Applies a JSON Merge Patch (D6) to a resource's current values: omitted fields are unchanged, `null`
 * clears (refused for a required field), a value replaces. A read-only field sent back unchanged is
 * ignored, a different value is refused; unknown fields are refused. Returns the merged values; the
 * problems are recorded, every one at once. The input is never modified.
 */
export function mergeResource(
  fields: readonly FieldDescription[],
  current: Readonly<Record<string, unknown>>,
  patch: Record<string, unknown>,
  problems: Problems,
  options: ReadOptions,
): Record<string, unknown> {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (options.ignored?.includes(key) || value === undefined) continue;
    const field = byName.get(key);
    if (!field) {
      problems.add(key, 'unknown_field', 'is not a known field');
      continue;
    }
    if (field.access === 'read_only') {
      if (!sameValue(value, current[key] ?? null)) {
        problems.add(
          key,
          'read_only',
          field.source === 'computed'
            ? 'is read-only: it is computed by the service'
            : 'is read-only: it is set by the service',
        );
      }
      continue;
    }
    if (value === null) {
      if (field.whenNull === 'refused')
        problems.add(key, 'required', `cannot be cleared; ${field.label.toLowerCase()} is required`);
      else merged[key] = emptyValue(field);
      continue;
    }
    const checked = checkFieldValue(field, value, key, problems, options);
    if (checked !== INVALID) merged[key] = checked;
  }
  return merged;
}
