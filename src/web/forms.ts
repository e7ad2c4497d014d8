/**
 * From the dashboard's HTML forms to the API's bodies, and from the API's problems back to the form.
 * Controls are named after the API fields (`numPeople`, `budgetBreakdown.venue`,
 * `formattedLocations[0].city`, `accommodations.2027-03-01.Single`), so a problem's `field` names the
 * control it belongs to. Values are passed on as typed whenever they are not plainly what the field
 * takes, so the domain reports them with the API's own messages.
 */
import { EVENT_FIELDS, type EventFieldDescription, WRITABLE_FIELDS } from '../domain/event-field-table.js';
import { BUDGET_CATEGORIES, type EventDetails, ROOM_TYPES } from '../domain/types.js';

/** What @fastify/formbody hands over: each name once, or several times for repeated controls. */
export type FormBody = Record<string, string | string[] | undefined>;

/** The id of a control named after an API field: `formattedLocations[0].city` → `field-formattedLocations-0-city`. */
export const fieldId = (name: string): string =>
  `field-${name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/-+$/, '')}`;

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

/** The fields of the details form: every writable field but the room block, which has a page of its own. */
export const DETAILS_FORM_FIELDS = WRITABLE_FIELDS.filter(
  (name) => EVENT_FIELDS[name].kind !== 'accommodations',
);

/**
 * The details form (everything but the room block and the agenda) as a PATCH or create body, each
 * field read as its kind calls for. Rows left blank (the spare rows for adding a city or a range) are
 * not sent; the form's own positions are kept in a map so that problems can be shown on the row the
 * person typed in.
 */
export function detailsBody(form: FormBody): { body: Record<string, unknown>; rows: RowMap } {
  const body: Record<string, unknown> = {};
  const rows: RowMap = {};
  for (const name of DETAILS_FORM_FIELDS) {
    const description: EventFieldDescription = EVENT_FIELDS[name];
    const raw = field(form, name);
    switch (description.kind) {
      case 'text':
        // A field that cannot be cleared is sent as typed, so a blank one is refused as empty.
        body[name] = description.whenNull === 'refused' ? raw : textValue(raw);
        break;
      case 'deadline':
        body[name] = textValue(raw);
        break;
      case 'count':
        body[name] = numberValue(raw);
        break;
      case 'textList':
        body[name] = lines(raw);
        break;
      case 'budget':
        body[name] = Object.fromEntries(
          BUDGET_CATEGORIES.map((category) => [category, numberValue(field(form, `${name}.${category}`))]),
        );
        break;
      case 'locations':
        body[name] = filledRows(
          form,
          name,
          ['city', 'state', 'country'],
          rows,
          ({ city, state, country }) => ({
            city,
            ...(state.trim() ? { state } : {}),
            ...(country.trim() ? { country } : {}),
          }),
        );
        break;
      case 'dateRanges':
        body[name] = filledRows(form, name, ['startDate', 'endDate'], rows, (range) => range);
        break;
    }
  }
  return { body, rows };
}

/** The rows of a repeated group with anything typed in them, each as `entry` makes it. */
function filledRows<Part extends string>(
  form: FormBody,
  group: string,
  parts: readonly Part[],
  rows: RowMap,
  entry: (values: Record<Part, string>) => Record<string, string>,
): Array<Record<string, string>> {
  const entries: Array<Record<string, string>> = [];
  rows[group] = [];
  for (const index of indexesOf(form, group)) {
    const values = Object.fromEntries(
      parts.map((part) => [part, field(form, `${group}[${index}].${part}`)]),
    ) as Record<Part, string>;
    if (parts.every((part) => values[part].trim() === '')) continue;
    rows[group].push(index);
    entries.push(entry(values));
  }
  return entries;
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

/** A problem named after the form control it belongs to. */
export interface FormProblem {
  field: string;
  message: string;
}

/** Problems by control, for showing each beside it. */
export function problemsByField(problems: readonly FormProblem[]): Map<string, string[]> {
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

/**
 * `agendaOperations[0].session.title` → `title`: agenda forms name controls after the session's fields.
 * An entry of a list (`dates[1]`, `avRequirements[0]`) belongs to the one control that holds the list.
 */
export function sessionField(problemField: string): string {
  return problemField
    .replace(/^agendaOperations\[\d+\]\.(session\.)?/, '')
    .replace(/^agenda\[\d+\]\./, '')
    .replace(/^(dates|avRequirements|fbRequirements)\[\d+\]$/, '$1');
}
