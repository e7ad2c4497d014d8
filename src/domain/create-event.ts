/** Building a new event from a create request (D9). */
import { checkNewSession, type RejectedDates } from './agenda.js';
import { setDerivedFields } from './derived.js';
import { ValidationError } from './errors.js';
import {
  clearedValue,
  EVENT_FIELDS,
  type EventField,
  FIELD_NAMES,
  fieldNamed,
  isWritableField,
} from './event-field-table.js';
import { applyWritableField } from './event-fields.js';
import { fieldPath, Problems } from './problems.js';
import { IGNORED_FIELDS } from './read-only-fields.js';
import { type AgendaItem, type EventDetails, LIMITS } from './types.js';
import { judgeAgendaDates } from './update-event.js';
import { checkArrayShape, describeType, isPlainObject } from './values.js';

export interface CreateContext {
  id: string;
  now: string;
  newId: () => string;
}

const DEFAULT_CURRENCY = 'USD';
let currencies: Set<string> | undefined;

/** The fields a create may not set: `eventDates` is taken before this, as the initial meeting-room dates. */
function isSetByService(key: string): boolean {
  const access = fieldNamed(key)?.access;
  return access === 'service' || access === 'derived';
}

export function isCurrencyCode(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

/** Every field of a new event as a `null` would leave it; objects and arrays are made anew for each event. */
let blankFields: Record<string, unknown> | undefined;
let objectFields: EventField[] | undefined;

/** A new event before its create request is applied: every field empty, as a `null` would leave it. */
export function blankEvent(id: string, now: string): EventDetails {
  if (!blankFields || !objectFields) {
    blankFields = Object.fromEntries(FIELD_NAMES.map((name) => [name, clearedValue(EVENT_FIELDS[name])]));
    objectFields = FIELD_NAMES.filter(
      (name) => typeof blankFields![name] === 'object' && blankFields![name] !== null,
    );
  }
  // A copy of one template keeps every event's fields in the same order, as the document lists them.
  const draft = { ...blankFields };
  for (const name of objectFields) draft[name] = clearedValue(EVENT_FIELDS[name]);
  draft.id = id;
  draft.status = 'draft';
  draft.currency = DEFAULT_CURRENCY;
  draft.createdAt = now;
  draft.updatedAt = now;
  return draft as unknown as EventDetails;
}

/**
 * The create body that makes a copy of an event: every field a create takes, as a client would send
 * it. Locations go as typed (city, state, country), so the copy resolves its places anew.
 */
export function copyBody(details: EventDetails): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) {
    const { access } = EVENT_FIELDS[name];
    if (access === 'service' || access === 'derived') continue;
    body[name] = details[name];
  }
  body.formattedLocations = details.formattedLocations.map(({ city, state, country }) => ({
    city,
    state,
    country,
  }));
  body.agenda = details.agenda.map(({ id: _id, ...session }) => session);
  return body;
}

/** Returns the new event's details, or throws ValidationError listing every problem. */
export function buildNewEvent(body: unknown, context: CreateContext): EventDetails {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: '', code: 'invalid_type', message: 'the request body must be a JSON object' },
    ]);
  }
  const problems = new Problems();
  const draft = blankEvent(context.id, context.now);
  const datesSetAt = new Map<string, string>();
  const rejectedDates: RejectedDates[] = [];

  if (body.name === undefined) problems.add('name', 'required', 'is required');
  const eventDatesKeys = ['eventDates', 'event_dates', 'meetingRoomDates'].filter(
    (key) => body[key] !== undefined,
  );
  if (eventDatesKeys.length > 1) {
    problems.add(
      eventDatesKeys[1]!,
      'conflict',
      `send only one of ${eventDatesKeys.join(' and ')}: eventDates on create becomes the initial meetingRoomDates`,
    );
  }

  // Sessions are judged against the meeting-room dates only when those are themselves sound.
  let meetingRoomDatesValid = eventDatesKeys.length <= 1;
  for (const key in body) {
    const value = body[key];
    if ((IGNORED_FIELDS as readonly string[]).includes(key)) continue;
    const before = problems.list.length;
    if (isWritableField(key)) {
      applyWritableField(draft, key, value, problems);
      if (key === 'meetingRoomDates' && problems.list.length > before) meetingRoomDatesValid = false;
    } else if (key === 'eventDates' || key === 'event_dates') {
      if (eventDatesKeys.length === 1)
        applyWritableField(draft, 'meetingRoomDates', value, problems.renamed('meetingRoomDates', key));
      if (problems.list.length > before) meetingRoomDatesValid = false;
    } else if (key === 'currency') {
      if (value === null) continue;
      if (typeof value !== 'string' || !isCurrencyCode(value)) {
        problems.add('currency', 'invalid_value', 'must be an ISO 4217 currency code such as USD or EUR');
      } else {
        draft.currency = value;
      }
    } else if (key === 'agenda') {
      if (value === null) continue;
      // The sound sessions are kept (and judged below) even when others are rejected, so that one
      // 400 lists every problem.
      const sessions: AgendaItem[] = [];
      if (checkArrayShape(value, 'agenda', problems, LIMITS.agendaOperations)) {
        for (let index = 0; index < value.length; index++) {
          const path = fieldPath('agenda', index);
          const checked = checkNewSession(value[index], path, problems, context.newId());
          if (checked.rejectedDates)
            rejectedDates.push({ path: fieldPath(path, 'dates'), dates: checked.rejectedDates });
          if (!checked.session) continue;
          sessions.push(checked.session);
          datesSetAt.set(checked.session.id, fieldPath(path, 'dates'));
        }
      }
      draft.agenda = sessions;
    } else if (isSetByService(key)) {
      problems.add(key, 'read_only', 'is set by the service');
    } else {
      problems.add(key, 'unknown_field', `is not a field of an event (got ${describeType(value)})`);
    }
  }

  if (meetingRoomDatesValid) {
    judgeAgendaDates(draft.agenda, draft.meetingRoomDates, datesSetAt, problems, rejectedDates);
  }
  if (!problems.empty) throw new ValidationError(problems.list);
  return setDerivedFields(draft);
}
