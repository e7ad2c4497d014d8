import type { Database } from 'better-sqlite3';
import { toListItem } from '../../domain/derived.js';
import type { EventStatus, StoredEvent } from '../../domain/types.js';
import type { EventPage, EventRepository } from '../../ports/event-repository.js';
import { IdempotencyKeyTakenError } from '../../ports/idempotency-repository.js';
import { ANCHOR_STEP, createPageAnchors } from './page-anchors.js';
import type { WriteQueue } from './write-queue.js';

interface EventRow {
  organization_id: string;
  created_by: string;
  previous_status: EventStatus | null;
  document: string;
}

export function eventRow(event: StoredEvent) {
  const { details } = event;
  return {
    organization_id: event.organizationId,
    id: details.id,
    created_by: event.createdBy,
    created_at: details.createdAt,
    updated_at: details.updatedAt,
    status: details.status,
    previous_status: event.previousStatus,
    document: JSON.stringify(details),
    summary: JSON.stringify(toListItem(details)),
  };
}

function fromRow(row: EventRow): StoredEvent {
  return {
    organizationId: row.organization_id,
    createdBy: row.created_by,
    previousStatus: row.previous_status,
    details: JSON.parse(row.document),
  };
}

export function createSqliteEventRepository(db: Database, queue: WriteQueue): EventRepository {
  const insertEvent = db.prepare(`
    INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, previous_status, document, summary)
    VALUES (@organization_id, @id, @created_by, @created_at, @updated_at, @status, @previous_status, @document, @summary)`);
  const countEvent = db.prepare('UPDATE organizations SET event_count = event_count + 1 WHERE id = ?');
  // The creator and the approvers of every group the creator belongs to; nobody when in no group.
  const grant = db.prepare(`
    INSERT INTO event_grants (organization_id, event_id, user_id)
    SELECT DISTINCT gm.organization_id, @event_id, gm.user_id
    FROM group_members gm
    JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id AND u.active = 1
    WHERE gm.organization_id = @organization_id
      AND gm.group_id IN (SELECT group_id FROM group_members WHERE organization_id = @organization_id AND user_id = @creator)
      AND (gm.role = 'approver' OR gm.user_id = @creator)`);
  // A live record of the key wins (nothing changes); an expired one is replaced.
  const claimKey = db.prepare(`
    INSERT INTO idempotency_keys (organization_id, idempotency_key, request_hash, event_id, granted_to, created_at)
    VALUES (@organization_id, @key, @request_hash, @event_id, @granted_to, @created_at)
    ON CONFLICT (organization_id, idempotency_key) DO UPDATE SET
      request_hash = excluded.request_hash, event_id = excluded.event_id,
      granted_to = excluded.granted_to, created_at = excluded.created_at
    WHERE idempotency_keys.created_at < @expired_before`);
  const selectDocument = db
    .prepare('SELECT document FROM events WHERE organization_id = ? AND id = ?')
    .pluck();
  const selectEvent = db.prepare(
    'SELECT organization_id, created_by, previous_status, document FROM events WHERE organization_id = ? AND id = ?',
  );
  const selectOrganization = db.prepare('SELECT organization_id FROM events WHERE id = ?').pluck();
  const updateEvent = db.prepare(`
    UPDATE events SET updated_at = @updated_at, status = @status, previous_status = @previous_status,
      document = @document, summary = @summary
    WHERE organization_id = @organization_id AND id = @id`);
  const selectTotal = db.prepare('SELECT event_count FROM organizations WHERE id = ?').pluck();
  const selectPage = db
    .prepare(
      'SELECT summary FROM events WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    )
    .pluck();
  const selectPageOldestFirst = db
    .prepare('SELECT summary FROM events WHERE organization_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?')
    .pluck();
  const selectPageFromAnchor = db
    .prepare(`
      SELECT summary FROM events WHERE organization_id = ? AND (created_at, id) >= (?, ?)
      ORDER BY created_at, id LIMIT ? OFFSET ?`)
    .pluck();
  const anchors = createPageAnchors(db);
  /**
   * OFFSET steps through the index one entry at a time, so a page in the older half is read from the
   * oldest end, where it is near, and reversed; a page far from both ends starts from the nearest page
   * anchor (page-anchors.ts). The total is the organization's event_count, kept in the same
   * transaction as every insert, and read in one snapshot with the page.
   */
  const readPage = db.transaction((organizationId: string, offset: number, limit: number): EventPage => {
    const total = (selectTotal.get(organizationId) as number | undefined) ?? 0;
    if (offset >= total) return { items: [], total };
    const olderThanPage = total - offset - limit;
    if (Math.min(offset, olderThanPage) >= ANCHOR_STEP) {
      const { from, skip } = anchors.seek(organizationId, total, olderThanPage);
      const items = selectPageFromAnchor.all(organizationId, from[0], from[1], limit, skip) as string[];
      return { items: items.reverse(), total };
    }
    if (olderThanPage >= offset) {
      return { items: selectPage.all(organizationId, limit, offset) as string[], total };
    }
    const size = Math.min(limit, total - offset);
    const items = selectPageOldestFirst.all(organizationId, size, Math.max(olderThanPage, 0)) as string[];
    return { items: items.reverse(), total };
  });

  const find = (organizationId: string, id: string): StoredEvent | undefined => {
    const row = selectEvent.get(organizationId, id) as EventRow | undefined;
    return row ? fromRow(row) : undefined;
  };

  return {
    insert(event, idempotency) {
      return queue.run(() => {
        insertEvent.run(eventRow(event));
        countEvent.run(event.organizationId);
        anchors.inserted(event.organizationId, [event.details.createdAt, event.details.id]);
        const granted = grant.run({
          event_id: event.details.id,
          organization_id: event.organizationId,
          creator: event.createdBy,
        });
        if (idempotency) {
          const claimed = claimKey.run({
            organization_id: event.organizationId,
            key: idempotency.key,
            request_hash: idempotency.requestHash,
            event_id: event.details.id,
            granted_to: granted.changes,
            created_at: event.details.createdAt,
            expired_before: idempotency.expiredBefore,
          });
          // Throwing rolls this job's savepoint back: the event is not written either.
          if (claimed.changes === 0) throw new IdempotencyKeyTakenError(idempotency.key);
        }
        return { grantedTo: granted.changes };
      });
    },
    async findDocument(organizationId, id) {
      return selectDocument.get(organizationId, id) as string | undefined;
    },
    async find(organizationId, id) {
      return find(organizationId, id);
    },
    async findOrganizationOf(id) {
      return selectOrganization.get(id) as string | undefined;
    },
    update(organizationId, id, change) {
      return queue.run(() => {
        const current = find(organizationId, id);
        if (!current) return undefined;
        const next = change(current);
        if (next !== current) updateEvent.run(eventRow(next));
        return next;
      });
    },
    async list(organizationId, { offset, limit }): Promise<EventPage> {
      return readPage(organizationId, offset, limit);
    },
  };
}
