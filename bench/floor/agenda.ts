/**
 * Agenda sessions (interface-v1 "AgendaItem") and the operations that edit them (D7): a create's
 * `agenda` and an update's `agendaOperations`, checked and applied as the contract says.
 */
import {
  booleanFault,
  checkArrayShape,
  checkTextList,
  countFault,
  dateFault,
  describeType,
  type Fault,
  fault,
  fieldPath,
  isObject,
  isUuid,
  type Problem,
  passes,
  refuseUnknownKeys,
  textFault,
  timeFault,
} from './checks.js';
import { type DateRange, LIMITS, type Session } from './event-model.js';

const SESSION_KEYS = [
  'title',
  'dates',
  'startTime',
  'endTime',
  'roomType',
  'capacity',
  'avRequirements',
  'fbRequirements',
  'avOtherText',
  'fbOtherText',
  'notes',
  'useInternalSpace',
  'internalOfficeId',
  'internalOfficeName',
] as const;
type SessionKey = (typeof SESSION_KEYS)[number];
const ALLOWED_SESSION_KEYS = new Set<string>(['id', ...SESSION_KEYS]);
const REQUIRED_KEYS = new Set<string>(['title', 'dates', 'startTime', 'endTime']);
const OPERATION_KEYS = new Set(['op', 'sessionId', 'session']);

/** A session's fields that passed their checks (`null`: reset to the default), and whether all did. */
type Changes = Partial<Record<SessionKey, unknown>>;

/** Days a rejected session asked for, still judged against meetingRoomDates so one 400 lists everything. */
export interface RejectedDates {
  /** The session's field (its days are at `.dates`). */
  path: string;
  dates: string[];
}

/** A session's days: real dates, at least one, none twice; sorted. */
function sessionDates(value: unknown, sessionPath: string, problems: Problem[]): string[] | undefined {
  if (!checkArrayShape(value, LIMITS.sessionDates, problems, sessionPath, 'dates')) return undefined;
  let valid = true;
  for (let index = 0; index < value.length; index++) {
    const fault = dateFault(value[index]);
    if (fault === undefined) continue;
    passes(problems, fault, fieldPath(sessionPath, 'dates'), index);
    valid = false;
  }
  if (!valid) return undefined;
  if (value.length === 0) {
    problems.push({
      field: fieldPath(sessionPath, 'dates'),
      code: 'empty',
      message: 'must list at least one day',
    });
    return undefined;
  }
  const sorted = (value as string[]).slice().sort();
  for (let index = 1; index < sorted.length; index++) {
    if (sorted[index] === sorted[index - 1]) {
      problems.push({
        field: fieldPath(sessionPath, 'dates'),
        code: 'duplicate',
        message: 'must not list a day twice',
      });
      return undefined;
    }
  }
  return sorted;
}

/** The check of one session field; a list's check adds its own item problems. */
function checkSessionField(
  key: SessionKey,
  value: unknown,
  sessionPath: string,
  problems: Problem[],
): unknown {
  let problem: Fault | undefined;
  switch (key) {
    case 'title':
      problem = textFault(value, undefined, true);
      break;
    case 'dates':
      return sessionDates(value, sessionPath, problems);
    case 'startTime':
    case 'endTime':
      problem = timeFault(value);
      break;
    case 'capacity':
    case 'internalOfficeId':
      problem = countFault(value);
      break;
    case 'avRequirements':
    case 'fbRequirements':
      return checkTextList(value, LIMITS.sessionRequirements, problems, sessionPath, key);
    case 'useInternalSpace':
      problem = booleanFault(value);
      break;
    default:
      problem = textFault(value);
  }
  return passes(problems, problem, sessionPath, key) ? value : undefined;
}

/** The fields present in a session body, checked without judging completeness. */
function checkSessionFields(
  value: unknown,
  path: string,
  problems: Problem[],
): { changes: Changes; valid: boolean } | undefined {
  if (!isObject(value)) {
    problems.push({
      field: path,
      code: 'invalid_type',
      message: `must be an object, not ${describeType(value)}`,
    });
    return undefined;
  }
  let valid = true;
  if (Object.hasOwn(value, 'id')) {
    problems.push({
      field: fieldPath(path, 'id'),
      code: 'read_only',
      message: 'session ids are assigned by the service',
    });
    valid = false;
  }
  if (!refuseUnknownKeys(value, ALLOWED_SESSION_KEYS, path, problems)) valid = false;
  const changes: Changes = {};
  for (const key of SESSION_KEYS) {
    const field = value[key];
    if (field === undefined) continue;
    if (field === null) {
      if (REQUIRED_KEYS.has(key)) {
        problems.push({ field: fieldPath(path, key), code: 'required', message: 'cannot be cleared' });
        valid = false;
      } else changes[key] = null;
      continue;
    }
    const checked = checkSessionField(key, field, path, problems);
    if (checked === undefined) valid = false;
    else changes[key] = checked;
  }
  return { changes, valid };
}

