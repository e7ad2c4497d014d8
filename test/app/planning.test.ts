/** The planning dashboard's use cases (D15, D16) on every backend: visibility, lists, edits, moves. */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { randomIds } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { changeEventStatus } from '../../src/app/events.js';
import { addGroupMember, createGroup, createOrganization, createUser } from '../../src/app/organizations.js';
import {
  ACTIVE_STATUSES,
  createMyEvent,
  duplicateMyEvent,
  EVENTS_PER_PAGE,
  listMyEvents,
  moveMyEvent,
  type PersonRef,
  updateMyEvent,
  versionOf,
  viewMyEvent,
} from '../../src/app/planning.js';
import { statusChangeData } from '../../src/domain/changes.js';
import {
  ChecklistIncompleteError,
  EventCancelledError,
  MoveNotAllowedError,
  NotFoundError,
  NotInAGroupError,
  PreconditionFailedError,
  ValidationError,
} from '../../src/domain/errors.js';
import type { EventStatus } from '../../src/domain/types.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { asPerson, shortlistVenue } from '../helpers/sourcing.js';
import { testClock } from '../people/people-deps.js';

/** A body that passes the pre-send checklist. */
const READY = {
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 30,
  meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-06' }],
  decisionDeadline: '2026-04-01',
};

