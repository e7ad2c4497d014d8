/**
 * From the dashboard's HTML forms to the API's bodies, and from the API's problems back to the form.
 * Controls are named after the API fields (`numPeople`, `budgetBreakdown.venue`,
 * `formattedLocations[0].city`, `accommodations.2027-03-01.Single`), so a problem's `field` names the
 * control it belongs to. Values are passed on as typed whenever they are not plainly what the field
 * takes, so the domain reports them with the API's own messages.
 */
import type { Problem } from '../domain/errors.js';
import { BUDGET_CATEGORIES, type EventDetails, ROOM_TYPES } from '../domain/types.js';

/** What @fastify/formbody hands over: each name once, or several times for repeated controls. */
export type FormBody = Record<string, string | string[] | undefined>;

/** The last value sent under a name ('' when none). */
export function field(form: FormBody, name: string): string {
  const value = form[name];
  if (Array.isArray(value)) return value[value.length - 1] ?? '';
  return value ?? '';
}

/** Every value sent under a name (checkbox groups). */
export function fields(form: FormBody, name: string): string[] {
  const value = form[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Anything written as a plain number, negative or with decimals, is sent as that number, so the domain
 * answers about its value ("must be a whole number", "must be at least 0") rather than its type.
 */
const PLAIN_NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/** A number control: blank clears (null), a number becomes a number, anything else is passed on to be refused. */
function numberValue(raw: string): number | string | null {
  if (raw.trim() === '') return null;
  return PLAIN_NUMBER.test(raw) ? Number(raw) : raw;
}

/** A text control: blank clears (null). */
const textValue = (raw: string): string | null => (raw.trim() === '' ? null : raw);

/** One entry per line, blank lines dropped. */
export const lines = (raw: string): string[] =>
  raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The indexes present for a repeated group such as `formattedLocations[3].city`. */
function indexesOf(form: FormBody, group: string): number[] {
  const pattern = new RegExp(`^${group}\\[(\\d+)\\]\\.`);
  const indexes = new Set<number>();
  for (const name of Object.keys(form)) {
    const match = pattern.exec(name);
    if (match) indexes.add(Number(match[1]));
  }
  return [...indexes].sort((a, b) => a - b);
}

export const TEXT_FIELDS = [
  'flexibility',
  'decisionDeadline',
  'foodBeverageRequirements',
  'meetingRooms',
  'otherNotes',
  'notesForVenue',
  'decisionFactorOtherText',
] as const;

/**
 * The details form (everything but the room block and the agenda) as a PATCH or create body. Rows
 * left blank (the spare rows for adding a city or a range) are not sent; the form's own positions are
 * kept in a map so that problems can be shown on the row the person typed in.
 */
export function detailsBody(form: FormBody): { body: Record<string, unknown>; rows: RowMap } {
  const body: Record<string, unknown> = {};
  const rows: RowMap = {};
  body.name = field(form, 'name');
  body.numPeople = numberValue(field(form, 'numPeople'));
  body.numMeetingRoomsNeeded = numberValue(field(form, 'numMeetingRoomsNeeded'));
  for (const name of TEXT_FIELDS) body[name] = textValue(field(form, name));
  body.decisionFactors = lines(field(form, 'decisionFactors'));
  body.additionalServices = lines(field(form, 'additionalServices'));

  const budget: Record<string, number | string | null> = {};
  for (const category of BUDGET_CATEGORIES) {
    budget[category] = numberValue(field(form, `budgetBreakdown.${category}`));
  }
  body.budgetBreakdown = budget;

  const locations: Array<Record<string, string>> = [];
  rows.formattedLocations = [];
  for (const index of indexesOf(form, 'formattedLocations')) {
    const city = field(form, `formattedLocations[${index}].city`);
    const state = field(form, `formattedLocations[${index}].state`);
    const country = field(form, `formattedLocations[${index}].country`);
    if (city.trim() === '' && state.trim() === '' && country.trim() === '') continue;
    rows.formattedLocations.push(index);
    locations.push({ city, ...(state.trim() ? { state } : {}), ...(country.trim() ? { country } : {}) });
  }
  body.formattedLocations = locations;

  const ranges: Array<Record<string, string>> = [];
  rows.meetingRoomDates = [];
  for (const index of indexesOf(form, 'meetingRoomDates')) {
    const startDate = field(form, `meetingRoomDates[${index}].startDate`);
    const endDate = field(form, `meetingRoomDates[${index}].endDate`);
    if (startDate.trim() === '' && endDate.trim() === '') continue;
    rows.meetingRoomDates.push(index);
    ranges.push({ startDate, endDate });
  }
  body.meetingRoomDates = ranges;
  return { body, rows };
}

/** For each repeated group, the form row of each entry sent (entry i came from row rows[group][i]). */
export type RowMap = Record<string, number[]>;

/** Renames a problem's field from the body's positions back to the form's rows. */
export function toFormField(fieldName: string, rows: RowMap): string {
  const match = /^(\w+)\[(\d+)\](.*)$/.exec(fieldName);
  if (!match) return fieldName;
  const [, group, index, rest] = match;
  const row = rows[group!]?.[Number(index)];
  return row === undefined ? fieldName : `${group}[${row}]${rest}`;
}

/** The create body: the details form plus the currency, which only a new event takes. */
export function createBody(form: FormBody): { body: Record<string, unknown>; rows: RowMap } {
  const { body, rows } = detailsBody(form);
  const currency = field(form, 'currency').trim();
  for (const [key, value] of Object.entries(body)) {
    // A new event starts blank: only what was filled in is sent.
    if (value === null || (Array.isArray(value) && value.length === 0)) delete body[key];
  }
  body.budgetBreakdown = Object.fromEntries(
    Object.entries(body.budgetBreakdown as Record<string, unknown>).filter(([, amount]) => amount !== null),
  );
  return { body: { ...body, ...(currency ? { currency: currency.toUpperCase() } : {}) }, rows };
}

/**
 * The room grid as an accommodations merge patch against what is stored: a cell left blank removes
 * that room type, a night with every cell blank (or ticked for removal) is removed, and a new night is
 * sent only when a cell of it was filled in.
 */
export function roomsBody(form: FormBody, stored: EventDetails['accommodations']): Record<string, unknown> {
  const nights = new Set<string>(Object.keys(stored));
  for (const name of Object.keys(form)) {
    const match = /^accommodations\.([^.]+)\./.exec(name);
    if (match) nights.add(match[1]!);
  }
  const removed = new Set(fields(form, 'removeNight'));
  const patch: Record<string, Record<string, number | string | null> | null> = {};
  for (const night of [...nights].sort()) {
    const before = stored[night];
    if (removed.has(night)) {
      if (before) patch[night] = null;
      continue;
    }
    const counts: Record<string, number | string | null> = {};
    let filled = 0;
    for (const type of ROOM_TYPES) {
      const value = numberValue(field(form, `accommodations.${night}.${type}`));
      if (value !== null) {
        counts[type] = value;
        filled++;
      } else if (before?.[type] !== undefined) {
        counts[type] = null;
      }
    }
    if (filled === 0) {
      if (before) patch[night] = null;
    } else {
      patch[night] = counts;
    }
  }
  return { accommodations: patch };
}

/** Problems by field, for showing each beside its control. */
export function problemsByField(problems: readonly Problem[]): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const problem of problems) {
    const messages = byField.get(problem.field) ?? [];
    messages.push(problem.message);
    byField.set(problem.field, messages);
  }
  return byField;
}

/** The session fields of an agenda form, as an `add` or `update` operation's `session`. */
export function sessionBody(form: FormBody): Record<string, unknown> {
  const capacity = numberValue(field(form, 'capacity'));
  return {
    title: field(form, 'title'),
    dates: fields(form, 'dates').filter((date) => date !== ''),
    startTime: field(form, 'startTime'),
    endTime: field(form, 'endTime'),
    roomType: field(form, 'roomType'),
    capacity: capacity ?? 0,
    avRequirements: lines(field(form, 'avRequirements')),
    fbRequirements: lines(field(form, 'fbRequirements')),
    avOtherText: field(form, 'avOtherText'),
    fbOtherText: field(form, 'fbOtherText'),
    notes: field(form, 'notes'),
  };
}

/** `agendaOperations[0].session.title` → `title`: agenda forms name controls after the session's fields. */
export function sessionField(problemField: string): string {
  return problemField.replace(/^agendaOperations\[\d+\]\.(session\.)?/, '').replace(/^agenda\[\d+\]\./, '');
}
