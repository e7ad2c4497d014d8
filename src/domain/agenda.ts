/** Agenda sessions and the operations that edit them (D7). */
import { dayNumber } from './dates.js';
import { type Checked, fieldPath, INVALID, type Problems } from './problems.js';
import { type AgendaItem, LIMITS } from './types.js';
import {
  canonicalUuid,
  checkArray,
  checkBoolean,
  checkDate,
  checkNonNegativeInteger,
  checkText,
  checkTextList,
  checkTime,
  describeType,
  isCount,
  isPlainObject,
  isPlainText,
  isPlainTextList,
  isTime,
  rejectUnknownKeys,
} from './values.js';

type SessionFields = Omit<AgendaItem, 'id'>;
/** Changes to a session: a value sets the field, `null` resets it to its default (or removes an optional one). */
type SessionChanges = { [K in keyof SessionFields]?: SessionFields[K] | null };

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
const SESSION_KEY_SET: ReadonlySet<string> = new Set(SESSION_KEYS);
const REQUIRED_KEYS = ['title', 'dates', 'startTime', 'endTime'] as const;
const OPTIONAL_KEYS = ['useInternalSpace', 'internalOfficeId', 'internalOfficeName'] as const;
const TIME_KEYS = ['startTime', 'endTime'] as const;

/** The fields of a session body that passed their checks, and whether every field did. */
interface SessionFieldsCheck {
  changes: SessionChanges;
  valid: boolean;
}

/**
 * Checks the fields present in `value`, without judging completeness. The fields that pass are kept
 * even when others fail, so that the checks between fields (times in order, days inside
 * meetingRoomDates) still run and one 400 lists every problem.
 */
function checkSessionFields(value: unknown, path: string, problems: Problems): Checked<SessionFieldsCheck> {
  if (!isPlainObject(value)) {
    problems.add(path, 'invalid_type', `must be an object, not ${describeType(value)}`);
    return INVALID;
  }
  let valid = true;
  if (Object.hasOwn(value, 'id')) {
    problems.add(fieldPath(path, 'id'), 'read_only', 'session ids are assigned by the service');
    valid = false;
  }
  if (!rejectUnknownKeys(value, SESSION_KEY_SET, path, problems, 'id')) valid = false;
  const changes: SessionChanges = {};
  for (const key of SESSION_KEYS) {
    const field = value[key];
    if (field === undefined) continue;
    if (field === null) {
      if ((REQUIRED_KEYS as readonly string[]).includes(key)) {
        problems.add(fieldPath(path, key), 'required', 'cannot be cleared');
        valid = false;
      } else {
        changes[key] = null;
      }
      continue;
    }
    const checked =
      soundSessionField(key, field) ?? checkSessionField(key, field, fieldPath(path, key), problems);
    if (checked === INVALID) valid = false;
    else (changes as Record<string, unknown>)[key] = checked;
  }
  return { changes, valid };
}

/**
 * A session field's value as checkSessionField would keep it, when it is sound as it usually is;
 * undefined sends it to checkSessionField, which names the field in its problem. The usual session
 * is checked without making a field path for each of its fields.
 */
function soundSessionField(key: (typeof SESSION_KEYS)[number], value: unknown): unknown {
  switch (key) {
    case 'title':
      return isPlainText(value, LIMITS.freeText, true) ? value : undefined;
    case 'dates':
      return soundDates(value);
    case 'startTime':
    case 'endTime':
      return isTime(value) ? value : undefined;
    case 'capacity':
    case 'internalOfficeId':
      return isCount(value) ? value : undefined;
    case 'avRequirements':
    case 'fbRequirements':
      return isPlainTextList(value, LIMITS.sessionRequirements) ? value.slice() : undefined;
    case 'useInternalSpace':
      return typeof value === 'boolean' ? value : undefined;
    default:
      return isPlainText(value) ? value : undefined;
  }
}

/** A session's days sorted, when they are one or more real dates, none twice. */
function soundDates(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > LIMITS.sessionDates) return undefined;
  for (const day of value) if (typeof day !== 'string' || dayNumber(day) === undefined) return undefined;
  return sortedOnce((value as string[]).slice());
}

/** `dates` sorted in place, or undefined when a day is listed twice (sorted, it stands next to itself). */
function sortedOnce(dates: string[]): string[] | undefined {
  dates.sort();
  for (let index = 1; index < dates.length; index++) if (dates[index] === dates[index - 1]) return undefined;
  return dates;
}

