/** Applying a PATCH to an event: the rules of the interface, D5, D6 and D7, as one pure function. */
import { applyAgendaOperations, type RejectedDates, uncoveredDates } from './agenda.js';
import { rangesCover } from './dates.js';
import { deepEqual } from './deep-equal.js';
import { withDerivedFieldsSince } from './derived.js';
import {
  AgendaSessionsOrphanedError,
  EventCancelledError,
  type OrphanedSession,
  ValidationError,
} from './errors.js';
import { isWritableField } from './event-field-table.js';
import { applyWritableField } from './event-fields.js';
import { Problems } from './problems.js';
import { checkReadOnlyField, IGNORED_FIELDS, isReadOnlyField } from './read-only-fields.js';
import type { AgendaItem, DateRange, EventDetails } from './types.js';
import { isPlainObject } from './values.js';

export interface UpdateContext {
  now: string;
  newId: () => string;
}

export interface UpdateOutcome {
  details: EventDetails;
  changed: boolean;
}

/**
 * Returns the updated details, or throws: EventCancelledError (409), ValidationError with every
 * problem (400), AgendaSessionsOrphanedError (409). The input is never modified.
 */
export function applyUpdate(current: EventDetails, body: unknown, context: UpdateContext): UpdateOutcome {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: '', code: 'invalid_type', message: 'the request body must be a JSON object' },
    ]);
  }
  if (current.status === 'cancelled') throw new EventCancelledError();

  const problems = new Problems();
  // A shallow copy is enough: every field check and agenda operation builds new values, never edits
  // the ones it was given (a property test checks that the input is never modified).
  const draft: EventDetails = { ...current };
  let meetingRoomDatesValid = true;
  for (const [key, value] of Object.entries(body)) {
    if ((IGNORED_FIELDS as readonly string[]).includes(key) || key === 'agendaOperations') continue;
    if (isReadOnlyField(key)) {
      checkReadOnlyField(key, value, current, problems);
    } else if (isWritableField(key)) {
      const before = problems.list.length;
      applyWritableField(draft, key, value, problems);
      if (key === 'meetingRoomDates' && problems.list.length > before) meetingRoomDatesValid = false;
    } else {
      problems.add(key, 'unknown_field', 'is not a field of an event');
    }
  }

  let datesSetAt = new Map<string, string>();
  let rejectedDates: RejectedDates[] = [];
  if (body.agendaOperations !== undefined && body.agendaOperations !== null) {
    const result = applyAgendaOperations(current.agenda, body.agendaOperations, problems, context.newId);
    draft.agenda = result.agenda;
    datesSetAt = result.datesSetAt;
    rejectedDates = result.rejectedDates;
  } else if (body.agendaOperations === null) {
    problems.add('agendaOperations', 'invalid_type', 'must be an array of operations');
  }

  const orphans = meetingRoomDatesValid
    ? judgeAgendaDates(draft.agenda, draft.meetingRoomDates, datesSetAt, problems, rejectedDates)
    : [];
  if (!problems.empty) throw new ValidationError(problems.list);
  if (orphans.length > 0) throw new AgendaSessionsOrphanedError(orphans);

  const derived = withDerivedFieldsSince(current, draft);
  if (deepEqual(derived, current)) return { details: current, changed: false };
  return { details: { ...derived, updatedAt: context.now }, changed: true };
}

/**
 * Every day of every session must lie inside meetingRoomDates. Days this request set are a 400 on
 * the operation that set them; days left outside by a change of meetingRoomDates are orphans (409).
 * `rejectedDates` are the valid days of sessions rejected for other reasons, judged too so that one
 * 400 lists every problem.
 */
export function judgeAgendaDates(
  agenda: readonly AgendaItem[],
  meetingRoomDates: readonly DateRange[],
  datesSetAt: ReadonlyMap<string, string>,
  problems: Problems,
  rejectedDates: readonly RejectedDates[] = [],
): OrphanedSession[] {
  const orphans: OrphanedSession[] = [];
  const covered = rangesCover(meetingRoomDates);
  for (const { path, dates } of rejectedDates) {
    const outside = dates.filter((date) => !covered(date));
    if (outside.length > 0) reportOutside(problems, path, outside);
  }
  for (const session of agenda) {
    const outside = uncoveredDates(session, covered);
    if (outside.length === 0) continue;
    const setAt = datesSetAt.get(session.id);
    if (setAt) {
      reportOutside(problems, setAt, outside);
    } else {
      orphans.push({
        sessionId: session.id,
        title: session.title,
        droppedDates: outside,
        fullyOrphaned: outside.length === session.dates.length,
      });
    }
  }
  return orphans;
}

function reportOutside(problems: Problems, path: string, outside: readonly string[]): void {
  problems.add(
    path,
    'outside_meeting_room_dates',
    `days ${outside.join(', ')} are not inside meetingRoomDates`,
  );
}
