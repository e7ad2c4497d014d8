import type { Pool } from 'pg';
import { toListItem } from '../../domain/derived.js';
import type { EventStatus, StoredEvent } from '../../domain/types.js';
import type { EventPage, EventRepository } from '../../ports/event-repository.js';
import { IdempotencyKeyTakenError } from '../../ports/idempotency-repository.js';
import { inTransaction, query } from './postgres-transaction.js';

export interface EventRow {
  organization_id: string;
  created_by: string;
  previous_status: EventStatus | null;
  document: string;
}

const EVENT_COLUMNS = 'organization_id, created_by, previous_status, document';

export function eventValues(event: StoredEvent): unknown[] {
  const { details } = event;
  return [
    event.organizationId,
    details.id,
    event.createdBy,
    details.createdAt,
    details.updatedAt,
    details.status,
    event.previousStatus,
    JSON.stringify(details),
    JSON.stringify(toListItem(details)),
  ];
}

export function fromEventRow(row: EventRow): StoredEvent {
  return {
    organizationId: row.organization_id,
    createdBy: row.created_by,
    previousStatus: row.previous_status,
    details: JSON.parse(row.document),
  };
}

export const INSERT_EVENT = `
  INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, previous_status, document, summary)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

// The creator and the approvers of every group the creator belongs to; nobody when in no group.
const GRANT = `
  INSERT INTO event_grants (organization_id, event_id, user_id)
  SELECT DISTINCT gm.organization_id, $2, gm.user_id
  FROM group_members gm
  JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id AND u.active
  WHERE gm.organization_id = $1
    AND gm.group_id IN (SELECT group_id FROM group_members WHERE organization_id = $1 AND user_id = $3)
    AND (gm.role = 'approver' OR gm.user_id = $3)`;

// A live record of the key wins (no row changes); an expired one is replaced. A concurrent insert of
// the same key waits on the primary key until the other transaction ends, then sees its row.
const CLAIM_KEY = `
  INSERT INTO idempotency_keys (organization_id, idempotency_key, request_hash, event_id, granted_to, created_at)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (organization_id, idempotency_key) DO UPDATE SET
    request_hash = excluded.request_hash, event_id = excluded.event_id,
    granted_to = excluded.granted_to, created_at = excluded.created_at
  WHERE idempotency_keys.created_at < $7`;

const UPDATE_EVENT = `
  UPDATE events SET updated_at = $3, status = $4, previous_status = $5, document = $6, summary = $7
  WHERE organization_id = $1 AND id = $2`;

/** eventValues without created_by and created_at, which never change. */
const updateValues = (event: StoredEvent): unknown[] => {
  const [organizationId, id, , , ...changing] = eventValues(event);
  return [organizationId, id, ...changing];
};

// The total and one page in a single round trip; the total is the organization's counter, O(1).
const PAGE = `
  SELECT o.event_count AS total, page.summary
  FROM organizations o
  LEFT JOIN LATERAL (
    SELECT e.summary FROM events e
    WHERE e.organization_id = o.id
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT $2 OFFSET $3
  ) page ON true
  WHERE o.id = $1`;

export function createPostgresEventRepository(pool: Pool): EventRepository {
  return {
    insert(event, idempotency) {
      return inTransaction(pool, async (client) => {
        await query(client, INSERT_EVENT, eventValues(event));
        const granted = await query(client, GRANT, [event.organizationId, event.details.id, event.createdBy]);
        if (idempotency) {
          const claimed = await query(client, CLAIM_KEY, [
            event.organizationId,
            idempotency.key,
            idempotency.requestHash,
            event.details.id,
            granted.rowCount,
            event.details.createdAt,
            idempotency.expiredBefore,
          ]);
          // Throwing rolls the transaction back: the event is not written either.
          if (claimed.rowCount === 0) throw new IdempotencyKeyTakenError(idempotency.key);
        }
        // Last, so the organization's row lock is held for the shortest time.
        await query(client, 'UPDATE organizations SET event_count = event_count + 1 WHERE id = $1', [
          event.organizationId,
        ]);
        return { grantedTo: granted.rowCount };
      });
    },
    async findDocument(organizationId, id) {
      const { rows } = await query<{ document: string }>(
        pool,
        'SELECT document FROM events WHERE organization_id = $1 AND id = $2',
        [organizationId, id],
      );
      return rows[0]?.document;
    },
    async find(organizationId, id) {
      const { rows } = await query<EventRow>(
        pool,
        `SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2`,
        [organizationId, id],
      );
      return rows[0] ? fromEventRow(rows[0]) : undefined;
    },
    async findOrganizationOf(id) {
      const { rows } = await query<{ organization_id: string }>(
        pool,
        'SELECT organization_id FROM events WHERE id = $1',
        [id],
      );
      return rows[0]?.organization_id;
    },
    update(organizationId, id, change) {
      // The row lock makes concurrent updates of one event, from any instance, take turns.
      return inTransaction(pool, async (client) => {
        const { rows } = await query<EventRow>(
          client,
          `SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
          [organizationId, id],
        );
        if (!rows[0]) return undefined;
        const current = fromEventRow(rows[0]);
        const next = change(current);
        if (next !== current) await query(client, UPDATE_EVENT, updateValues(next));
        return next;
      });
    },
    async list(organizationId, { offset, limit }): Promise<EventPage> {
      const { rows } = await query<{ total: number; summary: string | null }>(pool, PAGE, [
        organizationId,
        limit,
        offset,
      ]);
      const total = rows[0]?.total ?? 0;
      return { items: rows.flatMap((row) => (row.summary === null ? [] : [row.summary])), total };
    },
  };
}