function checkSessionField(
  key: (typeof SESSION_KEYS)[number],
  value: unknown,
  path: string,
  problems: Problems,
): Checked<unknown> {
  switch (key) {
    case 'title':
      return checkText(value, path, problems, { nonEmpty: true });
    case 'dates': {
      const dates = checkArray(value, path, problems, LIMITS.sessionDates, (item, itemPath) =>
        checkDate(item, itemPath, problems),
      );
      if (dates === INVALID) return INVALID;
      if (dates.length === 0) {
        problems.add(path, 'empty', 'must list at least one day');
        return INVALID;
      }
      // checkArray's answer is a new array: it may be sorted in place.
      const sorted = sortedOnce(dates);
      if (!sorted) {
        problems.add(path, 'duplicate', 'must not list a day twice');
        return INVALID;
      }
      return sorted;
    }
    case 'startTime':
    case 'endTime':
      return checkTime(value, path, problems);
    case 'capacity':
    case 'internalOfficeId':
      return checkNonNegativeInteger(value, path, problems);
    case 'avRequirements':
    case 'fbRequirements':
      return checkTextList(value, path, problems, LIMITS.sessionRequirements);
    case 'useInternalSpace':
      return checkBoolean(value, path, problems);
    default:
      return checkText(value, path, problems);
  }
}

/** Builds a session in canonical field order; `null` changes reset to defaults. */
function buildSession(id: string, base: Partial<SessionFields>, changes: SessionChanges): AgendaItem {
  const pick = <K extends keyof SessionFields>(key: K): SessionFields[K] | undefined => {
    if (Object.hasOwn(changes, key)) {
      const change = changes[key];
      return (change === null ? undefined : change) as SessionFields[K] | undefined;
    }
    return base[key];
  };
  const session: AgendaItem = {
    id,
    title: pick('title') ?? '',
    dates: pick('dates') ?? [],
    startTime: pick('startTime') ?? '',
    endTime: pick('endTime') ?? '',
    // Defaults are written out here so that every session gets arrays of its own.
    roomType: pick('roomType') ?? '',
    capacity: pick('capacity') ?? 0,
    avRequirements: pick('avRequirements') ?? [],
    fbRequirements: pick('fbRequirements') ?? [],
    avOtherText: pick('avOtherText') ?? '',
    fbOtherText: pick('fbOtherText') ?? '',
    notes: pick('notes') ?? '',
  };
  for (const key of OPTIONAL_KEYS) {
    const value = pick(key);
    if (value !== undefined) (session as unknown as Record<string, unknown>)[key] = value;
  }
  return session;
}

/** End after start. The problem names the field the client sent: endTime, or startTime when only it changed. */
function checkTimesInOrder(
  session: AgendaItem,
  changes: SessionChanges,
  path: string,
  problems: Problems,
): boolean {
  if (session.endTime > session.startTime) return true;
  if (changes.endTime === undefined && changes.startTime !== undefined) {
    problems.add(
      fieldPath(path, 'startTime'),
      'out_of_range',
      `must be before the session's endTime (${session.endTime})`,
    );
  } else {
    problems.add(fieldPath(path, 'endTime'), 'out_of_range', 'must be after startTime');
  }
  return false;
}

/** A session body after its checks: the session when it passed, else the valid days it asked for. */
export interface NewSessionCheck {
  session?: AgendaItem;
  /** On a rejected session: its days, when they were valid, still to be judged against meetingRoomDates. */
  rejectedDates?: string[];
}

/** A complete new session (for `add` and for `agenda` on create). */
export function checkNewSession(
  value: unknown,
  path: string,
  problems: Problems,
  id: string,
): NewSessionCheck {
  const checked = checkSessionFields(value, path, problems);
  if (checked === INVALID) return {};
  const { changes } = checked;
  const complete = reportMissing(value as Record<string, unknown>, path, problems);
  const session = buildSession(id, {}, changes);
  const timesInOrder =
    changes.startTime === undefined ||
    changes.endTime === undefined ||
    checkTimesInOrder(session, changes, path, problems);
  if (checked.valid && complete && timesInOrder) return { session };
  return changes.dates ? { rejectedDates: changes.dates } : {};
}

function reportMissing(value: Record<string, unknown>, path: string, problems: Problems): boolean {
  let complete = true;
  for (const key of REQUIRED_KEYS) {
    if (value[key] === undefined) {
      problems.add(fieldPath(path, key), 'required', 'is required');
      complete = false;
    }
  }
  return complete;
}

/** Days a rejected operation asked for, judged against meetingRoomDates like those of accepted ones. */
export interface RejectedDates {
  path: string;
  dates: string[];
}

export interface AgendaResult {
  agenda: AgendaItem[];
  /** For each session whose days this request set: the path of the field that set them last. */
  datesSetAt: Map<string, string>;
  /** Valid days of operations rejected for other reasons. */
  rejectedDates: RejectedDates[];
}

const OPERATION_KEYS = ['op', 'sessionId', 'session'] as const;

