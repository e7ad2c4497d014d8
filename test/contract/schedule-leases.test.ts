/** The scheduler's leases, the same on every backend: one claim at a time per subject, until it runs out. */
import { expect, it } from 'vitest';
import type { TaskSubject } from '../../src/ports/schedule.js';
import { BACKENDS, describeStore } from './backends.js';

const subject = (id: string, organizationId = 'org-1'): TaskSubject => ({
  organizationId,
  eventId: 'event-1',
  id,
});
const T0 = '2027-05-10T09:00:00.000Z';
const T1 = '2027-05-10T09:05:00.000Z';
const T2 = '2027-05-10T09:10:00.000Z';

for (const backend of BACKENDS) {
  describeStore(backend, 'scheduled leases', (store) => {
    it('claims free subjects, and not one under a live lease, in the order given', async () => {
      const leases = store().schedule;
      const first = await leases.claim('task-a', [subject('s1'), subject('s2')], T0, T1);
      expect(first.map((claim) => claim.subject.id)).toEqual(['s1', 's2']);
      expect(new Set(first.map((claim) => claim.leaseToken)).size).toBeGreaterThan(0);
      const again = await leases.claim('task-a', [subject('s2'), subject('s3')], T0, T1);
      expect(again.map((claim) => claim.subject.id)).toEqual(['s3']);
      // Another task, or another organization, is another lease.
      expect(await leases.claim('task-b', [subject('s1')], T0, T1)).toHaveLength(1);
      expect(await leases.claim('task-a', [subject('s1', 'org-2')], T0, T1)).toHaveLength(1);
    });

    it('takes over a lease that ran out; the old claim then releases nothing', async () => {
      const leases = store().schedule;
      const [old] = await leases.claim('task-c', [subject('s1')], T0, T1);
      expect(await leases.claim('task-c', [subject('s1')], '2027-05-10T09:04:59.999Z', T2)).toEqual([]);
      const [taken] = await leases.claim('task-c', [subject('s1')], T1, T2);
      expect(taken).toBeDefined();
      await leases.release(old!);
      expect(await leases.claim('task-c', [subject('s1')], T1, T2)).toEqual([]);
      await leases.release(taken!);
      expect(await leases.claim('task-c', [subject('s1')], T1, T2)).toHaveLength(1);
    });

    it('gives each of two claims at once a different subject set, never the same subject twice', async () => {
      const leases = store().schedule;
      const subjects = Array.from({ length: 20 }, (_, index) => subject(`race-${index}`));
      const [a, b] = await Promise.all([
        leases.claim('task-d', subjects, T0, T1),
        leases.claim('task-d', subjects, T0, T1),
      ]);
      const ids = [...a!, ...b!].map((claim) => claim.subject.id);
      expect(ids.sort()).toEqual(subjects.map((one) => one.id).sort());
    });

    it('purges leases that ran out, and only those', async () => {
      const leases = store().schedule;
      await leases.claim('task-e', [subject('old')], T0, T1);
      await leases.claim('task-e', [subject('live')], T0, T2);
      expect(await leases.purgeExpired('2027-05-10T09:07:00.000Z')).toBeGreaterThanOrEqual(1);
      expect(await leases.claim('task-e', [subject('old'), subject('live')], T0, T2)).toHaveLength(1);
    });
  });
}
