/**
 * The room grid as the person typed it, before it is saved: the nights it shows, the rooms of a night,
 * and "Copy night", which applies to the grid as typed so that nothing typed and not yet saved is lost.
 */
import { ROOM_TYPES } from '../domain/types.js';
import { type FormBody, field, fields } from './forms.js';

/** The control of one cell: `accommodations.2030-05-01.Single`. */
export const cellName = (night: string, type: string): string => `accommodations.${night}.${type}`;

const CELL = /^accommodations\.([^.]+)\./;

/** The nights of a posted grid: every row posts each of its cells, blank or not. */
export function gridNights(values: FormBody): string[] {
  return [...new Set(Object.keys(values).flatMap((name) => CELL.exec(name)?.[1] ?? []))];
}

/** The grid's own entries of a posted form (its cells and its Remove ticks), nothing else. */
export function gridEntries(values: FormBody): FormBody {
  return Object.fromEntries(
    Object.entries(values).filter(([name]) => CELL.test(name) || name === 'removeNight'),
  );
}

/** Rooms in a cell as the grid's totals count them: a whole number of at least 0, else none. */
function rooms(raw: string): number {
  const number = Number(raw);
  return raw.trim() !== '' && Number.isInteger(number) && number >= 0 ? number : 0;
}

/** The rooms of one night as typed (a night ticked for removal has none). */
export function nightRooms(values: FormBody, night: string): number {
  if (fields(values, 'removeNight').includes(night)) return 0;
  return ROOM_TYPES.reduce((sum, type) => sum + rooms(field(values, cellName(night, type))), 0);
}

export interface CopiedNight {
  /** The grid with the copy applied. */
  values: FormBody;
  /** Nights of the range that had no rooms and now have some. */
  nightsAdded: number;
  /** Room nights after the copy less those before it, over the range (negative when fewer). */
  roomNightsAdded: number;
}

/** Every night of `range` becomes exactly `night` as typed: its cells, blank ones included; none stays ticked for removal. */
export function copyNight(values: FormBody, night: string, range: readonly string[]): CopiedNight {
  const copied: FormBody = { ...values };
  let nightsAdded = 0;
  let roomNightsAdded = 0;
  const ticked = new Set(fields(values, 'removeNight'));
  const removedNow = fields(values, 'removeNight').filter((removed) => !range.includes(removed));
  const source = Object.fromEntries(ROOM_TYPES.map((type) => [type, field(values, cellName(night, type))]));
  const sourceRooms = ticked.has(night)
    ? ROOM_TYPES.reduce((sum, type) => sum + rooms(source[type] ?? ''), 0)
    : nightRooms(values, night);
  for (const target of range) {
    const before = nightRooms(values, target);
    for (const type of ROOM_TYPES) copied[cellName(target, type)] = source[type] ?? '';
    if (before === 0 && sourceRooms > 0) nightsAdded++;
    roomNightsAdded += sourceRooms - before;
  }
  copied.removeNight = removedNow;
  return { values: copied, nightsAdded, roomNightsAdded };
}
