/**
 * The writable fields of an event, shared by create and update. Each field is checked for shape, by
 * its kind in the table of event-field-table.ts, then applied to a draft with JSON Merge Patch semantics
 * (RFC 7396): `null` clears, objects merge key by key, arrays are replaced whole.
 */

import {
  clearedValue,
  EVENT_FIELDS,
  type EventFieldDescription,
  type WritableField,
} from './event-field-table.js';
import { type Checked, fieldPath, INVALID, type Problems } from './problems.js';
import {
  type Accommodations,
  BUDGET_CATEGORIES,
  type BudgetBreakdown,
  type BudgetCategory,
  type EventDetails,
  type FormattedLocation,
  LIMITS,
  ROOM_TYPES,
  type RoomCounts,
  type RoomType,
} from './types.js';
import {
  checkAmount,
  checkArray,
  checkDate,
  checkDeadline,
  checkMeetingRoomRange,
  checkNonNegativeInteger,
  checkText,
  checkTextList,
  describeType,
  isPlainObject,
  isPrototypeKey,
  rejectUnknownKeys,
} from './values.js';

/**
 * Checks one writable field and merges it into the draft. A rejected value records its
 * problems and leaves the draft as it was. How a field is checked follows its kind in the table.
 */
export function applyWritableField(
  draft: EventDetails,
  key: WritableField,
  value: unknown,
  problems: Problems,
): void {
  if (value === undefined) return;
  const field: EventFieldDescription = EVENT_FIELDS[key];
  // Each kind checks to the type the table declares for it (tied to EventDetails in the table's file).
  const fields = draft as unknown as Record<WritableField, unknown>;
  if (field.kind === 'budget') {
    const merged = mergeBudget(draft.budgetBreakdown, value, problems);
    if (merged !== INVALID) draft.budgetBreakdown = merged;
    return;
  }
  if (field.kind === 'accommodations') {
    const merged = mergeAccommodations(draft.accommodations, value, problems);
    if (merged !== INVALID) draft.accommodations = merged;
    return;
  }
  if (value === null) {
    if (field.whenNull === 'refused')
      problems.add(key, 'required', `cannot be cleared; an event needs a ${key}`);
    else fields[key] = clearedValue(field);
    return;
  }
  const checked = checkValue(field, key, value, problems);
  if (checked !== INVALID) fields[key] = checked;
}

function checkValue(
  field: EventFieldDescription,
  key: string,
  value: unknown,
  problems: Problems,
): Checked<unknown> {
  switch (field.kind) {
    case 'text':
      return checkText(value, key, problems, { max: field.maxLength, nonEmpty: field.notBlank });
    case 'count':
      return checkNonNegativeInteger(value, key, problems);
    case 'deadline':
      return checkDeadline(value, key, problems);
    case 'textList':
      return checkTextList(value, key, problems, field.maxItems!);
    case 'locations':
      return checkArray(value, key, problems, field.maxItems!, (item, path) =>
        checkLocation(item, path, problems),
      );
    case 'dateRanges':
      return checkArray(value, key, problems, field.maxItems!, (item, path) =>
        checkMeetingRoomRange(item, path, problems),
      );
    default:
      throw new Error(`${key} is not a writable kind of field (${field.kind})`);
  }
}

const LOCATION_KEYS = [
  'city',
  'state',
  'country',
  'formatted_address',
  'place_id',
  'countryCode',
  'latitude',
  'longitude',
  'timeZone',
] as const;

/** A candidate location. `formatted_address` and `place_id` are derived: accepted on input, then recomputed. */
function checkLocation(value: unknown, path: string, problems: Problems): Checked<FormattedLocation> {
  if (!isPlainObject(value)) {
    problems.add(path, 'invalid_type', `must be an object with a city, not ${describeType(value)}`);
    return INVALID;
  }
  let valid = rejectUnknownKeys(value, LOCATION_KEYS, path, problems);
  const location: FormattedLocation = { city: '', formatted_address: '' };
  if (value.city === undefined || value.city === null) {
    problems.add(fieldPath(path, 'city'), 'required', 'is required');
    valid = false;
  } else {
    const city = checkText(value.city, fieldPath(path, 'city'), problems, { nonEmpty: true });
    if (city === INVALID) valid = false;
    else location.city = city;
  }
  for (const key of ['state', 'country'] as const) {
    if (value[key] === undefined || value[key] === null) continue;
    const text = checkText(value[key], fieldPath(path, key), problems);
    if (text === INVALID) valid = false;
    else location[key] = text;
  }
  if (value.formatted_address !== undefined && value.formatted_address !== null) {
    if (checkText(value.formatted_address, fieldPath(path, 'formatted_address'), problems) === INVALID)
      valid = false;
  }
  // The resolved place's fields are kept as sent, so that a read event sent back is unchanged; the app
  // layer then checks them against the place the location names (read-only).
  for (const key of ['place_id', 'countryCode', 'timeZone'] as const) {
    if (value[key] === undefined || value[key] === null) continue;
    const text = checkText(value[key], fieldPath(path, key), problems);
    if (text === INVALID) valid = false;
    else location[key] = text;
  }
  for (const key of ['latitude', 'longitude'] as const) {
    const number = value[key];
    if (number === undefined || number === null) continue;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      problems.add(fieldPath(path, key), 'invalid_type', `must be a number, not ${describeType(number)}`);
      valid = false;
    } else location[key] = number;
  }
  return valid ? location : INVALID;
}

