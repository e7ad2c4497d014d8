/**
 * Describes a change for the change log (D17): which top-level fields changed, and the RFC 6902
 * operations from the details before to the details after. In the diff the agenda is addressed by
 * session id (`/agenda/{sessionId}/title`), not by position, so removing one session is one
 * operation rather than a shift of every later one.
 *
 * The operations are exactly those `createPatch(diffView(before), diffView(after))` gives (a test
 * checks), built with less work: an update keeps every untouched field's value (a shallow copy), so
 * fields are compared by reference first and only those that differ are walked; objects are walked
 * here, arrays diffed by rfc6902; a create is one `add` per field.
 */
import { createPatch, type Operation } from 'rfc6902';
import {
  type Actor,
  createdDiff,
  escapeToken,
  keyedAgenda,
  type NewChange,
  type PatchOperation,
  type StatusChangeData,
} from '../domain/changes.js';
import { deepEqual } from '../domain/deep-equal.js';
import type { AgendaItem, EventDetails } from '../domain/types.js';
import type { AppDeps } from './deps.js';

/** Every change moves updatedAt; it is in the diff but not a changed field. */
const BOOKKEEPING = new Set(['updatedAt']);

/** The details as the diff addresses them: the agenda keyed by session id. */
export function diffView(details: EventDetails): Record<string, unknown> {
  return { ...details, agenda: keyedAgenda(details.agenda) };
}

/**
 * rfc6902 asks this before diffing any two values inside an array: equal values answer "no
 * operations" without building any. It only ever answers [] where rfc6902 would, so the operations
 * are the same.
 */
const equalMeansNothing = (input: unknown, output: unknown): Operation[] | undefined =>
  deepEqual(input, output) ? [] : undefined;

/** Whether rfc6902 counts a key as present: an own property whose value is not undefined. */
const present = (object: Record<string, unknown>, key: string) =>
  Object.hasOwn(object, key) && object[key] !== undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * rfc6902's diffAny at `path`, with objects walked here: the same operations in the same order,
 * without a JSON Pointer copied for every key passed on the way. Arrays go to rfc6902 (its
 * shortest edit script), unless equal.
 */
function diffValue(path: string, before: unknown, after: unknown, operations: PatchOperation[]): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    if (deepEqual(before, after)) return;
    for (const operation of createPatch(before, after, equalMeansNothing) as PatchOperation[]) {
      operations.push({ ...operation, path: path + operation.path });
    }
  } else if (isObject(before) && isObject(after)) {
    diffObject(path, before, after, operations);
  } else {
    operations.push({ op: 'replace', path, value: after });
  }
}

/** rfc6902's diffObjects: removed keys, added keys, then the keys both have, in `before`'s order. */
function diffObject(
  path: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  operations: PatchOperation[],
): void {
  for (const key in before) {
    if (present(before, key) && !present(after, key))
      operations.push({ op: 'remove', path: `${path}/${escapeToken(key)}` });
  }
  for (const key in after) {
    if (present(after, key) && !present(before, key))
      operations.push({ op: 'add', path: `${path}/${escapeToken(key)}`, value: after[key] });
  }
  for (const key in before) {
    // The path is made only for a value that changed.
    if (before[key] !== after[key] && present(before, key) && present(after, key))
      diffValue(`${path}/${escapeToken(key)}`, before[key], after[key], operations);
  }
}

/**
 * diffObject over the two agendas keyed by session id, without building the keyed objects: a keyed
 * view lists its sessions in the agenda's order (a UUID is never an index-like key), and the service
 * gives every session an id of its own.
 */
function diffAgenda(before: AgendaItem[], after: AgendaItem[], operations: PatchOperation[]): void {
  const beforeById = new Map(before.map((session) => [session.id, session]));
  const afterById = new Map(after.map((session) => [session.id, session]));
  for (const session of before) {
    if (!afterById.has(session.id))
      operations.push({ op: 'remove', path: `/agenda/${escapeToken(session.id)}` });
  }
  for (const session of after) {
    if (!beforeById.has(session.id))
      operations.push({ op: 'add', path: `/agenda/${escapeToken(session.id)}`, value: session });
  }
  for (const session of before) {
    const changed = afterById.get(session.id);
    if (changed !== undefined && changed !== session)
      diffValue(`/agenda/${escapeToken(session.id)}`, session, changed, operations);
  }
}

/**
 * createPatch(diffView(before), diffView(after)) and the fields it touches. Untouched fields keep
 * their value through an update (a shallow copy), so most are passed over by reference.
 */
function updateDiff(before: EventDetails, after: EventDetails) {
  // The details as they are; the agenda is keyed below, and only when it changed.
  const from = before as unknown as Record<string, unknown>;
  const to = after as unknown as Record<string, unknown>;
  const operations: PatchOperation[] = [];
  const fields = new Set<string>();
  const touched = (key: string, since: number) => {
    if (operations.length > since && !BOOKKEEPING.has(key)) fields.add(key);
  };
  for (const key in from) {
    if (present(from, key) && !present(to, key)) {
      operations.push({ op: 'remove', path: `/${escapeToken(key)}` });
      touched(key, operations.length - 1);
    }
  }
  for (const key in to) {
    if (present(to, key) && !present(from, key)) {
      const value = key === 'agenda' ? keyedAgenda(after.agenda) : to[key];
      operations.push({ op: 'add', path: `/${escapeToken(key)}`, value });
      touched(key, operations.length - 1);
    }
  }
  for (const key in from) {
    if (from[key] === to[key] || !present(from, key) || !present(to, key)) continue;
    const since = operations.length;
    if (key === 'agenda') {
      if (before.agenda !== after.agenda) diffAgenda(before.agenda, after.agenda, operations);
    } else {
      diffValue(`/${escapeToken(key)}`, from[key], to[key], operations);
    }
    touched(key, since);
  }
  return { operations, changedFields: [...fields].sort() };
}

/**
 * createPatch({}, diffView(after)): one `add` per field, in the details' order. The stores keep a
 * create's diff as its snapshot (change-diffs.ts), so the operations are made only when read.
 */
function createDiff(after: EventDetails) {
  const fields = after as unknown as Record<string, unknown>;
  const changedFields: string[] = [];
  for (const key in fields) {
    if (present(fields, key) && !BOOKKEEPING.has(key)) changedFields.push(key);
  }
  let operations: PatchOperation[] | undefined;
  return {
    get operations() {
      operations ??= createdDiff(after);
      return operations;
    },
    changedFields,
  };
}

/** The record of a committed change from `before` (undefined for a create) to `after`. */
export function describeChange(
  deps: Pick<AppDeps, 'ids'>,
  actor: Actor,
  before: EventDetails | undefined,
  after: EventDetails,
  data?: StatusChangeData,
): NewChange {
  const described = before ? updateDiff(before, after) : createDiff(after);
  return {
    id: deps.ids.uuid(),
    type: before === undefined ? 'event.created' : data ? 'event.status_changed' : 'event.updated',
    actor,
    changedFields: described.changedFields,
    // A getter for a create: its operations are made when something reads them, not before.
    get diff() {
      return described.operations;
    },
    ...(data ? { data } : {}),
  };
}
