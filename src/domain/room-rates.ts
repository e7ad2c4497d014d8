/**
 * The rooms a venue offers (D23): `{ night: { roomType: { count, rate } } }`, nights as `YYYY-MM-DD`,
 * the interface's room types, `count` rooms at `rate` per room per night.
 */
import { type Checked, fieldPath, INVALID, type Problems } from './problems.js';
import { LIMITS, ROOM_TYPES, type RoomType } from './types.js';
import {
  checkAmount,
  checkDate,
  checkNonNegativeInteger,
  describeType,
  isPlainObject,
  isPrototypeKey,
  rejectUnknownKeys,
} from './values.js';

export interface RoomRate {
  /** Rooms of this type offered for the night: an integer ≥ 0. */
  count: number;
  /** Price per room for the night, in the proposal's currency. */
  rate: number;
}
export type NightRates = Partial<Record<RoomType, RoomRate>>;
export type RoomRates = Record<string, NightRates>;

const CELL_KEYS = ['count', 'rate'] as const;

function isRoomType(key: string): key is RoomType {
  return (ROOM_TYPES as readonly string[]).includes(key);
}

/**
 * Checks offered rooms, naming every problem by its path (`rooms.2027-05-12.Single.rate`). A night or
 * a room type sent as `null` is not offered. Nights come back sorted, room types in the interface's
 * order, and a night with no room type is left out.
 */
export function checkRoomRates(value: unknown, path: string, problems: Problems): Checked<RoomRates> {
  if (!isPlainObject(value)) {
    problems.add(
      path,
      'invalid_type',
      `must be an object of night -> room type -> { count, rate }, not ${describeType(value)}`,
    );
    return INVALID;
  }
  const nights = Object.keys(value);
  if (nights.length > LIMITS.accommodationNights) {
    problems.add(
      path,
      'too_many',
      `must have at most ${LIMITS.accommodationNights} nights (got ${nights.length})`,
    );
    return INVALID;
  }
  let valid = true;
  const rates: RoomRates = {};
  for (const night of nights.sort()) {
    const nightPath = fieldPath(path, night);
    if (isPrototypeKey(night)) {
      problems.add(nightPath, 'unknown_field', 'is not a night; nights are written YYYY-MM-DD');
      valid = false;
      continue;
    }
    if (checkDate(night, nightPath, problems) === INVALID) {
      valid = false;
      continue;
    }
    const rooms = value[night];
    if (rooms === null) continue;
    const checked = checkNightRates(rooms, nightPath, problems);
    if (checked === INVALID) valid = false;
    else if (Object.keys(checked).length > 0) rates[night] = checked;
  }
  return valid ? rates : INVALID;
}

function checkNightRates(value: unknown, path: string, problems: Problems): Checked<NightRates> {
  if (!isPlainObject(value)) {
    problems.add(
      path,
      'invalid_type',
      `must be an object of room type -> { count, rate }, not ${describeType(value)}`,
    );
    return INVALID;
  }
  let valid = true;
  const cells = new Map<RoomType, RoomRate>();
  for (const [roomType, cell] of Object.entries(value)) {
    const cellPath = fieldPath(path, roomType);
    if (!isRoomType(roomType)) {
      problems.add(cellPath, 'unknown_field', `is not a room type; use one of ${ROOM_TYPES.join(', ')}`);
      valid = false;
      continue;
    }
    if (cell === null) continue;
    const checked = checkRoomRate(cell, cellPath, problems);
    if (checked === INVALID) valid = false;
    else cells.set(roomType, checked);
  }
  if (!valid) return INVALID;
  const ordered: NightRates = {};
  for (const roomType of ROOM_TYPES) {
    const cell = cells.get(roomType);
    if (cell) ordered[roomType] = cell;
  }
  return ordered;
}

function checkRoomRate(value: unknown, path: string, problems: Problems): Checked<RoomRate> {
  if (!isPlainObject(value)) {
    problems.add(path, 'invalid_type', `must be an object { count, rate }, not ${describeType(value)}`);
    return INVALID;
  }
  let valid = rejectUnknownKeys(value, CELL_KEYS, path, problems);
  const cell: Partial<RoomRate> = {};
  for (const key of CELL_KEYS) {
    const keyPath = fieldPath(path, key);
    if (value[key] === undefined || value[key] === null) {
      problems.add(
        keyPath,
        'required',
        key === 'count' ? 'is required: how many rooms' : 'is required: the price per room per night',
      );
      valid = false;
      continue;
    }
    const checked =
      key === 'count'
        ? checkNonNegativeInteger(value[key], keyPath, problems)
        : checkAmount(value[key], keyPath, problems);
    if (checked === INVALID) valid = false;
    else cell[key] = checked;
  }
  return valid ? (cell as RoomRate) : INVALID;
}

/** The rooms offered per night and type, without their rates. */
export function offeredCounts(rates: RoomRates): Record<string, Partial<Record<RoomType, number>>> {
  const counts: Record<string, Partial<Record<RoomType, number>>> = {};
  for (const [night, cells] of Object.entries(rates)) {
    counts[night] = {};
    for (const [roomType, cell] of Object.entries(cells) as Array<[RoomType, RoomRate]>) {
      counts[night][roomType] = cell.count;
    }
  }
  return counts;
}