/** A session in the service's field order; a `null` change resets a field to its default. */
function buildSession(id: string, base: Partial<Session>, changes: Changes): Session {
  const pick = (key: SessionKey): unknown => {
    if (Object.hasOwn(changes, key)) return changes[key] === null ? undefined : changes[key];
    return base[key];
  };
  const session: Session = {
    id,
    title: (pick('title') as string | undefined) ?? '',
    dates: (pick('dates') as string[] | undefined) ?? [],
    startTime: (pick('startTime') as string | undefined) ?? '',
    endTime: (pick('endTime') as string | undefined) ?? '',
    roomType: (pick('roomType') as string | undefined) ?? '',
    capacity: (pick('capacity') as number | undefined) ?? 0,
    avRequirements: (pick('avRequirements') as string[] | undefined) ?? [],
    fbRequirements: (pick('fbRequirements') as string[] | undefined) ?? [],
    avOtherText: (pick('avOtherText') as string | undefined) ?? '',
    fbOtherText: (pick('fbOtherText') as string | undefined) ?? '',
    notes: (pick('notes') as string | undefined) ?? '',
  };
  const useInternalSpace = pick('useInternalSpace');
  if (useInternalSpace !== undefined) session.useInternalSpace = useInternalSpace as boolean;
  const internalOfficeId = pick('internalOfficeId');
  if (internalOfficeId !== undefined) session.internalOfficeId = internalOfficeId as number;
  const internalOfficeName = pick('internalOfficeName');
  if (internalOfficeName !== undefined) session.internalOfficeName = internalOfficeName as string;
  return session;
}

/** End after start; the problem names endTime, or startTime when only that was sent. */
function timesInOrder(session: Session, changes: Changes, path: string, problems: Problem[]): boolean {
  if (session.endTime > session.startTime) return true;
  if (changes.endTime === undefined && changes.startTime !== undefined) {
    problems.push({
      field: fieldPath(path, 'startTime'),
      code: 'out_of_range',
      message: `must be before the session's endTime (${session.endTime})`,
    });
  } else {
    problems.push({
      field: fieldPath(path, 'endTime'),
      code: 'out_of_range',
      message: 'must be after startTime',
    });
  }
  return false;
}

/** A complete new session (a create's `agenda` item, an `add`): the session, or the valid days it asked for. */
export function checkNewSession(
  value: unknown,
  path: string,
  problems: Problem[],
  id: string,
): { session?: Session; rejectedDates?: string[] } {
  const checked = checkSessionFields(value, path, problems);
  if (!checked) return {};
  const { changes } = checked;
  let complete = true;
  for (const key of REQUIRED_KEYS) {
    if ((value as Record<string, unknown>)[key] === undefined) {
      problems.push({ field: fieldPath(path, key), code: 'required', message: 'is required' });
      complete = false;
    }
  }
  const session = buildSession(id, {}, changes);
  const ordered =
    changes.startTime === undefined ||
    changes.endTime === undefined ||
    timesInOrder(session, changes, path, problems);
  if (checked.valid && complete && ordered) return { session };
  return changes.dates ? { rejectedDates: changes.dates as string[] } : {};
}

export interface AgendaResult {
  agenda: Session[];
  /** For each session whose days this request set: the session's field (its days are at `.dates`). */
  datesSetAt: Map<string, string>;
  rejectedDates: RejectedDates[];
}

/** The session an operation (at `path`) names by its `sessionId`. */
function findSession(
  working: Map<string, Session>,
  sessionId: unknown,
  path: string,
  op: string,
  problems: Problem[],
): Session | undefined {
  if (sessionId === undefined || sessionId === null) {
    problems.push({
      field: fieldPath(path, 'sessionId'),
      code: 'required',
      message: `is required for ${op}`,
    });
    return undefined;
  }
  if (typeof sessionId !== 'string') {
    problems.push({
      field: fieldPath(path, 'sessionId'),
      code: 'invalid_type',
      message: `must be a string, not ${describeType(sessionId)}`,
    });
    return undefined;
  }
  // Stored session ids are the service's own lower-case UUIDs; a UUID names its session in any case.
  const session = working.get(isUuid(sessionId) ? sessionId.toLowerCase() : sessionId);
  if (!session) {
    problems.push({
      field: fieldPath(path, 'sessionId'),
      code: 'unknown_session',
      message: `no session with id "${sessionId.slice(0, 64)}" in this event's agenda`,
    });
  }
  return session;
}

