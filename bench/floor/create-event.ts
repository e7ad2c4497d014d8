/** A create body (D9) checked field by field and made into the new event's details. */
import { checkNewSession, judgeAgendaDates, type RejectedDates } from './agenda.js';
import { checkArrayShape, describeType, fieldPath, type Problem } from './checks.js';
import { eventDatesOf } from './derived.js';
import { applyWritableField, WRITABLE_FIELDS } from './event-fields.js';
import { blankEvent, type Details, LIMITS, type Session } from './event-model.js';
import { invalid } from './refusal.js';

const SET_BY_SERVICE = new Set(['id', 'status', 'location', 'createdAt', 'updatedAt']);
const DATES_ALIASES = ['eventDates', 'event_dates', 'meetingRoomDates'];
let currencies: Set<string> | undefined;

export interface CreateContext {
  id: string;
  now: string;
  newId: () => string;
}

/**
 * The new event's details with every derived field but its locations' (settlePlaces, once the places
 * are looked up); throws a 400 Refusal listing every problem.
 */
export function buildNewEvent(body: Record<string, unknown>, context: CreateContext): Details {
  const problems: Problem[] = [];
  const draft = blankEvent(context.id, context.now);
  const datesSetAt = new Map<string, string>();
  const rejectedDates: RejectedDates[] = [];

  if (body.name === undefined) problems.push({ field: 'name', code: 'required', message: 'is required' });
  const datesKeys = DATES_ALIASES.filter((key) => body[key] !== undefined);
  if (datesKeys.length > 1) {
    problems.push({
      field: datesKeys[1]!,
      code: 'conflict',
      message: `send only one of ${datesKeys.join(' and ')}: eventDates on create becomes the initial meetingRoomDates`,
    });
  }
  // Sessions are judged against the meeting-room dates only when those are themselves sound.
  let meetingRoomDatesValid = datesKeys.length <= 1;
  for (const key in body) {
    const value = body[key];
    if (key === 'organizationId') continue;
    const before = problems.length;
    if (WRITABLE_FIELDS.has(key)) {
      applyWritableField(draft, key, value, problems);
      if (key === 'meetingRoomDates' && problems.length > before) meetingRoomDatesValid = false;
    } else if (key === 'eventDates' || key === 'event_dates') {
      if (datesKeys.length === 1) applyWritableField(draft, 'meetingRoomDates', value, problems, key);
      if (problems.length > before) meetingRoomDatesValid = false;
    } else if (key === 'currency') {
      if (value === null) continue;
      currencies ??= new Set(Intl.supportedValuesOf('currency'));
      if (typeof value !== 'string' || !currencies.has(value)) {
        problems.push({
          field: 'currency',
          code: 'invalid_value',
          message: 'must be an ISO 4217 currency code such as USD or EUR',
        });
      } else draft.currency = value;
    } else if (key === 'agenda') {
      if (value === null || !checkArrayShape(value, LIMITS.agendaOperations, problems, 'agenda')) continue;
      const sessions: Session[] = [];
      for (let index = 0; index < value.length; index++) {
        const path = fieldPath('agenda', index);
        const checked = checkNewSession(value[index], path, problems, context.newId());
        if (checked.rejectedDates) rejectedDates.push({ path, dates: checked.rejectedDates });
        if (!checked.session) continue;
        sessions.push(checked.session);
        datesSetAt.set(checked.session.id, path);
      }
      draft.agenda = sessions;
    } else if (SET_BY_SERVICE.has(key)) {
      problems.push({ field: key, code: 'read_only', message: 'is set by the service' });
    } else {
      problems.push({
        field: key,
        code: 'unknown_field',
        message: `is not a field of an event (got ${describeType(value)})`,
      });
    }
  }
  if (meetingRoomDatesValid)
    judgeAgendaDates(draft.agenda, draft.meetingRoomDates, datesSetAt, rejectedDates, problems);
  if (problems.length > 0) throw invalid(problems);
  draft.eventDates = eventDatesOf(draft);
  return draft;
}
