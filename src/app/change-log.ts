/**
 * Describes a change for the change log (D17): which top-level fields changed, and the RFC 6902
 * operations from the details before to the details after. In the diff the agenda is addressed by
 * session id (`/agenda/{sessionId}/title`), not by position, so removing one session is one
 * operation rather than a shift of every later one.
 */
import { createPatch } from 'rfc6902';
import type { Actor, NewChange, PatchOperation, StatusChangeData } from '../domain/changes.js';
import type { EventDetails } from '../domain/types.js';
import type { AppDeps } from './deps.js';

/** Every change moves updatedAt; it is in the diff but not a changed field. */
const BOOKKEEPING = new Set(['updatedAt']);

/** The details as the diff addresses them: the agenda keyed by session id. */
export function diffView(details: EventDetails): Record<string, unknown> {
  return { ...details, agenda: Object.fromEntries(details.agenda.map((session) => [session.id, session])) };
}

function changedFields(before: Record<string, unknown>, diff: readonly PatchOperation[]): string[] {
  const fields = new Set<string>();
  for (const operation of diff) {
    const field = operation.path.split('/')[1];
    if (field !== undefined && !BOOKKEEPING.has(field))
      fields.add(field.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return Object.keys(before).length === 0 ? [...fields] : [...fields].sort();
}

/** The record of a committed change from `before` (undefined for a create) to `after`. */
export function describeChange(
  deps: Pick<AppDeps, 'ids'>,
  actor: Actor,
  before: EventDetails | undefined,
  after: EventDetails,
  data?: StatusChangeData,
): NewChange {
  const from = before ? diffView(before) : {};
  const diff = createPatch(from, diffView(after)) as PatchOperation[];
  return {
    id: deps.ids.uuid(),
    type: before === undefined ? 'event.created' : data ? 'event.status_changed' : 'event.updated',
    actor,
    changedFields: changedFields(from, diff),
    diff,
    ...(data ? { data } : {}),
  };
}
