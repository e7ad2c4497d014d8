/**
 * Reading the change log (D17): an event's revisions, newest first, one revision with its snapshot,
 * and the organization's change feed in sequence (commit) order. Lists are cursor-paged.
 */
import type { ChangeRecord } from '../domain/changes.js';
import { NotFoundError, type Problem, ValidationError } from '../domain/errors.js';
import { type CursorScope, decodeCursor, encodeCursor } from './cursors.js';
import type { AppDeps, Principal } from './deps.js';
import { assertEventId, notFound } from './event-ids.js';

export interface CursorPage {
  data: ChangeRecord[];
  hasMore: boolean;
  /** Where the next page starts; on the feed always present, so a reader at the end polls from there. */
  nextCursor: string | null;
}

export interface PageQuery {
  /** A `nextCursor` from an earlier page of the same list, unchanged. */
  after?: string;
  limit: number;
}

/** Where a cursor is checked: the query parameter it came in. */
const CURSOR_FIELD = 'query.after';

const feedScope = (principal: Principal): CursorScope => ({
  organizationId: principal.organizationId,
  list: 'changes',
});
const revisionsScope = (principal: Principal, eventId: string): CursorScope => ({
  organizationId: principal.organizationId,
  list: `revisions:${eventId.toLowerCase()}`,
});

/** The problem of an `after` cursor that is not one of this list (checked with the other query problems). */
export async function feedCursorProblems(
  deps: AppDeps,
  principal: Principal,
  after: unknown,
): Promise<Problem[]> {
  if (after === undefined) return [];
  const decoded = await decodeCursor(deps, feedScope(principal), after, CURSOR_FIELD);
  return 'problem' in decoded ? [decoded.problem] : [];
}

export async function revisionsCursorProblems(
  deps: AppDeps,
  principal: Principal,
  eventId: string,
  after: unknown,
): Promise<Problem[]> {
  if (after === undefined) return [];
  const decoded = await decodeCursor(deps, revisionsScope(principal, eventId), after, CURSOR_FIELD);
  return 'problem' in decoded ? [decoded.problem] : [];
}

async function positionOf(
  deps: AppDeps,
  scope: CursorScope,
  after: string | undefined,
): Promise<number | undefined> {
  if (after === undefined) return undefined;
  const decoded = await decodeCursor(deps, scope, after, CURSOR_FIELD);
  if ('problem' in decoded) throw new ValidationError([decoded.problem]);
  return decoded.position;
}

/**
 * The organization's changes after the cursor (from the first change without one), oldest first.
 * `nextCursor` is always given: past the last change it points at the end, so a reader keeps polling
 * from there and receives each later change once, in order.
 */
export async function readChanges(
  deps: AppDeps,
  principal: Principal,
  query: PageQuery,
): Promise<CursorPage & { nextCursor: string }> {
  const scope = feedScope(principal);
  const afterSequence = (await positionOf(deps, scope, query.after)) ?? 0;
  const rows = await deps.store.events.changesAfter(principal.organizationId, {
    afterSequence,
    limit: query.limit + 1,
  });
  const data = rows.slice(0, query.limit);
  const last = data.at(-1)?.sequence ?? afterSequence;
  return { data, hasMore: rows.length > query.limit, nextCursor: await encodeCursor(deps, scope, last) };
}

/** The event's changes, newest first; `nextCursor` is null on the last page. */
export async function listRevisions(
  deps: AppDeps,
  principal: Principal,
  id: string,
  query: PageQuery,
): Promise<CursorPage> {
  const eventId = assertEventId(id);
  const scope = revisionsScope(principal, eventId);
  const beforeRevision = await positionOf(deps, scope, query.after);
  if ((await deps.store.events.findDocument(principal.organizationId, eventId)) === undefined) {
    throw notFound(id);
  }
  const rows = await deps.store.events.changes(principal.organizationId, eventId, {
    limit: query.limit + 1,
    ...(beforeRevision === undefined ? {} : { beforeRevision }),
  });
  const data = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const nextCursor = hasMore ? await encodeCursor(deps, scope, data.at(-1)!.revision) : null;
  return { data, hasMore, nextCursor };
}

/** One revision as ready-to-send JSON: the change plus `snapshot`, the details right after it. */
export async function getRevisionDocument(
  deps: AppDeps,
  principal: Principal,
  id: string,
  revision: number,
): Promise<string> {
  const eventId = assertEventId(id);
  const found = await deps.store.events.revision(principal.organizationId, eventId, revision);
  if (!found) {
    const exists = (await deps.store.events.findDocument(principal.organizationId, eventId)) !== undefined;
    throw exists ? new NotFoundError(`Event ${id} has no revision ${revision}.`) : notFound(id);
  }
  const change = JSON.stringify(found.change);
  return `${change.slice(0, -1)},"snapshot":${found.snapshot}}`;
}
