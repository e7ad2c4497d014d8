import type { Database } from 'better-sqlite3';
import type { IdempotencyRecord, IdempotencyRepository } from '../../ports/idempotency-repository.js';
import type { WriteQueue } from './write-queue.js';

interface IdempotencyRow {
  organization_id: string;
  idempotency_key: string;
  request_hash: string;
  event_id: string;
  granted_to: number;
  created_at: string;
}

/** Records are written with their event (sqlite-event-repository.ts); this reads and expires them. */
export function createSqliteIdempotencyRepository(db: Database, queue: WriteQueue): IdempotencyRepository {
  const select = db.prepare(`
    SELECT organization_id, idempotency_key, request_hash, event_id, granted_to, created_at
    FROM idempotency_keys WHERE organization_id = ? AND idempotency_key = ? AND created_at >= ?`);
  const deleteBefore = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return {
    async find(organizationId, key, notBefore): Promise<IdempotencyRecord | undefined> {
      const row = select.get(organizationId, key, notBefore) as IdempotencyRow | undefined;
      if (!row) return undefined;
      return {
        organizationId: row.organization_id,
        key: row.idempotency_key,
        requestHash: row.request_hash,
        eventId: row.event_id,
        grantedTo: row.granted_to,
        createdAt: row.created_at,
      };
    },
    deleteExpired(before) {
      return queue.run(() => deleteBefore.run(before).changes);
    },
  };
}