for (const backend of BACKENDS) {
  describeStore(backend, 'planning use cases', (store) => {
    let deps: AppDeps;
    const clock = testClock();
    let creator: PersonRef;
    let approver: PersonRef;
    let secondApprover: PersonRef;
    let sibling: PersonRef;
    let outsider: PersonRef;

    async function person(organizationId: string, groupId: string | undefined, role: 'member' | 'approver') {
      const { id: userId } = await createUser(deps, {
        organizationId,
        email: `${randomUUID()}@example.com`,
        name: 'Someone',
      });
      if (groupId) await addGroupMember(deps, { groupId, userId, role });
      return { organizationId, userId };
    }

    const history = async (id: string) => (await viewMyEvent(deps, creator, id)).history;

    beforeAll(async () => {
      deps = { store: store(), clock, ids: randomIds };
      const { id: org } = await createOrganization(deps, 'Planners');
      const { id: group } = await createGroup(deps, { organizationId: org, name: 'Team' });
      creator = await person(org, group, 'member');
      approver = await person(org, group, 'approver');
      secondApprover = await person(org, group, 'approver');
      // A member of the same group: not the creator, not an approver, so granted nothing.
      sibling = await person(org, group, 'member');
      const { id: otherOrg } = await createOrganization(deps, 'Elsewhere');
      const { id: otherGroup } = await createGroup(deps, { organizationId: otherOrg, name: 'Team' });
      outsider = await person(otherOrg, otherGroup, 'approver');
    });

    it('shows an event to its creator and approvers only; anyone else gets the 404 of a missing event', async () => {
      const { id, grantedTo } = await createMyEvent(deps, creator, { name: 'Visible', ...READY });
      expect(grantedTo).toBe(3);
      const seen = await viewMyEvent(deps, creator, id);
      expect(seen.details.name).toBe('Visible');
      expect(seen.isCreator).toBe(true);
      expect(seen.approvers.map((grantee) => grantee.userId).sort()).toEqual(
        [approver.userId, secondApprover.userId].sort(),
      );
      expect((await viewMyEvent(deps, approver, id.toUpperCase())).isCreator).toBe(false);
      for (const stranger of [sibling, outsider]) {
        await expect(viewMyEvent(deps, stranger, id)).rejects.toBeInstanceOf(NotFoundError);
        await expect(duplicateMyEvent(deps, stranger, id)).rejects.toBeInstanceOf(NotFoundError);
        await expect(
          updateMyEvent(deps, stranger, id, { name: 'Taken over' }, seen.version),
        ).rejects.toBeInstanceOf(NotFoundError);
        await expect(moveMyEvent(deps, stranger, id, { move: 'cancel', note: 'no' })).rejects.toBeInstanceOf(
          NotFoundError,
        );
        const listed = await listMyEvents(deps, stranger, { statuses: [], search: '', page: 1 });
        expect(listed.rows.map((row) => row.id)).not.toContain(id);
      }
      await expect(viewMyEvent(deps, creator, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
      await expect(viewMyEvent(deps, creator, 'not-an-id')).rejects.toBeInstanceOf(ValidationError);
      expect((await viewMyEvent(deps, creator, id)).details.name).toBe('Visible');
      for (const granted of [creator, approver]) {
        const listed = await listMyEvents(deps, granted, { statuses: [], search: 'Visible', page: 1 });
        expect(listed.rows.map((row) => row.id)).toEqual([id]);
        expect(listed.rows[0]!.creator.userId).toBe(creator.userId);
      }
    });

    it('refuses to create or duplicate for a person in no group, who could not see the event, and writes nothing', async () => {
      const { id: org } = await createOrganization(deps, 'Loners');
      const loner = await person(org, undefined, 'member');
      await expect(createMyEvent(deps, loner, { name: 'Invisible' })).rejects.toBeInstanceOf(
        NotInAGroupError,
      );
      const everything = await store().events.list(org, { offset: 0, limit: 10 });
      expect(everything.total).toBe(0);
      // Once in a group, the same person creates and sees the event.
      const { id: group } = await createGroup(deps, { organizationId: org, name: 'Now a team' });
      await addGroupMember(deps, { groupId: group, userId: loner.userId, role: 'member' });
      const { id, grantedTo } = await createMyEvent(deps, loner, { name: 'Visible now' });
      expect(grantedTo).toBe(1);
      expect((await viewMyEvent(deps, loner, id)).details.name).toBe('Visible now');
    });

    it('lists by status, by a name search that is case-insensitive and literal, page by page', async () => {
      const { id: org } = await createOrganization(deps, 'Lists');
      const { id: group } = await createGroup(deps, { organizationId: org, name: 'Team' });
      const planner = await person(org, group, 'member');
      const names = [
        'Gala à Genève',
        'Spring Summit',
        'summit 100% remote',
        'SUMMIT_2026',
        'Board dinner',
        'Closed summit',
      ];
      const ids: Record<string, string> = {};
      // Created a second apart: the list is newest first.
      for (const name of names) {
        clock.advance(1000);
        ids[name] = (await createMyEvent(deps, planner, { name })).id;
      }
      await changeEventStatus(deps, ids['Closed summit']!, 'cancelled');
      await changeEventStatus(deps, ids['Board dinner']!, 'booked');
      const search = async (text: string, statuses: readonly EventStatus[] = ACTIVE_STATUSES) =>
        (await listMyEvents(deps, planner, { statuses, search: text, page: 1 })).rows.map((row) => row.name);

      expect(await search('')).toEqual([
        'Board dinner',
        'SUMMIT_2026',
        'summit 100% remote',
        'Spring Summit',
        'Gala à Genève',
      ]);
      expect(await search('', [])).toHaveLength(6);
      expect(await search('', ['cancelled'])).toEqual(['Closed summit']);
      expect(await search('', ['booked', 'cancelled'])).toEqual(['Closed summit', 'Board dinner']);
      expect(await search('  sUmMiT ')).toEqual(['SUMMIT_2026', 'summit 100% remote', 'Spring Summit']);
      expect(await search('%')).toEqual(['summit 100% remote']);
      expect(await search('0%')).toEqual(['summit 100% remote']);
      expect(await search('_')).toEqual(['SUMMIT_2026']);
      expect(await search('t_2')).toEqual(['SUMMIT_2026']);
      expect(await search('summit', ['cancelled'])).toEqual(['Closed summit']);
      expect(await search('nothing like it')).toEqual([]);
      expect(await search('À GENÈVE')).toEqual(['Gala à Genève']);

      const more = EVENTS_PER_PAGE + 2 - names.length;
      for (let index = 0; index < more; index++) {
        clock.advance(1000);
        await createMyEvent(deps, planner, { name: `Bulk ${index}` });
      }
      const first = await listMyEvents(deps, planner, { statuses: [], search: '', page: 1 });
      const second = await listMyEvents(deps, planner, { statuses: [], search: '', page: 2 });
      expect(first).toMatchObject({ total: EVENTS_PER_PAGE + 2, page: 1, pageCount: 2 });
      expect(first.rows).toHaveLength(EVENTS_PER_PAGE);
      expect(second.rows).toHaveLength(2);
      expect(second.total).toBe(EVENTS_PER_PAGE + 2);
      expect(new Set([...first.rows, ...second.rows].map((row) => row.id)).size).toBe(EVENTS_PER_PAGE + 2);
      expect(second.rows.map((row) => row.name)).toEqual(['Spring Summit', 'Gala à Genève']);
      const beyond = await listMyEvents(deps, planner, { statuses: [], search: '', page: 3 });
      expect(beyond).toMatchObject({ rows: [], total: EVENTS_PER_PAGE + 2 });
      const bulk = await listMyEvents(deps, planner, { statuses: [], search: 'bulk', page: 1 });
      expect(bulk.total).toBe(more);
    });

    it('duplicates an event as a new draft with every writable field, named "… (copy)"', async () => {
      const { id } = await createMyEvent(deps, creator, {
        name: 'Original',
        currency: 'EUR',
        formattedLocations: [
          { city: 'Lisbon', country: 'Portugal' },
          { city: 'Porto', state: 'Norte' },
        ],
        numPeople: 12,
        budgetBreakdown: { venue: 1000.25, fb: 300 },
        flexibility: 'A week either way',
        decisionDeadline: '2026-04-01T17:00:00Z',
        accommodations: { '2026-05-04': { Single: 4, Double: 2 } },
        meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-05' }],
        agenda: [
          { title: 'Opening', dates: ['2026-05-04'], startTime: '09:00', endTime: '10:00', capacity: 12 },
        ],
        numMeetingRoomsNeeded: 2,
        foodBeverageRequirements: 'Vegetarian lunch',
        meetingRooms: 'One plenary',
        otherNotes: 'Other',
        notesForVenue: 'Step-free access',
        decisionFactors: ['price'],
        decisionFactorOtherText: 'Near the station',
        additionalServices: ['shuttle'],
      });
      await changeEventStatus(deps, id, 'booked');
      const original = (await viewMyEvent(deps, creator, id)).details;
      const { id: copyId } = await duplicateMyEvent(deps, approver, id);
      const copy = (await viewMyEvent(deps, approver, copyId)).details;
      expect(copyId).not.toBe(id);
      expect(copy.name).toBe('Original (copy)');
      expect(copy.status).toBe('draft');
      expect(copy.agenda).toHaveLength(1);
      expect(copy.agenda[0]!.id).not.toBe(original.agenda[0]!.id);
      const withoutIdentity = (details: typeof original) => {
        const {
          id: _id,
          name: _name,
          status: _status,
          createdAt: _c,
          updatedAt: _u,
          agenda,
          ...rest
        } = details;
        return { ...rest, agenda: agenda.map(({ id: _sessionId, ...session }) => session) };
      };
      expect(withoutIdentity(copy)).toEqual(withoutIdentity(original));
      // The duplicate is the duplicating person's own event.
      const created = (await viewMyEvent(deps, approver, copyId)).history;
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({
        type: 'event.created',
        actor: { type: 'person', userId: approver.userId },
      });
    });

    it('keeps the name of a duplicate within 100 characters', async () => {
      const long = `${'É'.repeat(60)}${'☕'.repeat(40)}`;
      const { id } = await createMyEvent(deps, creator, { name: long });
      const { id: copyId } = await duplicateMyEvent(deps, creator, id);
      const name = (await viewMyEvent(deps, creator, copyId)).details.name;
      expect([...name]).toHaveLength(100);
      expect(name.endsWith(' (copy)')).toBe(true);
      expect(long.startsWith(name.slice(0, -' (copy)'.length))).toBe(true);
    });

    it('updates all or nothing: with problems nothing is written, and a stale version writes nothing', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Editable', ...READY });
      const read = await viewMyEvent(deps, creator, id);
      const refused = updateMyEvent(
        deps,
        creator,
        id,
        { name: 'Half', numPeople: -3, bogus: 1 },
        read.version,
      );
      await expect(refused).rejects.toBeInstanceOf(ValidationError);
      await refused.catch((error: ValidationError) =>
        expect(error.problems.map((problem) => problem.field).sort()).toEqual(['bogus', 'numPeople']),
      );
      const unchanged = await viewMyEvent(deps, creator, id);
      expect(unchanged.details).toEqual(read.details);
      expect(unchanged.history).toHaveLength(1);

      const saved = await updateMyEvent(deps, approver, id, { name: 'Edited', numPeople: 31 }, read.version);
      expect(saved).toMatchObject({ name: 'Edited', numPeople: 31 });
      const afterSave = await viewMyEvent(deps, creator, id);
      expect(afterSave.version).toBe(versionOf(saved));
      expect(afterSave.history[0]).toMatchObject({
        type: 'event.updated',
        revision: 2,
        actor: { type: 'person', userId: approver.userId },
        changedFields: ['name', 'numPeople'],
      });

      // The form was read before that save: nothing of it is written.
      const stale = updateMyEvent(deps, creator, id, { otherNotes: 'Late' }, read.version);
      await expect(stale).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(await viewMyEvent(deps, creator, id)).toEqual(afterSave);

      // Saving what is already there changes nothing and records nothing.
      const same = await updateMyEvent(deps, creator, id, { name: 'Edited' }, afterSave.version);
      expect(same).toEqual(afterSave.details);
      expect(await history(id)).toHaveLength(2);
    });

    it('refuses an edit of a cancelled event as cancelled before judging its version, as PATCH does (D5)', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Called off', ...READY });
      const read = await viewMyEvent(deps, creator, id);
      await moveMyEvent(deps, creator, id, { move: 'cancel', note: 'Venue closed' });
      await expect(
        updateMyEvent(deps, creator, id, { otherNotes: 'Late' }, read.version),
      ).rejects.toBeInstanceOf(EventCancelledError);
      expect(await history(id)).toHaveLength(2);
    });

    it('records each move with who made it, its comment or reason', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Moving', ...READY });
      await shortlistVenue(deps, asPerson(creator), id);
      expect((await viewMyEvent(deps, creator, id)).moves).toEqual(['request_approval', 'cancel']);
      expect((await viewMyEvent(deps, approver, id)).moves).toEqual(['send_to_venues', 'cancel']);
      await expect(moveMyEvent(deps, creator, id, { move: 'send_to_venues' })).rejects.toBeInstanceOf(
        MoveNotAllowedError,
      );
      expect(await moveMyEvent(deps, creator, id, { move: 'request_approval' })).toBe('pending_approval');
      expect(
        await moveMyEvent(deps, approver, id, { move: 'return_to_draft', note: ' Add the budget ' }),
      ).toBe('draft');
      await moveMyEvent(deps, creator, id, { move: 'request_approval' });
      await moveMyEvent(deps, secondApprover, id, { move: 'approve_and_send' });
      await moveMyEvent(deps, creator, id, { move: 'cancel', note: 'Venue closed' });
      expect(await moveMyEvent(deps, approver, id, { move: 'reopen' })).toBe('wait_for_proposals');

      const moves = (await history(id)).filter((change) => change.type === 'event.status_changed').reverse();
      expect(moves.map((change) => [change.actor, change.data])).toEqual([
        [
          { type: 'person', userId: creator.userId },
          { from: 'draft', to: 'pending_approval' },
        ],
        [
          { type: 'person', userId: approver.userId },
          { from: 'pending_approval', to: 'draft', comment: 'Add the budget' },
        ],
        [
          { type: 'person', userId: creator.userId },
          { from: 'draft', to: 'pending_approval' },
        ],
        [
          { type: 'person', userId: secondApprover.userId },
          { from: 'pending_approval', to: 'wait_for_proposals' },
        ],
        [
          { type: 'person', userId: creator.userId },
          { from: 'wait_for_proposals', to: 'cancelled', reason: 'Venue closed' },
        ],
        [
          { type: 'person', userId: approver.userId },
          { from: 'cancelled', to: 'wait_for_proposals' },
        ],
      ]);
      expect(moves.every((change) => change.changedFields.join() === 'status')).toBe(true);
    });

    it('refuses a move the checklist blocks, and writes nothing', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Not ready' });
      const refused = moveMyEvent(deps, creator, id, { move: 'request_approval' });
      await expect(refused).rejects.toBeInstanceOf(ChecklistIncompleteError);
      expect((await viewMyEvent(deps, creator, id)).details.status).toBe('draft');
      expect(await history(id)).toHaveLength(1);
    });

    it('applies a move once when two people make it together, and refuses the one made stale', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Contested', ...READY });
      await shortlistVenue(deps, asPerson(creator), id);
      await moveMyEvent(deps, creator, id, { move: 'request_approval' });
      // Both approvers saw "Approve and send" on the page.
      expect((await viewMyEvent(deps, approver, id)).moves).toContain('approve_and_send');
      const results = await Promise.allSettled([
        moveMyEvent(deps, approver, id, { move: 'approve_and_send' }),
        moveMyEvent(deps, secondApprover, id, { move: 'approve_and_send' }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(MoveNotAllowedError);
      const approvals = (await history(id)).filter(
        (change) => statusChangeData(change)?.to === 'wait_for_proposals',
      );
      expect(approvals).toHaveLength(1);

      // The creator's page still offered "Return to draft"; the event has moved on since.
      await expect(
        moveMyEvent(deps, creator, id, { move: 'return_to_draft', note: 'Withdrawn' }),
      ).rejects.toBeInstanceOf(MoveNotAllowedError);
      expect((await viewMyEvent(deps, creator, id)).details.status).toBe('wait_for_proposals');
      // Created, approval requested, approved and sent, and the one venue's request sent.
      expect((await history(id)).map((change) => change.type).reverse()).toEqual([
        'event.created',
        'event.status_changed',
        'event.status_changed',
        'venue_request.sent',
      ]);
    });

    it('still lets an operator set any status, recorded as the operator', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Operated' });
      expect(await changeEventStatus(deps, id, 'completed')).toEqual({ id, status: 'completed' });
      expect(await changeEventStatus(deps, id, 'pending_approval')).toEqual({
        id,
        status: 'pending_approval',
      });
      const [latest, earlier] = await history(id);
      expect(latest).toMatchObject({
        type: 'event.status_changed',
        actor: { type: 'operator' },
        data: { from: 'completed', to: 'pending_approval' },
      });
      expect(earlier).toMatchObject({
        actor: { type: 'operator' },
        data: { from: 'draft', to: 'completed' },
      });
      // Setting the status it already has changes nothing.
      await changeEventStatus(deps, id, 'pending_approval');
      expect(await history(id)).toHaveLength(3);
    });

    it('knows what each change shown in the history set, before and after, even past the first page of it', async () => {
      const { id } = await createMyEvent(deps, creator, { name: 'Growing', numPeople: 1 });
      for (let people = 2; people <= 55; people++) {
        const { version } = await viewMyEvent(deps, creator, id);
        await updateMyEvent(deps, creator, id, { numPeople: people }, version);
      }
      const view = await viewMyEvent(deps, creator, id);
      // The 50 newest changes: the oldest shown is revision 6 (numPeople 5 → 6), read from revision 5's snapshot.
      expect(view.history).toHaveLength(50);
      const oldest = view.history[49]!;
      expect(oldest.revision).toBe(6);
      expect(view.changeValues.get(oldest.id)).toEqual({ before: { numPeople: 5 }, after: { numPeople: 6 } });
      expect(view.changeValues.get(view.history[0]!.id)).toEqual({
        before: { numPeople: 54 },
        after: { numPeople: 55 },
      });
      expect(view.changeValues.size).toBe(50);
    });
  });
}
