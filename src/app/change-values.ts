/**
 * What each change of an event's history set, field by field: the values before and after, for the
 * dashboard's History (as Indico's event log shows them). The change log keeps each change's RFC 6902
 * diff (D17); replaying the diffs in order from the details before the oldest change shown gives every
 * change's values without storing them twice.
 */
import { applyPatch, type Operation } from 'rfc6902';
import type { ChangeRecord } from '../domain/changes.js';
import type { EventDetails } from '../domain/types.js';
import { diffView } from './change-log.js';
import type { AppDeps } from './deps.js';

/** The changed fields' values, as the diff addresses them (the agenda keyed by session id). */
export interface ChangeValues {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const copy = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

/**
 * Replays `changes` (oldest first) from `base`, the details as the diff addresses them right before
 * the first one ({} before a create), and returns each change's values by change id. A diff that no
 * longer applies (a record older than a change to how diffs are made) ends the replay: the changes
 * from there on have no values, and the page names their fields only.
 */
export function replayChanges(
  base: Record<string, unknown>,
  changes: readonly ChangeRecord[],
): Map<string, ChangeValues> {
  const values = new Map<string, ChangeValues>();
  const state = copy(base);
  for (const change of changes) {
    const before: Record<string, unknown> = {};
    for (const field of change.changedFields) before[field] = copy(state[field]);
    const failed = applyPatch(state, change.diff as Operation[]).some((error) => error !== null);
    if (failed) break;
    const after: Record<string, unknown> = {};
    for (const field of change.changedFields) after[field] = copy(state[field]);
    values.set(change.id, { before, after });
  }
  return values;
}

/**
 * The values of every change in `history` (newest first, as the event page lists it). Only when the
 * history shown does not start at the event's creation is one more record read: the snapshot of the
 * change just before the oldest one shown.
 */
export async function changeValues(
  deps: AppDeps,
  organizationId: string,
  eventId: string,
  history: readonly ChangeRecord[],
): Promise<Map<string, ChangeValues>> {
  const oldestFirst = [...history].reverse();
  const oldest = oldestFirst[0];
  if (!oldest) return new Map();
  if (oldest.type === 'event.created') return replayChanges({}, oldestFirst);
  const prior = await deps.store.events.revision(organizationId, eventId, oldest.revision - 1);
  if (!prior) return new Map();
  return replayChanges(diffView(JSON.parse(prior.snapshot) as EventDetails), oldestFirst);
}
