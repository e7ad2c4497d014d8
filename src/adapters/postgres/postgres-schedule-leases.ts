import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ScheduleLeases, TaskClaim } from '../../ports/schedule.js';
import { query } from './postgres-transaction.js';

/**
 * The scheduler's leases, shared by every instance. A claim is one statement: each subject's lease
 * row is inserted, or taken over when its lease has run out; a row whose lease is live is left as it
 * is. Two instances claiming the same subject at once meet on its row, and the second finds the first
 * one's live lease once it commits, so one of them runs it.
 */
export function createPostgresScheduleLeases(pool: Pool): ScheduleLeases {
  return {
    async claim(task, subjects, now, leaseUntil) {
      if (subjects.length === 0) return [];
      const leaseToken = randomUUID();
      const { rows } = await query<{ organization_id: string; subject_id: string }>(
        pool,
        `INSERT INTO scheduled_leases (organization_id, task, subject_id, lease_token, leased_until)
         SELECT organization_id, $1::text, subject_id, $2::text, $3::timestamptz
         FROM unnest($4::text[], $5::text[]) AS s (organization_id, subject_id)
         ON CONFLICT (organization_id, task, subject_id) DO UPDATE
           SET lease_token = excluded.lease_token, leased_until = excluded.leased_until
           WHERE scheduled_leases.leased_until <= $6::timestamptz
         RETURNING organization_id, subject_id`,
        [
          task,
          leaseToken,
          leaseUntil,
          subjects.map((subject) => subject.organizationId),
          subjects.map((subject) => subject.id),
          now,
        ],
        'schedule-claim',
      );
      const taken = new Set(rows.map((row) => `${row.organization_id}/${row.subject_id}`));
      return subjects
        .filter((subject) => taken.has(`${subject.organizationId}/${subject.id}`))
        .map((subject): TaskClaim => ({ task, subject, leaseToken }));
    },
    async release(claim) {
      await query(
        pool,
        `DELETE FROM scheduled_leases
         WHERE organization_id = $1 AND task = $2 AND subject_id = $3 AND lease_token = $4`,
        [claim.subject.organizationId, claim.task, claim.subject.id, claim.leaseToken],
        'schedule-release',
      );
    },
    async purgeExpired(before) {
      const { rowCount } = await query(pool, 'DELETE FROM scheduled_leases WHERE leased_until < $1', [
        before,
      ]);
      return rowCount;
    },
  };
}
