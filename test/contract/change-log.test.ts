/** The change log (D17) on every backend: one record per committed change, numbered without gaps. */
import { randomUUID } from 'node:crypto';
import { applyPatch, createPatch } from 'rfc6902';
import { beforeAll, expect, it } from 'vitest';
import { randomIds } from '../../src/adapters/system.js';
import { diffView } from '../../src/app/change-log.js';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { changeEventStatus, createEvent, updateEvent } from '../../src/app/events.js';
import { addGroupMember, createGroup, createOrganization, createUser } from '../../src/app/organizations.js';
import { moveMyEvent, updateMyEvent, versionOf } from '../../src/app/planning.js';
import {
  AgendaSessionsOrphanedError,
  EventCancelledError,
  PreconditionFailedError,
  ValidationError,
} from '../../src/domain/errors.js';
import type { EventDetails } from '../../src/domain/types.js';
import type { ChangeLogRecord } from '../../src/ports/data-transfer.js';
import type { Store } from '../../src/ports/store.js';
import { asPerson, shortlistVenue } from '../helpers/sourcing.js';
import { openTestStore } from '../helpers/test-store.js';
import { testClock } from '../people/people-deps.js';
import { BACKENDS, describeStore } from './backends.js';

/** The organization's change-log rows as stored (snapshot included), in sequence order. */
async function storedChanges(store: Store, organizationId: string): Promise<ChangeLogRecord[]> {
  const changes: ChangeLogRecord[] = [];
  for await (const batch of store.transfer.exportRecords()) {
    if (batch.kind === 'changes')
      changes.push(...batch.records.filter((c) => c.organizationId === organizationId));
  }
  return changes.sort((a, b) => a.sequence - b.sequence);
}

/**
 * A stored record's diff. A create's diff is stored once, as its snapshot (an empty diff text), and
 * is `createPatch({}, diffView(snapshot))`; every other diff is stored as its text.
 */
function diffOf(change: ChangeLogRecord) {
  if (change.type !== 'event.created') return JSON.parse(change.diff);
  expect(change.diff).toBe('');
  return createPatch({}, diffView(JSON.parse(change.snapshot)));
}

const range = (n: number) => Array.from({ length: n }, (_, index) => index + 1);

