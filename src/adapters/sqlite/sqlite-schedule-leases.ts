import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { ScheduleLeases, TaskClaim } from '../../ports/schedule.js';
import type { WriteQueue } from './write-queue.js';

/**
 * The scheduler's leases on SQLite. One process owns the file, yet a lease still matters: a run cut
 * short by a crash leaves its lease, and the subject is claimed again once the lease has run out.
 */
export function createSqliteScheduleLeases(db: Database, queue: WriteQueue): ScheduleLeases {
  // A live lease of another claim keeps its row; an expired one is taken over.
  const take = db.prepare(`
    INSERT INTO scheduled_leases (organization_id, task, subject_id, lease_token, leased_until)
    VALUES (@organizationId, @task, @subjectId, @leaseToken, @leaseUntil)
    ON CONFLICT (organization_id, task, subject_id) DO UPDATE
      SET lease_token = excluded.lease_token, leased_until = excluded.leased_until
      WHERE scheduled_leases.leased_until <= @now
    RETURNING subject_id`);
  const release = db.prepare(
    'DELETE FROM scheduled_leases WHERE organization_id = ? AND task = ? AND subject_id = ? AND lease_token = ?',
  );
  const purge = db.prepare('DELETE FROM scheduled_leases WHERE leased_until < ?');
  return {
    claim(task, subjects, now, leaseUntil) {
      if (subjects.length === 0) return Promise.resolve([]);
      return queue.run(() => {
        const claims: TaskClaim[] = [];
        for (const subject of subjects) {
          const leaseToken = randomUUID();
          const taken = take.get({
            organizationId: subject.organizationId,
            task,
            subjectId: subject.id,
            leaseToken,
            leaseUntil,
            now,
          });
          if (taken) claims.push({ task, subject, leaseToken });
        }
        return claims;
      });
    },
    release(claim) {
      return queue.run(() => {
        release.run(claim.subject.organizationId, claim.task, claim.subject.id, claim.leaseToken);
      });
    },
    purgeExpired(before) {
      return queue.run(() => purge.run(before).changes);
    },
  };
}