/** Applies operations in order to a working copy. Problems are recorded; the input agenda is untouched. */
export function applyAgendaOperations(
  agenda: readonly AgendaItem[],
  operations: unknown,
  problems: Problems,
  newId: () => string,
): AgendaResult {
  // Keyed by the canonical (lower-case) id: session ids are UUIDs, and an id in any case names its session.
  const working = new Map(agenda.map((session) => [canonicalUuid(session.id), session]));
  const datesSetAt = new Map<string, string>();
  const rejectedDates: RejectedDates[] = [];
  const ops = checkArray(operations, 'agendaOperations', problems, LIMITS.agendaOperations, (item) => item);
  if (ops === INVALID) return { agenda: [...agenda], datesSetAt, rejectedDates };

  ops.forEach((operation, index) => {
    const path = fieldPath('agendaOperations', index);
    if (!isPlainObject(operation)) {
      problems.add(
        path,
        'invalid_type',
        `must be an object with op, sessionId and session, not ${describeType(operation)}`,
      );
      return;
    }
    rejectUnknownKeys(operation, OPERATION_KEYS, path, problems);
    const sessionPath = fieldPath(path, 'session');
    const sessionIdPath = fieldPath(path, 'sessionId');
    switch (operation.op) {
      case 'add': {
        if (operation.sessionId !== undefined) {
          problems.add(sessionIdPath, 'not_allowed', 'is not used by add; the service assigns the id');
        }
        if (operation.session === undefined || operation.session === null) {
          problems.add(sessionPath, 'required', 'is required for add');
          return;
        }
        const datesPath = fieldPath(sessionPath, 'dates');
        const { session, rejectedDates: dates } = checkNewSession(
          operation.session,
          sessionPath,
          problems,
          newId(),
        );
        if (dates) rejectedDates.push({ path: datesPath, dates });
        if (!session) return;
        working.set(canonicalUuid(session.id), session);
        datesSetAt.set(session.id, datesPath);
        return;
      }
      case 'update': {
        const current = findSession(working, operation.sessionId, sessionIdPath, 'update', problems);
        if (operation.session === undefined || operation.session === null) {
          problems.add(sessionPath, 'required', 'is required for update: the fields to change');
          return;
        }
        const checked = checkSessionFields(operation.session, sessionPath, problems);
        if (checked === INVALID) return;
        const { changes } = checked;
        const datesPath = fieldPath(sessionPath, 'dates');
        const updated = current && buildSession(current.id, current, changes);
        // Times are judged when every time sent was valid: a rejected one says nothing about the order.
        const sent = operation.session as Record<string, unknown>;
        const timesValid = TIME_KEYS.every((key) => sent[key] === undefined || changes[key] !== undefined);
        const timesInOrder =
          !updated || !timesValid || checkTimesInOrder(updated, changes, sessionPath, problems);
        if (!updated || !checked.valid || !timesInOrder) {
          if (changes.dates) rejectedDates.push({ path: datesPath, dates: changes.dates });
          return;
        }
        working.set(canonicalUuid(updated.id), updated);
        if (changes.dates !== undefined) datesSetAt.set(updated.id, datesPath);
        return;
      }
      case 'remove': {
        if (operation.session !== undefined) {
          problems.add(sessionPath, 'not_allowed', 'is not used by remove');
        }
        const current = findSession(working, operation.sessionId, sessionIdPath, 'remove', problems);
        if (!current) return;
        working.delete(canonicalUuid(current.id));
        datesSetAt.delete(current.id);
        return;
      }
      case undefined:
      case null:
        problems.add(fieldPath(path, 'op'), 'required', 'is required: one of add, update, remove');
        return;
      default:
        problems.add(fieldPath(path, 'op'), 'invalid_value', 'must be one of add, update, remove');
    }
  });

  const result = [...working.values()];
  if (result.length > LIMITS.agendaSessions) {
    problems.add(
      'agendaOperations',
      'too_many',
      `the agenda would have ${result.length} sessions; at most ${LIMITS.agendaSessions} are allowed`,
    );
  }
  return { agenda: result, datesSetAt, rejectedDates };
}

function findSession(
  working: Map<string, AgendaItem>,
  sessionId: unknown,
  path: string,
  op: string,
  problems: Problems,
): AgendaItem | undefined {
  if (sessionId === undefined || sessionId === null) {
    problems.add(path, 'required', `is required for ${op}`);
    return undefined;
  }
  if (typeof sessionId !== 'string') {
    problems.add(path, 'invalid_type', `must be a string, not ${describeType(sessionId)}`);
    return undefined;
  }
  const session = working.get(canonicalUuid(sessionId));
  if (!session) {
    problems.add(
      path,
      'unknown_session',
      `no session with id "${sessionId.slice(0, 64)}" in this event's agenda`,
    );
  }
  return session;
}

/** The days of a session outside the meeting-room dates (`covered` comes from rangesCover). */
export function uncoveredDates(session: AgendaItem, covered: (date: string) => boolean): string[] {
  return session.dates.filter((date) => !covered(date));
}
