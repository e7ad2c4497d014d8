/** The event repository contract, run on every backend. */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { etagOf } from '../../src/app/etag.js';
import { toListItem } from '../../src/domain/derived.js';
import { ConflictError } from '../../src/domain/errors.js';
import type { StoredEvent } from '../../src/domain/types.js';
import { BACKENDS, describeStore } from './backends.js';
import {
  insertEvent,
  newEvent,
  newGroup,
  newKey,
  newOrganization,
  newUser,
  nextTime,
  rewrite,
} from './fixtures.js';

const session = (title: string) => ({
  id: randomUUID(),
  title,
  dates: ['2026-05-02'],
  startTime: '09:00',
  endTime: '10:00',
  roomType: '',
  capacity: 0,
  avRequirements: [],
  fbRequirements: [],
  avOtherText: '',
  fbOtherText: '',
  notes: '',
});

for (const backend of BACKENDS) {
  describeStore(backend, 'event repository', (store) => {
    let org: string;
    let planner: string;
    let approver: string;

    beforeAll(async () => {
      org = await newOrganization(store());
      planner = await newUser(store(), org);
      approver = await newUser(store(), org);
      await newGroup(store(), org, [
        [planner, 'member'],
        [approver, 'approver'],
      ]);
    });

    it('grants a new event to its creator and the approvers of every group of the creator, each once', async () => {
      const secondApprover = await newUser(store(), org);
      const inactiveApprover = await newUser(store(), org);
      await newGroup(store(), org, [
        [planner, 'member'],
        [approver, 'approver'],
        [secondApprover, 'approver'],
        [inactiveApprover, 'approver'],
      ]);
      await store().identity.deactivateUser(inactiveApprover);
      // A member of another group of the approver sees nothing of it.
      await newGroup(store(), org, [
        [approver, 'approver'],
        [await newUser(store(), org), 'member'],
      ]);
      const { grantedTo } = await insertEvent(store(), newEvent(org, planner));
      expect(grantedTo).toBe(3);
    });

    it('grants nothing, and still stores the event, when the creator is in no group', async () => {
      const loner = await newUser(store(), org);
      const event = newEvent(org, loner);
      expect(await insertEvent(store(), event)).toEqual({ grantedTo: 0 });
      expect(await store().events.find(org, event.details.id)).toEqual(event);
    });

    it('serves the stored details as the exact JSON text with its ETag, and only inside the organization', async () => {
      const event = newEvent(org, planner, { notesForVenue: 'Quiet rooms, please — ☕' });
      await insertEvent(store(), event);
      const text = JSON.stringify(event.details);
      expect(await store().events.findDocument(org, event.details.id)).toEqual({
        body: Buffer.from(text),
        etag: etagOf(text),
      });
      const other = await newOrganization(store());
      expect(await store().events.findDocument(other, event.details.id)).toBeUndefined();
      expect(await store().events.find(other, event.details.id)).toBeUndefined();
      expect(await store().events.findOrganizationOf(event.details.id)).toBe(org);
      expect(await store().events.findOrganizationOf(randomUUID())).toBeUndefined();
    });

    it('reads a key with one of its organization’s events in one read, the key as it is now', async () => {
      const event = newEvent(org, planner, { notesForVenue: 'Harbour view — ☀' });
      await insertEvent(store(), event);
      const text = JSON.stringify(event.details);
      const keyId = `ReadTogether${randomUUID().slice(0, 4)}`;
      await store().identity.insertKey(newKey(org, planner, keyId));
      const found = await store().events.findDocumentByKey(keyId, event.details.id);
      expect(found).toEqual({
        credentials: {
          keyId,
          organizationId: org,
          userId: planner,
          secretHash: 'ab'.repeat(32),
          revoked: false,
          userActive: true,
        },
        document: { body: Buffer.from(text), etag: etagOf(text) },
      });
      expect(await store().events.findDocumentByKey(keyId, randomUUID())).toEqual({
        credentials: found?.credentials,
        document: undefined,
      });
      // Another organization's event is not found through this key, and its key does not reach ours.
      const other = await newOrganization(store());
      const outsider = await newUser(store(), other);
      const outsiderKey = `OutsiderKey${randomUUID().slice(0, 5)}`;
      await store().identity.insertKey(newKey(other, outsider, outsiderKey));
      expect(
        (await store().events.findDocumentByKey(outsiderKey, event.details.id))?.document,
      ).toBeUndefined();
      expect(await store().events.findDocumentByKey('NoSuchKey0000000', event.details.id)).toBeUndefined();
      await store().identity.revokeKey(keyId, nextTime());
      expect((await store().events.findDocumentByKey(keyId, event.details.id))?.credentials.revoked).toBe(
        true,
      );
      await store().identity.deactivateUser(outsider);
      expect(
        (await store().events.findDocumentByKey(outsiderKey, randomUUID()))?.credentials.userActive,
      ).toBe(false);
    });

    it('writes a change and its status history through update, and returns what it wrote', async () => {
      const event = newEvent(org, planner);
      await insertEvent(store(), event);
      const updatedAt = nextTime();
      const written = await store().events.update(org, event.details.id, (current) =>
        rewrite(current, {
          ...current,
          previousStatus: 'booked',
          details: { ...current.details, status: 'cancelled', name: 'Renamed', updatedAt },
        }),
      );
      expect(written?.details.name).toBe('Renamed');
      expect(await store().events.find(org, event.details.id)).toEqual(written);
      const page = await store().events.list(org, { offset: 0, limit: 100 });
      expect(page.items.map((item) => JSON.parse(item))).toContainEqual(toListItem(written!.details));
    });

    it('writes nothing when the change returns nothing to write, or throws', async () => {
      const event = newEvent(org, planner);
      await insertEvent(store(), event);
      const same = await store().events.update(org, event.details.id, () => undefined);
      expect(same).toEqual(event);
      const refusal = new ConflictError('no');
      await expect(
        store().events.update(org, event.details.id, (current) => {
          current.details.name = 'Half-written';
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      expect(await store().events.find(org, event.details.id)).toEqual(event);
    });

    it('updates nothing outside the organization', async () => {
      const event = newEvent(org, planner);
      await insertEvent(store(), event);
      const other = await newOrganization(store());
      let called = false;
      const result = await store().events.update(other, event.details.id, () => {
        called = true;
        return undefined;
      });
      expect(result).toBeUndefined();
      expect(called).toBe(false);
    });

    it('never loses one of many concurrent updates of the same event', async () => {
      const event = newEvent(org, planner);
      await insertEvent(store(), event);
      const titles = Array.from({ length: 40 }, (_, index) => `Session ${index}`);
      await Promise.all(
        titles.map((title) =>
          store().events.update(org, event.details.id, (current) =>
            rewrite(current, {
              ...current,
              details: { ...current.details, agenda: [...current.details.agenda, session(title)] },
            }),
          ),
        ),
      );
      const stored = await store().events.find(org, event.details.id);
      expect(stored?.details.agenda.map((item) => item.title).sort()).toEqual([...titles].sort());
      // One change record per write, revisions 1 (the create) to 41 with none taken twice, and the
      // organization's numbering in the same order.
      const changes = await store().events.changes(org, event.details.id, { limit: 100 });
      expect(changes.map((change) => change.revision)).toEqual(
        Array.from({ length: titles.length + 1 }, (_, index) => titles.length + 1 - index),
      );
      const sequences = changes.map((change) => change.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
      expect(new Set(sequences).size).toBe(sequences.length);
    });

    it('lists an organization newest first, ties broken by id, with the total of its events', async () => {
      const own = await newOrganization(store());
      const creator = await newUser(store(), own);
      const sameTime = nextTime();
      const events: StoredEvent[] = [
        newEvent(own, creator, { name: 'First' }),
        newEvent(own, creator, { name: 'Tie A' }, sameTime),
        newEvent(own, creator, { name: 'Tie B' }, sameTime),
        newEvent(own, creator, { name: 'Last' }),
      ];
      for (const event of events) await insertEvent(store(), event);
      await insertEvent(store(), newEvent(org, planner, { name: 'Elsewhere' }));

      const expected = [...events]
        .sort(
          (a, b) =>
            b.details.createdAt.localeCompare(a.details.createdAt) || (a.details.id < b.details.id ? 1 : -1),
        )
        .map((event) => JSON.stringify(toListItem(event.details)));
      const whole = await store().events.list(own, { offset: 0, limit: 10 });
      expect(whole).toEqual({ items: expected, total: 4 });
      expect(await store().events.list(own, { offset: 1, limit: 2 })).toEqual({
        items: expected.slice(1, 3),
        total: 4,
      });
      expect(await store().events.list(own, { offset: 4, limit: 2 })).toEqual({ items: [], total: 4 });
      expect(await store().events.list(await newOrganization(store()), { offset: 0, limit: 5 })).toEqual({
        items: [],
        total: 0,
      });
    });
  });
}
