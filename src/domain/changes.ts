/** The change log (D17): one record per committed change of an event. Plain data. */
import type { EventDetails, EventStatus } from './types.js';
import { REQUEST_CHANGE_TYPES, type RequestChangeData, type RequestChangeType } from './venue-request.js';

/** Changes of the event itself. */
export const EVENT_CHANGE_TYPES = [
  'event.created',
  'event.updated',
  'event.status_changed',
  // D26: a version of the request sent to the venues.
  'request.revised',
  // D27: a venue's question, and a planner's answer to it.
  'question.asked',
  'question.answered',
] as const;
export type EventChangeType = (typeof EVENT_CHANGE_TYPES)[number];

/** Every type of change record: the event's own, then the steps of its venue requests (D21). */
export const CHANGE_TYPES = [...EVENT_CHANGE_TYPES, ...REQUEST_CHANGE_TYPES] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export function isRequestChangeType(type: ChangeType): type is RequestChangeType {
  return (REQUEST_CHANGE_TYPES as readonly string[]).includes(type);
}

/**
 * Who made a change: an API key (and its user), a person in the dashboard, an operator's command, a
 * venue answering a request for proposals on its page (D21), or eventplan itself on a schedule (a
 * reminder, D28).
 */
export type Actor =
  | { type: 'api_key'; keyId: string; userId: string }
  | { type: 'person'; userId: string }
  | { type: 'operator' }
  | { type: 'venue'; venueId: string }
  | { type: 'system' };

/** The user an actor names, if any: a venue and an operator are no user. */
export function actorUserId(actor: Actor): string | undefined {
  return actor.type === 'api_key' || actor.type === 'person' ? actor.userId : undefined;
}

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

/** What a `request.revised` record carries (D26): the version sent and the API paths it changed. */
export interface RequestRevisedData {
  version: number;
  changedFields: string[];
}

/** What a `question.asked` or `question.answered` record carries (D27): which question, whose, and who sees the answer. */
export interface QuestionChangeData {
  questionId: string;
  requestId: string;
  venueId: string;
  /** `question.answered`: who sees the answer. */
  sharedWith?: 'all' | 'asker';
}

/** What a change record carries beyond its fields: a status move's, a venue request step's, a version's, a question's. */
export type ChangeData = StatusChangeData | RequestChangeData | RequestRevisedData | QuestionChangeData;

/** A change as the use case describes it; the store numbers it (sequence, revision) when it commits. */
export interface NewChange {
  id: string;
  type: ChangeType;
  actor: Actor;
  /** The top-level fields whose value changed (updatedAt, which every change moves, is left out). */
  changedFields: string[];
  diff: PatchOperation[];
  data?: ChangeData;
}

/** The data of a status move, when the record is one. */
export function statusChangeData(change: Pick<NewChange, 'type' | 'data'>): StatusChangeData | undefined {
  return change.type === 'event.status_changed' ? (change.data as StatusChangeData | undefined) : undefined;
}

/** The data of a version sent to venues (D26), when the record is one. */
export function revisedChangeData(change: Pick<NewChange, 'type' | 'data'>): RequestRevisedData | undefined {
  return change.type === 'request.revised' ? (change.data as RequestRevisedData | undefined) : undefined;
}

/** The data of a question asked or answered (D27), when the record is one. */
export function questionChangeData(change: Pick<NewChange, 'type' | 'data'>): QuestionChangeData | undefined {
  return change.type === 'question.asked' || change.type === 'question.answered'
    ? (change.data as QuestionChangeData | undefined)
    : undefined;
}

/** The data of a venue request step, when the record is one. */
export function requestChangeData(change: Pick<NewChange, 'type' | 'data'>): RequestChangeData | undefined {
  return isRequestChangeType(change.type) ? (change.data as RequestChangeData | undefined) : undefined;
}

export interface ChangeRecord extends NewChange {
  sequence: number;
  eventId: string;
  revision: number;
  occurredAt: string;
}

/** The details as a diff addresses the agenda: keyed by session id, in agenda order. */
export function keyedAgenda(agenda: EventDetails['agenda']): Record<string, unknown> {
  // Session ids are UUIDs the service made, never a key such as __proto__: plain assignment is safe.
  const keyed: Record<string, unknown> = {};
  for (const session of agenda) keyed[session.id] = session;
  return keyed;
}

/** A JSON Pointer reference token (RFC 6901 §3). */
export const escapeToken = (token: string) =>
  token.includes('~') || token.includes('/') ? token.replaceAll('~', '~0').replaceAll('/', '~1') : token;

/**
 * The diff of a create, `createPatch({}, diffView(details))`: one `add` per field present (not
 * undefined), in the details' order, the agenda keyed by session id. A function of the details
 * alone, so a store may keep a created change's diff as its snapshot (the same text) and make it
 * again from the snapshot when read.
 */
export function createdDiff(details: EventDetails): PatchOperation[] {
  const fields = details as unknown as Record<string, unknown>;
  const operations: PatchOperation[] = [];
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || fields[key] === undefined) continue;
    const value = key === 'agenda' ? keyedAgenda(details.agenda) : fields[key];
    operations.push({ op: 'add', path: `/${escapeToken(key)}`, value });
  }
  return operations;
}
