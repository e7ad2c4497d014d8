/** Reading the change log and the filtered event list: the repository contract, run on every backend. */
import { beforeAll, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/domain/types.js';
import { BACKENDS, describeStore } from './backends.js';
import { insertEvent, newEvent, newOrganization, newUser, nextTime, rewrite } from './fixtures.js';

const withDetails = (event: StoredEvent, changes: Partial<StoredEvent['details']>): StoredEvent => ({
  ...event,
  details: { ...event.details, ...changes, updatedAt: nextTime() },
});

for (const backend of BACKENDS) {
  describeStore(backend, 'change log reads', (store) => {
    let org: string;
    let planner: string;
    let first: StoredEvent;
    let second: StoredEvent;

    beforeAll(async () => {
      org = await newOrganization(store());
      planner = await newUser(store(), org);
      first = newEvent(org, planner, { name: 'First' });
      second = newEvent(org, planner, { name: 'Second' });
      await insertEvent(store(), first);
      await insertEvent(store(), second);
      for (const numPeople of [5, 6]) {
        await store().events.update(org, first.details.id, (current) =>
          rewrite(current, withDetails(current, { numPeople })),
        );
      }
      await store().events.update(org, second.details.id, (current) =>
        rewrite(current, withDetails(current, { status: 'booked' })),
      );
    });

    it('reads the organization changes after a sequence, in sequence order, up to the limit', async () => {
      const all = await store().events.changesAfter(org, { afterSequence: 0, limit: 100 });
      expect(all.map((change) => [change.sequence, change.eventId, change.revision])).toEqual([
        [1, first.details.id, 1],
        [2, second.details.id, 1],
        [3, first.details.id, 2],
        [4, first.details.id, 3],
        [5, second.details.id, 2],
      ]);
      const page = await store().events.changesAfter(org, { afterSequence: 2, limit: 2 });
      expect(page.map((change) => change.sequence)).toEqual([3, 4]);
      expect(await store().events.changesAfter(org, { afterSequence: 5, limit: 10 })).toEqual([]);
      expect(
        await store().events.changesAfter(await newOrganization(store()), { afterSequence: 0, limit: 10 }),
      ).toEqual([]);
    });

    it("pages an event's changes newest first, before a revision", async () => {
      const older = await store().events.changes(org, first.details.id, { limit: 10, beforeRevision: 3 });
      expect(older.map((change) => change.revision)).toEqual([2, 1]);
      const newest = await store().events.changes(org, first.details.id, { limit: 1 });
      expect(newest.map((change) => change.revision)).toEqual([3]);
    });

    it('gives one revision with the details right after it, and nothing for a revision it does not have', async () => {
      const revision = await store().events.revision(org, first.details.id, 2);
      expect(revision?.change.changedFields).toEqual(['numPeople']);
      expect(JSON.parse(revision!.snapshot).numPeople).toBe(5);
      expect(await store().events.revision(org, first.details.id, 4)).toBeUndefined();
      expect(
        await store().events.revision(await newOrganization(store()), first.details.id, 1),
      ).toBeUndefined();
    });

    it('lists the events matching a filter, newest first, with the matching total', async () => {
      const booked = await store().events.listFiltered(
        org,
        { statuses: ['booked'] },
        { offset: 0, limit: 10 },
      );
      expect(booked.total).toBe(1);
      expect(booked.items.map((item) => JSON.parse(item).name)).toEqual(['Second']);
      const both = await store().events.listFiltered(
        org,
        { statuses: ['booked', 'draft'] },
        { offset: 1, limit: 10 },
      );
      expect(both.total).toBe(2);
      expect(both.items.map((item) => JSON.parse(item).name)).toEqual(['First']);
      const current = await store().events.find(org, first.details.id);
      const since = await store().events.listFiltered(
        org,
        { statuses: [], updatedAfter: current!.details.updatedAt },
        { offset: 0, limit: 10 },
      );
      expect(since.total).toBe(1);
      expect(since.items.map((item) => JSON.parse(item).name)).toEqual(['Second']);
      const past = await store().events.listFiltered(org, { statuses: ['draft'] }, { offset: 5, limit: 10 });
      expect(past).toEqual({ items: [], total: 1 });
    });
  });
}
