/** The change log (D17): one record per committed change of an event. Plain data. */
import type { EventStatus } from './types.js';

export const CHANGE_TYPES = ['event.created', 'event.updated', 'event.status_changed'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** Who made a change: an API key (and its user), a person in the dashboard, or an operator's command. */
export type Actor =
  | { type: 'api_key'; keyId: string; userId: string }
  | { type: 'person'; userId: string }
  | { type: 'operator' };

/** An RFC 6902 operation. */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** What a status move adds to its record: where from, where to, and the comment or reason given. */
export interface StatusChangeData {
  from: EventStatus;
  to: EventStatus;
  comment?: string;
  reason?: string;
}

/** A change as the use case describes it; the store numbers it (sequence, revision) when it commits. */
export interface NewChange {
  id: string;
  type: ChangeType;
  actor: Actor;
  /** The top-level fields whose value changed (updatedAt, which every change moves, is left out). */
  changedFields: string[];
  diff: PatchOperation[];
  data?: StatusChangeData;
}

export interface ChangeRecord extends NewChange {
  sequence: number;
  eventId: string;
  revision: number;
  occurredAt: string;
}