/** Applies `operations` in order to a copy of `agenda`; problems are added, `agenda` is untouched. */
export function applyAgendaOperations(
  agenda: readonly Session[],
  operations: unknown,
  problems: Problem[],
  newId: () => string,
): AgendaResult {
  const working = new Map<string, Session>();
  for (const session of agenda) working.set(session.id, session);
  const datesSetAt = new Map<string, string>();
  const rejectedDates: RejectedDates[] = [];
  if (!checkArrayShape(operations, LIMITS.agendaOperations, problems, 'agendaOperations'))
    return { agenda: [...agenda], datesSetAt, rejectedDates };

  for (let index = 0; index < operations.length; index++) {
    const operation = operations[index];
    const path = fieldPath('agendaOperations', index);
    if (!isObject(operation)) {
      problems.push({
        field: path,
        code: 'invalid_type',
        message: `must be an object with op, sessionId and session, not ${describeType(operation)}`,
      });
      continue;
    }
    refuseUnknownKeys(operation, OPERATION_KEYS, path, problems);
    const sessionPath = fieldPath(path, 'session');
    switch (operation.op) {
      case 'add': {
        if (operation.sessionId !== undefined) {
          problems.push({
            field: fieldPath(path, 'sessionId'),
            code: 'not_allowed',
            message: 'is not used by add; the service assigns the id',
          });
        }
        if (operation.session === undefined || operation.session === null) {
          problems.push({ field: sessionPath, code: 'required', message: 'is required for add' });
          continue;
        }
        const added = checkNewSession(operation.session, sessionPath, problems, newId());
        if (added.rejectedDates) rejectedDates.push({ path: sessionPath, dates: added.rejectedDates });
        if (!added.session) continue;
        working.set(added.session.id, added.session);
        datesSetAt.set(added.session.id, sessionPath);
        continue;
      }
      case 'update': {
        const current = findSession(working, operation.sessionId, path, 'update', problems);
        if (operation.session === undefined || operation.session === null) {
          problems.push({
            field: sessionPath,
            code: 'required',
            message: 'is required for update: the fields to change',
          });
          continue;
        }
        const checked = checkSessionFields(operation.session, sessionPath, problems);
        if (!checked) continue;
        const { changes } = checked;
        const updated = current && buildSession(current.id, current, changes);
        // Times are judged only when every time sent was valid.
        const sent = operation.session as Record<string, unknown>;
        const timesValid =
          (sent.startTime === undefined || changes.startTime !== undefined) &&
          (sent.endTime === undefined || changes.endTime !== undefined);
        const ordered = !updated || !timesValid || timesInOrder(updated, changes, sessionPath, problems);
        if (!updated || !checked.valid || !ordered) {
          if (changes.dates) rejectedDates.push({ path: sessionPath, dates: changes.dates as string[] });
          continue;
        }
        working.set(updated.id, updated);
        if (changes.dates !== undefined) datesSetAt.set(updated.id, sessionPath);
        continue;
      }
      case 'remove': {
        if (operation.session !== undefined)
          problems.push({ field: sessionPath, code: 'not_allowed', message: 'is not used by remove' });
        const current = findSession(working, operation.sessionId, path, 'remove', problems);
        if (!current) continue;
        working.delete(current.id);
        datesSetAt.delete(current.id);
        continue;
      }
      case undefined:
      case null:
        problems.push({
          field: fieldPath(path, 'op'),
          code: 'required',
          message: 'is required: one of add, update, remove',
        });
        continue;
      default:
        problems.push({
          field: fieldPath(path, 'op'),
          code: 'invalid_value',
          message: 'must be one of add, update, remove',
        });
    }
  }
  const result = [...working.values()];
  if (result.length > LIMITS.agendaSessions) {
    problems.push({
      field: 'agendaOperations',
      code: 'too_many',
      message: `the agenda would have ${result.length} sessions; at most ${LIMITS.agendaSessions} are allowed`,
    });
  }
  return { agenda: result, datesSetAt, rejectedDates };
}

/** Whether a day lies in any of the ranges. */
const covers = (ranges: readonly DateRange[], day: string) =>
  ranges.some((range) => range.startDate <= day && day <= range.endDate);

export interface OrphanedSession {
  sessionId: string;
  title: string;
  droppedDates: string[];
  fullyOrphaned: boolean;
}

/**
 * Every day of every session must lie inside meetingRoomDates: days this request set are a 400 on the
 * field that set them, days left outside by a change of meetingRoomDates make orphans (409).
 */
export function judgeAgendaDates(
  agenda: readonly Session[],
  meetingRoomDates: readonly DateRange[],
  datesSetAt: ReadonlyMap<string, string>,
  rejectedDates: readonly RejectedDates[],
  problems: Problem[],
): OrphanedSession[] {
  const orphans: OrphanedSession[] = [];
  const outsideOf = (dates: readonly string[]) => dates.filter((day) => !covers(meetingRoomDates, day));
  for (const { path, dates } of rejectedDates) {
    const outside = outsideOf(dates);
    if (outside.length > 0) problems.push(outsideProblem(fieldPath(path, 'dates'), outside));
  }
  for (const session of agenda) {
    const outside = outsideOf(session.dates);
    if (outside.length === 0) continue;
    const setAt = datesSetAt.get(session.id);
    if (setAt) problems.push(outsideProblem(fieldPath(setAt, 'dates'), outside));
    else
      orphans.push({
        sessionId: session.id,
        title: session.title,
        droppedDates: outside,
        fullyOrphaned: outside.length === session.dates.length,
      });
  }
  return orphans;
}

const outsideProblem = (path: string, outside: readonly string[]): Problem => ({
  field: path,
  ...fault('outside_meeting_room_dates', `days ${outside.join(', ')} are not inside meetingRoomDates`),
});
