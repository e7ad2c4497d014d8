/**
 * The event's writable fields (interface-v1 "Event", D6): each value checked, then merged into a
 * draft as JSON Merge Patch does: `null` clears, objects merge key by key, arrays are replaced whole.
 * Shared by create and update. A rejected value adds its problems and leaves the draft as it was.
 */
import { dayNumber } from '../../src/domain/dates.js';
import {
  amountFault,
  checkArrayShape,
  checkTextList,
  countFault,
  dateFault,
  deadlineFault,
  describeType,
  fieldPath,
  isObject,
  NAME_MAX,
  type Problem,
  passes,
  refuseUnknownKeys,
  textFault,
} from './checks.js';
import {
  BUDGET_CATEGORIES,
  type DateRange,
  type Details,
  LIMITS,
  type Location,
  ROOM_TYPES,
  type RoomCounts,
} from './event-model.js';

const NULLABLE_TEXT_FIELDS = new Set([
  'flexibility',
  'foodBeverageRequirements',
  'meetingRooms',
  'otherNotes',
  'notesForVenue',
  'decisionFactorOtherText',
]);

export const WRITABLE_FIELDS = new Set([
  'name',
  'formattedLocations',
  'numPeople',
  'budgetBreakdown',
  'accommodations',
  'meetingRoomDates',
  'numMeetingRoomsNeeded',
  'decisionDeadline',
  'decisionFactors',
  'additionalServices',
  ...NULLABLE_TEXT_FIELDS,
]);

const BUDGET = new Set(BUDGET_CATEGORIES);
const ROOMS = new Set(ROOM_TYPES);
const LOCATION_KEYS = new Set([
  'city',
  'state',
  'country',
  'formatted_address',
  'place_id',
  'countryCode',
  'latitude',
  'longitude',
  'timeZone',
]);
const RANGE_KEYS = new Set(['startDate', 'endDate']);
const isPrototypeKey = (key: string) => key === '__proto__' || key === 'constructor' || key === 'prototype';

/**
 * Checks writable field `key` and merges it into `draft`. `name` is the field as the client sent it
 * (a create's `eventDates` is applied as `meetingRoomDates` but its problems name `eventDates`).
 */
export function applyWritableField(
  draft: Details,
  key: string,
  value: unknown,
  problems: Problem[],
  name = key,
): void {
  switch (key) {
    case 'name':
      if (value === null)
        problems.push({ field: name, code: 'required', message: 'cannot be cleared; an event needs a name' });
      else if (passes(problems, textFault(value, NAME_MAX, true), name)) draft.name = value as string;
      return;
    case 'formattedLocations': {
      if (value === null) {
        draft.formattedLocations = [];
        return;
      }
      if (!checkArrayShape(value, LIMITS.formattedLocations, problems, name)) return;
      const locations: Location[] = [];
      for (let index = 0; index < value.length; index++) {
        const location = checkLocation(value[index], fieldPath(name, index), problems);
        if (location) locations.push(location);
      }
      if (locations.length === value.length) draft.formattedLocations = locations;
      return;
    }
    case 'numPeople':
      if (value === null) draft.numPeople = 0;
      else if (passes(problems, countFault(value), name)) draft.numPeople = value as number;
      return;
    case 'numMeetingRoomsNeeded':
      if (value === null) draft.numMeetingRoomsNeeded = null;
      else if (passes(problems, countFault(value), name)) draft.numMeetingRoomsNeeded = value as number;
      return;
    case 'budgetBreakdown': {
      const merged = mergeBudget(draft.budgetBreakdown, value, problems);
      if (merged) draft.budgetBreakdown = merged;
      return;
    }
    case 'accommodations': {
      const merged = mergeAccommodations(draft.accommodations, value, problems);
      if (merged) draft.accommodations = merged;
      return;
    }
    case 'meetingRoomDates': {
      if (value === null) {
        draft.meetingRoomDates = [];
        return;
      }
      if (!checkArrayShape(value, LIMITS.meetingRoomDates, problems, name)) return;
      const ranges: DateRange[] = [];
      for (let index = 0; index < value.length; index++) {
        const range = checkMeetingRoomRange(value[index], fieldPath(name, index), problems);
        if (range) ranges.push(range);
      }
      if (ranges.length === value.length) draft.meetingRoomDates = ranges;
      return;
    }
    case 'decisionDeadline':
      if (value === null) draft.decisionDeadline = null;
      else if (passes(problems, deadlineFault(value), name)) draft.decisionDeadline = value as string;
      return;
    case 'decisionFactors':
    case 'additionalServices': {
      if (value === null) {
        draft[key] = [];
        return;
      }
      const list = checkTextList(value, LIMITS.textLists, problems, name);
      if (list) draft[key] = list;
      return;
    }
    default: {
      const field = key as 'flexibility';
      if (value === null) draft[field] = null;
      else if (passes(problems, textFault(value), name)) draft[field] = value as string;
    }
  }
}

