/**
 * The change record's description (D17): the top-level fields whose value changed, and the RFC 6902
 * operations from the details before to the details after, agenda sessions addressed by id
 * (`/agenda/{sessionId}/capacity`). Only the fields the update replaced are walked; objects are
 * walked here and arrays diffed by rfc6902 (its shortest edit script), as the service's diff is.
 */
import { createPatch, type Operation } from 'rfc6902';
import { jsonEqual } from './checks.js';
import type { Details, Session } from './event-model.js';

/** Every change moves updatedAt: it is in the diff, not among the changed fields. */
const BOOKKEEPING = 'updatedAt';

/** A JSON Pointer reference token (RFC 6901 §3). */
const escapeToken = (token: string) =>
  token.includes('~') || token.includes('/') ? token.replaceAll('~', '~0').replaceAll('/', '~1') : token;

const present = (object: Record<string, unknown>, key: string) =>
  Object.hasOwn(object, key) && object[key] !== undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Asked by rfc6902 before it diffs two array items: equal items need no operations. */
const equalMeansNothing = (input: unknown, output: unknown): Operation[] | undefined =>
  jsonEqual(input, output) ? [] : undefined;

function diffValue(path: string, before: unknown, after: unknown, operations: Operation[]): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    if (jsonEqual(before, after)) return;
    for (const operation of createPatch(before, after, equalMeansNothing))
      operations.push({ ...operation, path: path + operation.path });
  } else if (isObject(before) && isObject(after)) {
    diffObject(path, before, after, operations);
  } else {
    operations.push({ op: 'replace', path, value: after });
  }
}

/** Removed keys, added keys, then changed keys in `before`'s order. */
function diffObject(
  path: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  operations: Operation[],
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
    if (before[key] !== after[key] && present(before, key) && present(after, key))
      diffValue(`${path}/${escapeToken(key)}`, before[key], after[key], operations);
  }
}

/** The agenda as an object keyed by session id, diffed without building that object. */
function diffAgenda(before: readonly Session[], after: readonly Session[], operations: Operation[]): void {
  const beforeById = new Map<string, Session>();
  for (const session of before) beforeById.set(session.id, session);
  const afterById = new Map<string, Session>();
  for (const session of after) afterById.set(session.id, session);
  for (const session of before) {
    if (!afterById.has(session.id))
      operations.push({ op: 'remove', path: `/agenda/${escapeToken(session.id)}` });
  }
  for (const session of after) {
    if (!beforeById.has(session.id))
      operations.push({ op: 'add', path: `/agenda/${escapeToken(session.id)}`, value: session });
  }
  for (const session of before) {
    const updated = afterById.get(session.id);
    if (updated !== undefined && updated !== session)
      diffValue(`/agenda/${escapeToken(session.id)}`, session, updated, operations);
  }
}

/** An update's record: the operations, and the top-level fields they touch (sorted). */
export function describeUpdate(before: Details, after: Details) {
  const from = before as unknown as Record<string, unknown>;
  const to = after as unknown as Record<string, unknown>;
  const operations: Operation[] = [];
  const changedFields: string[] = [];
  for (const key in from) {
    if (from[key] === to[key]) continue;
    const since = operations.length;
    if (key === 'agenda') diffAgenda(before.agenda, after.agenda, operations);
    else diffValue(`/${escapeToken(key)}`, from[key], to[key], operations);
    if (operations.length > since && key !== BOOKKEEPING) changedFields.push(key);
  }
  return { operations, changedFields: changedFields.sort() };
}

/** A create's changed fields: every field of the new event but updatedAt, in the details' order. */
export function createdFields(details: Details): string[] {
  const fields: string[] = [];
  for (const key in details) {
    if (key !== BOOKKEEPING && details[key as keyof Details] !== undefined) fields.push(key);
  }
  return fields;
}