function isBudgetCategory(key: string): key is BudgetCategory {
  return (BUDGET_CATEGORIES as readonly string[]).includes(key);
}

function isRoomType(key: string): key is RoomType {
  return (ROOM_TYPES as readonly string[]).includes(key);
}

function mergeBudget(current: BudgetBreakdown, patch: unknown, problems: Problems): Checked<BudgetBreakdown> {
  if (patch === null) return {};
  if (!isPlainObject(patch)) {
    problems.add(
      'budgetBreakdown',
      'invalid_type',
      `must be an object of category -> amount, not ${describeType(patch)}`,
    );
    return INVALID;
  }
  const merged: BudgetBreakdown = { ...current };
  let valid = true;
  for (const [category, amount] of Object.entries(patch)) {
    const path = fieldPath('budgetBreakdown', category);
    if (!isBudgetCategory(category)) {
      problems.add(
        path,
        'unknown_field',
        `is not a budget category; use one of ${BUDGET_CATEGORIES.join(', ')}`,
      );
      valid = false;
      continue;
    }
    if (amount === null) {
      delete merged[category];
      continue;
    }
    const checked = checkAmount(amount, path, problems);
    if (checked === INVALID) valid = false;
    else merged[category] = checked;
  }
  if (!valid) return INVALID;
  const ordered: BudgetBreakdown = {};
  for (const category of BUDGET_CATEGORIES) {
    if (merged[category] !== undefined) ordered[category] = merged[category];
  }
  return ordered;
}

function mergeAccommodations(
  current: Accommodations,
  patch: unknown,
  problems: Problems,
): Checked<Accommodations> {
  if (patch === null) return {};
  if (!isPlainObject(patch)) {
    problems.add(
      'accommodations',
      'invalid_type',
      `must be an object of night -> room counts, not ${describeType(patch)}`,
    );
    return INVALID;
  }
  const nights = Object.keys(patch);
  if (nights.length > LIMITS.accommodationNights) {
    problems.add(
      'accommodations',
      'too_many',
      `must have at most ${LIMITS.accommodationNights} nights (got ${nights.length})`,
    );
    return INVALID;
  }
  const merged = new Map<string, RoomCounts>(Object.entries(current));
  let valid = true;
  for (const night of nights) {
    const path = fieldPath('accommodations', night);
    const rooms = patch[night];
    if (isPrototypeKey(night)) {
      // Named like every other unknown key (D14), not as a malformed date.
      problems.add(path, 'unknown_field', 'is not a night; nights are written YYYY-MM-DD');
      valid = false;
      continue;
    }
    if (checkDate(night, path, problems) === INVALID) {
      valid = false;
      continue;
    }
    if (rooms === null) {
      merged.delete(night);
      continue;
    }
    const nightRooms = mergeRooms(merged.get(night) ?? {}, rooms, path, problems);
    if (nightRooms === INVALID) valid = false;
    else merged.set(night, nightRooms);
  }
  if (!valid) return INVALID;
  if (merged.size > LIMITS.accommodationNights) {
    problems.add(
      'accommodations',
      'too_many',
      `the event would have ${merged.size} nights; at most ${LIMITS.accommodationNights} are allowed`,
    );
    return INVALID;
  }
  const ordered: Accommodations = {};
  for (const night of [...merged.keys()].sort()) ordered[night] = merged.get(night)!;
  return ordered;
}

function mergeRooms(
  current: RoomCounts,
  patch: unknown,
  path: string,
  problems: Problems,
): Checked<RoomCounts> {
  if (!isPlainObject(patch)) {
    problems.add(path, 'invalid_type', `must be an object of room type -> count, not ${describeType(patch)}`);
    return INVALID;
  }
  const merged: RoomCounts = { ...current };
  let valid = true;
  for (const [roomType, count] of Object.entries(patch)) {
    const roomPath = fieldPath(path, roomType);
    if (!isRoomType(roomType)) {
      problems.add(roomPath, 'unknown_field', `is not a room type; use one of ${ROOM_TYPES.join(', ')}`);
      valid = false;
      continue;
    }
    if (count === null) {
      delete merged[roomType];
      continue;
    }
    const checked = checkNonNegativeInteger(count, roomPath, problems);
    if (checked === INVALID) valid = false;
    else merged[roomType] = checked;
  }
  if (!valid) return INVALID;
  const ordered: RoomCounts = {};
  for (const roomType of ROOM_TYPES) {
    if (merged[roomType] !== undefined) ordered[roomType] = merged[roomType];
  }
  return ordered;
}