/** A candidate location as sent: the typed parts, and any resolved-place fields sent back (checked later). */
function checkLocation(value: unknown, path: string, problems: Problem[]): Location | undefined {
  if (!isObject(value)) {
    problems.push({
      field: path,
      code: 'invalid_type',
      message: `must be an object with a city, not ${describeType(value)}`,
    });
    return undefined;
  }
  let valid = refuseUnknownKeys(value, LOCATION_KEYS, path, problems);
  const location: Location = { city: '', formatted_address: '' };
  if (value.city === undefined || value.city === null) {
    problems.push({ field: fieldPath(path, 'city'), code: 'required', message: 'is required' });
    valid = false;
  } else if (passes(problems, textFault(value.city, undefined, true), path, 'city')) {
    location.city = value.city as string;
  } else valid = false;
  for (const key of [
    'state',
    'country',
    'formatted_address',
    'place_id',
    'countryCode',
    'timeZone',
  ] as const) {
    const text = value[key];
    if (text === undefined || text === null) continue;
    if (!passes(problems, textFault(text), path, key)) valid = false;
    else if (key !== 'formatted_address') location[key] = text as string;
  }
  for (const key of ['latitude', 'longitude'] as const) {
    const number = value[key];
    if (number === undefined || number === null) continue;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      problems.push({
        field: fieldPath(path, key),
        code: 'invalid_type',
        message: `must be a number, not ${describeType(number)}`,
      });
      valid = false;
    } else location[key] = number;
  }
  return valid ? location : undefined;
}

function mergeBudget(
  current: Record<string, number>,
  patch: unknown,
  problems: Problem[],
): Record<string, number> | undefined {
  if (patch === null) return {};
  if (!isObject(patch)) {
    problems.push({
      field: 'budgetBreakdown',
      code: 'invalid_type',
      message: `must be an object of category -> amount, not ${describeType(patch)}`,
    });
    return undefined;
  }
  const merged: Record<string, number> = { ...current };
  let valid = true;
  for (const category in patch) {
    const amount = patch[category];
    if (!BUDGET.has(category)) {
      problems.push({
        field: fieldPath('budgetBreakdown', category),
        code: 'unknown_field',
        message: `is not a budget category; use one of ${BUDGET_CATEGORIES.join(', ')}`,
      });
      valid = false;
    } else if (amount === null) delete merged[category];
    else if (passes(problems, amountFault(amount), 'budgetBreakdown', category))
      merged[category] = amount as number;
    else valid = false;
  }
  if (!valid) return undefined;
  const ordered: Record<string, number> = {};
  for (const category of BUDGET_CATEGORIES) {
    if (merged[category] !== undefined) ordered[category] = merged[category];
  }
  return ordered;
}

