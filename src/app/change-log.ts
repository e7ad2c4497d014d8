/**
 * Describes a change for the change log (D17): which top-level fields changed, and the RFC 6902
 * operations from the details before to the details after. In the diff the agenda is addressed by
 * session id (`/agenda/{sessionId}/title`), not by position, so removing one session is one
 * operation rather than a shift of every later one.
 *
 * The operations are exactly those `createPatch(diffView(before), diffView(after))` gives, built
 * with less work: an update keeps every untouched field's value (a shallow copy), so fields are
 * compared first and only those that differ are diffed; a create is one `add` per field.
 */
import { createPatch, type Operation } from 'rfc6902';
import type { Actor, NewChange, PatchOperation, StatusChangeData } from '../domain/changes.js';
import { deepEqual } from '../domain/deep-equal.js';
import type { EventDetails } from '../domain/types.js';
import type { AppDeps } from './deps.js';

/** Every change moves updatedAt; it is in the diff but not a changed field. */
const BOOKKEEPING = new Set(['updatedAt']);

/** The details as the diff addresses them: the agenda keyed by session id. */
export function diffView(details: EventDetails): Record<string, unknown> {
  return { ...details, agenda: keyedAgenda(details.agenda) };
}

const keyedAgenda = (agenda: EventDetails['agenda']) =>
  Object.fromEntries(agenda.map((session) => [session.id, session]));

/** A JSON Pointer reference token (RFC 6901 §3). */
const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * rfc6902 asks this before diffing any two values: equal values (the common case for the sessions,
 * lines and ranges a PATCH left alone) answer "no operations" without building any. It only ever
 * answers [] where rfc6902 would, so the operations are the same.
 */
const equalMeansNothing = (input: unknown, output: unknown): Operation[] | undefined =>
  deepEqual(input, output) ? [] : undefined;

/** Whether rfc6902 counts a key as present: an own property whose value is not undefined. */
const present = (object: Record<string, unknown>, key: string) =>
  Object.hasOwn(object, key) && object[key] !== undefined;

/** The operations of one field present before and after, at `/{field}`. */
function fieldDiff(field: string, before: unknown, after: unknown): PatchOperation[] {
  if (before === after || deepEqual(before, after)) return [];
  const prefix = `/${escapeToken(field)}`;
  return (createPatch(before, after, equalMeansNothing) as PatchOperation[]).map((operation) => ({
    ...operation,
    path: prefix + operation.path,
  }));
}

/** createPatch(diffView(before), diffView(after)): removed fields, added fields, then changed ones. */
function updateDiff(before: EventDetails, after: EventDetails): PatchOperation[] {
  const from = before as unknown as Record<string, unknown>;
  const to = after as unknown as Record<string, unknown>;
  const operations: PatchOperation[] = [];
  for (const key in from) {
    if (present(from, key) && !present(to, key))
      operations.push({ op: 'remove', path: `/${escapeToken(key)}` });
  }
  for (const key in to) {
    if (present(to, key) && !present(from, key)) {
      const value = key === 'agenda' ? keyedAgenda(after.agenda) : to[key];
      operations.push({ op: 'add', path: `/${escapeToken(key)}`, value } as PatchOperation);
    }
  }
  for (const key in from) {
    if (!present(from, key) || !present(to, key)) continue;
    if (key === 'agenda') {
      if (before.agenda !== after.agenda)
        operations.push(...fieldDiff(key, keyedAgenda(before.agenda), keyedAgenda(after.agenda)));
    } else {
      operations.push(...fieldDiff(key, from[key], to[key]));
    }
  }
  return operations;
}

/** createPatch({}, diffView(after)): one `add` per field, in the details' order. */
function createDiff(after: EventDetails): PatchOperation[] {
  const view = diffView(after);
  const operations: PatchOperation[] = [];
  for (const key in view) {
    if (present(view, key))
      operations.push({ op: 'add', path: `/${escapeToken(key)}`, value: view[key] } as PatchOperation);
  }
  return operations;
}

function changedFields(sorted: boolean, diff: readonly PatchOperation[]): string[] {
  const fields = new Set<string>();
  for (const operation of diff) {
    const field = operation.path.split('/')[1];
    if (field !== undefined && !BOOKKEEPING.has(field))
      fields.add(field.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return sorted ? [...fields].sort() : [...fields];
}

/** The record of a committed change from `before` (undefined for a create) to `after`. */
export function describeChange(
  deps: Pick<AppDeps, 'ids'>,
  actor: Actor,
  before: EventDetails | undefined,
  after: EventDetails,
  data?: StatusChangeData,
): NewChange {
  const diff = before ? updateDiff(before, after) : createDiff(after);
  return {
    id: deps.ids.uuid(),
    type: before === undefined ? 'event.created' : data ? 'event.status_changed' : 'event.updated',
    actor,
    changedFields: changedFields(before !== undefined && Object.keys(before).length > 0, diff),
    diff,
    ...(data ? { data } : {}),
  };
}