for (const backend of BACKENDS) {
  describeStore(backend, 'change log', (store) => {
    const clock = testClock();
    let deps: AppDeps;

    /** A fresh organization with a creator and an approver in one group, and the creator's API key. */
    async function organization() {
      const { id: organizationId } = await createOrganization(deps, 'Logged');
      const { id: groupId } = await createGroup(deps, { organizationId, name: 'Team' });
      const user = async (role: 'member' | 'approver') => {
        const { id: userId } = await createUser(deps, {
          organizationId,
          email: `${randomUUID()}@example.com`,
        });
        await addGroupMember(deps, { groupId, userId, role });
        return userId;
      };
      const creator = await user('member');
      const approver = await user('approver');
      const principal: Principal = { organizationId, userId: creator, keyId: 'ChangeLogKey0001' };
      return { organizationId, creator, approver, principal };
    }

    const document = async (organizationId: string, id: string) =>
      JSON.parse((await store().events.findDocument(organizationId, id))!.body.toString()) as EventDetails;

    beforeAll(() => {
      deps = { store: store(), clock, ids: randomIds };
    });

    it('appends one change per committed change, none for a no-op or a refused one', async () => {
      const { organizationId, creator, approver, principal } = await organization();
      const snapshots: EventDetails[] = [];
      const tick = () => clock.advance(1000);
      const { id } = await createEvent(deps, principal, {
        name: 'Logged',
        formattedLocations: [{ city: 'Lisbon' }],
        numPeople: 20,
        decisionDeadline: '2026-04-01',
        meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-06' }],
        agenda: [
          { title: 'Opening', dates: ['2026-05-04'], startTime: '09:00', endTime: '10:00' },
          { title: 'Close', dates: ['2026-05-06'], startTime: '16:00', endTime: '17:00' },
        ],
      });
      snapshots.push(await document(organizationId, id));
      const refusals = async () => {
        // 400, 409 (orphaned sessions), 412, and a PATCH that changes nothing.
        await expect(updateEvent(deps, principal, id, { numPeople: -1 })).rejects.toBeInstanceOf(
          ValidationError,
        );
        await expect(
          updateEvent(deps, principal, id, {
            meetingRoomDates: [{ startDate: '2026-05-05', endDate: '2026-05-06' }],
          }),
        ).rejects.toBeInstanceOf(AgendaSessionsOrphanedError);
        await expect(updateEvent(deps, principal, id, { name: 'Racing' }, '"stale"')).rejects.toBeInstanceOf(
          PreconditionFailedError,
        );
        const current = await document(organizationId, id);
        await updateEvent(deps, principal, id, { name: current.name, numPeople: current.numPeople });
        await updateMyEvent(
          deps,
          { organizationId, userId: approver },
          id,
          { name: current.name },
          versionOf(current),
        );
      };

      await refusals();
      tick();
      const closing = snapshots[0]!.agenda[1]!.id;
      await updateEvent(deps, principal, id, {
        name: 'Logged by key',
        agendaOperations: [{ op: 'remove', sessionId: closing }],
      });
      snapshots.push(await document(organizationId, id));
      await refusals();
      tick();
      const before = await document(organizationId, id);
      await updateMyEvent(
        deps,
        { organizationId, userId: approver },
        id,
        { otherNotes: 'From the dashboard' },
        versionOf(before),
      );
      snapshots.push(await document(organizationId, id));
      tick();
      // Shortlisting records nothing (D21); the checklist asks for it before the move.
      await shortlistVenue(deps, asPerson({ organizationId, userId: creator }), id);
      await moveMyEvent(deps, { organizationId, userId: creator }, id, { move: 'request_approval' });
      snapshots.push(await document(organizationId, id));
      tick();
      await changeEventStatus(deps, id, 'cancelled');
      snapshots.push(await document(organizationId, id));
      // A cancelled event refuses updates (409): nothing recorded either.
      await expect(updateEvent(deps, principal, id, { name: 'Too late' })).rejects.toBeInstanceOf(
        EventCancelledError,
      );
      await expect(changeEventStatus(deps, id, 'booked')).rejects.toThrow();

      const changes = await storedChanges(store(), organizationId);
      expect(changes.map((change) => change.type)).toEqual([
        'event.created',
        'event.updated',
        'event.updated',
        'event.status_changed',
        'event.status_changed',
      ]);
      expect(changes.map((change) => change.sequence)).toEqual(range(5));
      expect(changes.map((change) => change.revision)).toEqual(range(5));
      expect(changes.map((change) => JSON.parse(change.actor))).toEqual([
        { type: 'api_key', keyId: principal.keyId, userId: creator },
        { type: 'api_key', keyId: principal.keyId, userId: creator },
        { type: 'person', userId: approver },
        { type: 'person', userId: creator },
        { type: 'operator' },
      ]);
      expect(changes.map((change) => JSON.parse(change.changedFields))).toEqual([
        expect.arrayContaining(['name', 'agenda', 'numPeople']),
        ['agenda', 'name'],
        ['otherNotes'],
        ['status'],
        ['status'],
      ]);
      expect(changes.map((change) => change.data && JSON.parse(change.data))).toEqual([
        null,
        null,
        null,
        { from: 'draft', to: 'pending_approval' },
        { from: 'pending_approval', to: 'cancelled' },
      ]);
      // Each snapshot is the details right after its change, and occurredAt is when it happened.
      expect(changes.map((change) => JSON.parse(change.snapshot))).toEqual(snapshots);
      expect(changes.map((change) => change.occurredAt)).toEqual(
        snapshots.map((details) => details.updatedAt),
      );
      // The session removed is one operation addressed by its id, not a shift of the ones after it.
      const removal = diffOf(changes[1]!);
      expect(removal).toContainEqual({ op: 'remove', path: `/agenda/${closing}` });
      expect(
        removal.filter((operation: { path: string }) => operation.path.startsWith('/agenda')),
      ).toHaveLength(1);

      // The port reads the same records, newest first.
      const read = await store().events.changes(organizationId, id, { limit: 10 });
      expect(read.map((change) => change.sequence)).toEqual([5, 4, 3, 2, 1]);
      expect(read.map((change) => change.diff)).toEqual(changes.map(diffOf).reverse());
    });

    it('gives each snapshot by applying the diff to the one before', async () => {
      const { organizationId, principal } = await organization();
      const { id } = await createEvent(deps, principal, {
        name: 'Diffed',
        meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-05' }],
        agenda: [{ title: 'A', dates: ['2026-05-04'], startTime: '09:00', endTime: '10:00' }],
      });
      const first = await document(organizationId, id);
      const sessionId = first.agenda[0]!.id;
      const bodies: Record<string, unknown>[] = [
        { agendaOperations: [{ op: 'update', sessionId, session: { title: 'A/1 ~ renamed', capacity: 5 } }] },
        {
          accommodations: { '2026-05-03': { Single: 3 } },
          budgetBreakdown: { venue: 10.5 },
          formattedLocations: [{ city: 'Porto' }, { city: 'Faro', country: 'Portugal' }],
        },
        {
          agendaOperations: [
            {
              op: 'add',
              session: { title: 'B', dates: ['2026-05-05'], startTime: '11:00', endTime: '12:00' },
            },
          ],
          decisionFactors: ['price', 'access'],
        },
        {
          formattedLocations: [{ city: 'Faro', country: 'Portugal' }],
          accommodations: {},
          flexibility: null,
        },
        { agendaOperations: [{ op: 'remove', sessionId }], decisionFactors: [] },
      ];
      for (const body of bodies) {
        clock.advance(1000);
        await updateEvent(deps, principal, id, body);
      }
      const changes = await storedChanges(store(), organizationId);
      expect(changes).toHaveLength(bodies.length + 1);
      let previous: unknown = {};
      for (const change of changes) {
        const next = structuredClone(previous);
        const results = applyPatch(next, diffOf(change));
        expect(results.every((result) => result === null)).toBe(true);
        expect(next).toEqual(diffView(JSON.parse(change.snapshot)));
        previous = next;
      }
    });

    it('numbers concurrent changes of one event and of several events without gaps or duplicates', async () => {
      const { organizationId, principal } = await organization();
      const ids: string[] = [];
      for (let index = 0; index < 4; index++)
        ids.push((await createEvent(deps, principal, { name: `E${index}` })).id);
      const perEvent = 8;
      await Promise.all(
        ids.flatMap((id) =>
          range(perEvent).map((round) => updateEvent(deps, principal, id, { otherNotes: `${id} ${round}` })),
        ),
      );
      const changes = await storedChanges(store(), organizationId);
      const total = ids.length * (perEvent + 1);
      expect(changes.map((change) => change.sequence)).toEqual(range(total));
      for (const id of ids) {
        const own = changes.filter((change) => change.eventId === id);
        // In sequence order the revisions count up from 1: sequence follows each event's commit order.
        expect(own.map((change) => change.revision)).toEqual(range(perEvent + 1));
        let previous: unknown = {};
        for (const change of own) {
          const next = structuredClone(previous);
          applyPatch(next, diffOf(change));
          expect(next).toEqual(diffView(JSON.parse(change.snapshot)));
          previous = next;
        }
        expect(JSON.parse(own.at(-1)!.snapshot)).toEqual(await document(organizationId, id));
      }
      // Another organization numbers its own changes from 1.
      const other = await organization();
      await createEvent(deps, other.principal, { name: 'Elsewhere' });
      expect((await storedChanges(store(), other.organizationId)).map((change) => change.sequence)).toEqual([
        1,
      ]);
    });

    it('reads a created change stored with its whole diff, as earlier versions stored it, the same', async () => {
      const { organizationId, principal } = await organization();
      const { id } = await createEvent(deps, principal, {
        name: 'Stored before',
        meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-05' }],
        agenda: [{ title: 'A', dates: ['2026-05-04'], startTime: '09:00', endTime: '10:00' }],
      });
      await updateEvent(deps, principal, id, { numPeople: 4 });
      const read = async (from: Store) => ({
        changes: await from.events.changes(organizationId, id, { limit: 10 }),
        feed: await from.events.changesAfter(organizationId, { afterSequence: 0, limit: 10 }),
        created: await from.events.revision(organizationId, id, 1),
      });
      const expected = await read(store());
      expect(expected.changes[1]!.diff).toEqual(
        createPatch({}, diffView(JSON.parse(expected.created!.snapshot))),
      );

      // The same records, the create's diff written out in full, copied into a store of their own.
      const older = await openTestStore(backend);
      try {
        async function* records() {
          for await (const batch of store().transfer.exportRecords()) {
            if (batch.kind !== 'changes') {
              yield batch;
              continue;
            }
            const records = batch.records.map((change) =>
              change.type === 'event.created'
                ? { ...change, diff: JSON.stringify(createPatch({}, diffView(JSON.parse(change.snapshot)))) }
                : change,
            );
            yield { ...batch, records };
          }
        }
        await older.store.transfer.importRecords(records());
        const copied = (await storedChanges(older.store, organizationId)).find(
          (change) => change.eventId === id,
        );
        expect(copied!.diff).not.toBe('');
        expect(await read(older.store)).toEqual(expected);
      } finally {
        await older.destroy();
      }
    });

    it('never reuses a sequence number after a refused change', async () => {
      const { organizationId, principal } = await organization();
      const { id } = await createEvent(deps, principal, { name: 'Refused' });
      await expect(updateEvent(deps, principal, id, { numPeople: 'many' })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await updateEvent(deps, principal, id, { numPeople: 3 });
      expect((await storedChanges(store(), organizationId)).map((change) => change.sequence)).toEqual([1, 2]);
    });

    it('keeps the first server secret written, even when several instances race', async () => {
      const name = `secret-${randomUUID()}`;
      const candidates = range(6).map((index) => `candidate-${index}`);
      const answers = await Promise.all(
        candidates.map((candidate) => store().secrets.ensure(name, candidate)),
      );
      expect(new Set(answers).size).toBe(1);
      expect(candidates).toContain(answers[0]);
      expect(await store().secrets.ensure(name, 'later')).toBe(answers[0]);
    });
  });
}