function mergeAccommodations(
  current: Record<string, RoomCounts>,
  patch: unknown,
  problems: Problem[],
): Record<string, RoomCounts> | undefined {
  if (patch === null) return {};
  if (!isObject(patch)) {
    problems.push({
      field: 'accommodations',
      code: 'invalid_type',
      message: `must be an object of night -> room counts, not ${describeType(patch)}`,
    });
    return undefined;
  }
  const nights = Object.keys(patch);
  if (nights.length > LIMITS.accommodationNights) {
    problems.push({
      field: 'accommodations',
      code: 'too_many',
      message: `must have at most ${LIMITS.accommodationNights} nights (got ${nights.length})`,
    });
    return undefined;
  }
  // Nights changed in place keep the stored order (nights are stored sorted); an added one sorts again.
  const changed = new Map<string, RoomCounts | null>();
  let added = false;
  let valid = true;
  for (const night of nights) {
    const rooms = patch[night];
    if (isPrototypeKey(night)) {
      problems.push({
        field: fieldPath('accommodations', night),
        code: 'unknown_field',
        message: 'is not a night; nights are written YYYY-MM-DD',
      });
      valid = false;
      continue;
    }
    if (!passes(problems, dateFault(night), 'accommodations', night)) {
      valid = false;
      continue;
    }
    if (rooms === null) {
      changed.set(night, null);
      continue;
    }
    const before = changed.has(night) ? changed.get(night) : current[night];
    const merged = mergeRooms(before ?? {}, rooms, night, problems);
    if (!merged) valid = false;
    else {
      if (!Object.hasOwn(current, night)) added = true;
      changed.set(night, merged);
    }
  }
  if (!valid) return undefined;
  const result: Record<string, RoomCounts> = {};
  let count = 0;
  for (const night in current) {
    const rooms = changed.has(night) ? changed.get(night) : current[night];
    if (rooms) {
      result[night] = rooms;
      count++;
    }
  }
  if (added) {
    for (const [night, rooms] of changed) {
      if (rooms && !Object.hasOwn(current, night)) {
        result[night] = rooms;
        count++;
      }
    }
  }
  if (count > LIMITS.accommodationNights) {
    problems.push({
      field: 'accommodations',
      code: 'too_many',
      message: `the event would have ${count} nights; at most ${LIMITS.accommodationNights} are allowed`,
    });
    return undefined;
  }
  if (!added) return result;
  const sorted: Record<string, RoomCounts> = {};
  for (const night of Object.keys(result).sort()) sorted[night] = result[night]!;
  return sorted;
}

function mergeRooms(
  current: RoomCounts,
  patch: unknown,
  night: string,
  problems: Problem[],
): RoomCounts | undefined {
  if (!isObject(patch)) {
    problems.push({
      field: fieldPath('accommodations', night),
      code: 'invalid_type',
      message: `must be an object of room type -> count, not ${describeType(patch)}`,
    });
    return undefined;
  }
  const merged: RoomCounts = { ...current };
  let valid = true;
  for (const roomType in patch) {
    const count = patch[roomType];
    if (!ROOMS.has(roomType)) {
      problems.push({
        field: fieldPath(fieldPath('accommodations', night), roomType),
        code: 'unknown_field',
        message: `is not a room type; use one of ${ROOM_TYPES.join(', ')}`,
      });
      valid = false;
    } else if (count === null) delete merged[roomType];
    else {
      const fault = countFault(count);
      if (fault === undefined) merged[roomType] = count as number;
      else {
        passes(problems, fault, fieldPath('accommodations', night), roomType);
        valid = false;
      }
    }
  }
  if (!valid) return undefined;
  const ordered: RoomCounts = {};
  for (const roomType of ROOM_TYPES) {
    if (merged[roomType] !== undefined) ordered[roomType] = merged[roomType];
  }
  return ordered;
}

function checkMeetingRoomRange(value: unknown, path: string, problems: Problem[]): DateRange | undefined {
  if (!isObject(value)) {
    problems.push({
      field: path,
      code: 'invalid_type',
      message: `must be an object with startDate and endDate, not ${describeType(value)}`,
    });
    return undefined;
  }
  const valid = refuseUnknownKeys(value, RANGE_KEYS, path, problems);
  let complete = true;
  for (const key of ['startDate', 'endDate'] as const) {
    if (value[key] === undefined) {
      problems.push({ field: fieldPath(path, key), code: 'required', message: 'is required' });
      complete = false;
    } else if (!passes(problems, dateFault(value[key]), path, key)) complete = false;
  }
  if (!complete) return undefined;
  const range = { startDate: value.startDate as string, endDate: value.endDate as string };
  if (range.startDate > range.endDate) {
    problems.push({
      field: fieldPath(path, 'endDate'),
      code: 'out_of_range',
      message: 'must not be before startDate',
    });
    return undefined;
  }
  const days = dayNumber(range.endDate)! - dayNumber(range.startDate)! + 1;
  if (days > LIMITS.meetingRoomRangeDays) {
    problems.push({
      field: path,
      code: 'too_long',
      message: `a range may span at most ${LIMITS.meetingRoomRangeDays} days (got ${days})`,
    });
    return undefined;
  }
  return valid ? range : undefined;
}
