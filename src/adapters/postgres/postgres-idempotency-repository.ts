import type { Pool } from 'pg';
import type { IdempotencyRecord, IdempotencyRepository } from '../../ports/idempotency-repository.js';
import { query } from './postgres-transaction.js';

interface IdempotencyRow {
  organization_id: string;
  idempotency_key: string;
  request_hash: string;
  event_id: string;
  granted_to: number;
  created_at: Date;
}

/** Records are written with their event (postgres-event-repository.ts); this reads and expires them. */
export function createPostgresIdempotencyRepository(pool: Pool): IdempotencyRepository {
  return {
    async find(organizationId, key, notBefore): Promise<IdempotencyRecord | undefined> {
      const { rows } = await query<IdempotencyRow>(
        pool,
        `SELECT organization_id, idempotency_key, request_hash, event_id, granted_to, created_at
         FROM idempotency_keys WHERE organization_id = $1 AND idempotency_key = $2 AND created_at >= $3`,
        [organizationId, key, notBefore],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        organizationId: row.organization_id,
        key: row.idempotency_key,
        requestHash: row.request_hash,
        eventId: row.event_id,
        grantedTo: row.granted_to,
        createdAt: row.created_at.toISOString(),
      };
    },
    async deleteExpired(before) {
      const { rowCount } = await query(pool, 'DELETE FROM idempotency_keys WHERE created_at < $1', [before]);
      return rowCount;
    },
  };
}
