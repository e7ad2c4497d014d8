/**
 * Venue sourcing through the use cases, on every backend (D20–D24): the directory, the shortlist, the
 * send on each move into wait_for_proposals, the venue's link, proposals, turn-downs, withdrawals,
 * cancellation, awards (two at once included) and declines, each step recorded and each venue told.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomIds } from '../../src/adapters/system.js';
import { OPERATOR } from '../../src/app/change-event.js';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { apiKeyRequester, changeEventStatus, createEvent } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { moveMyEvent, viewMyEvent } from '../../src/app/planning.js';
import {
  openVenueRequest,
  readVenueRequest,
  submitVenueProposal,
  turnDownVenueRequest,
} from '../../src/app/venue-portal.js';
import {
  addVenueRequest,
  awardByOperator,
  awardVenueRequest,
  declineByOperator,
  declineVenueRequest,
  listProposals,
  listVenueRequests,
  submitProposalFor,
  viewEventSourcing,
  withdrawVenueRequest,
} from '../../src/app/venue-requests.js';
import { archiveVenueOf, createVenue, getVenue, listVenues, updateVenue } from '../../src/app/venues.js';
import { requestChangeData } from '../../src/domain/changes.js';
import {
  ChecklistIncompleteError,
  EventNotSourcingError,
  NotFoundError,
  PreconditionFailedError,
  ProposalExpiredError,
  RequestClosedError,
  RequestNotProposedError,
  RequestNotSentError,
  ValidationError,
  VenueAlreadyRequestedError,
  VenueArchivedError,
} from '../../src/domain/errors.js';
import type { OutboxMail } from '../../src/domain/mail.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { DAY, testClock } from '../people/people-deps.js';

const BASE = 'https://plan.example.com';
/** A body that passes D16's checklist but for the shortlist. */
const READY = {
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 30,
  meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-06' }],
  accommodations: { '2026-05-04': { Single: 10 }, '2026-05-05': { Single: 10 } },
  budgetBreakdown: { venue: 9000, fb: 3000 },
  otherNotes: 'Internal: the CFO wants it cheap',
  notesForVenue: 'Quiet rooms please',
  decisionDeadline: '2026-04-01',
};
const PROPOSAL = {
  validUntil: '2026-04-15',
  rooms: {
    '2026-05-04': { Single: { count: 10, rate: 150 } },
    '2026-05-05': { Single: { count: 8, rate: 150 } },
  },
  meetingRoomRental: 1200,
  roomTaxPercent: 10,
  attritionPercent: 10,
};

/** The token of a venue's link, from the mail that carried it. */
function tokenIn(mail: OutboxMail | undefined): string {
  const match = /\/rfp\/([0-9A-Za-z]+)/.exec(mail?.text ?? '');
  if (!match) throw new Error('no venue link in the mail');
  return match[1]!;
}

for (const backend of BACKENDS) {
  describeStore(backend, 'venue sourcing', (store) => {
    const clock = testClock();
    let deps: AppDeps;
    let demo: Awaited<ReturnType<typeof createDemo>>;
    let principal: Principal;
    const planner = () => apiKeyRequester(principal);
    const person = () => ({ organizationId: demo.organizationId, userId: demo.userId });
    const approver = () => ({ organizationId: demo.organizationId, userId: demo.approverId });

    beforeAll(async () => {
      deps = {
        store: store(),
        clock,
        ids: randomIds,
        mail: { from: { address: 'eventplan@plan.example.com', name: 'eventplan' }, publicBaseUrl: BASE },
      };
      await store().places.replaceAll(SAMPLE_PLACES, 'sample@1');
      demo = await createDemo(deps);
      principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
    });

    /** A new venue of the demo organization; its address unique, so its mails can be told apart. */
    const venue = (name = 'Hotel') =>
      createVenue(deps, planner(), { name, email: `${randomUUID()}@venues.example`, city: 'Lisbon' });

    /** A ready event with `count` new venues on its shortlist. */
    async function shortlisted(count: number, body: Record<string, unknown> = {}) {
      const { id } = await createEvent(deps, principal, { name: 'Summit', ...READY, ...body });
      const requests = [];
      for (let index = 0; index < count; index++) {
        const added = await venue(`Venue ${index}`);
        // A second apart, so the requests (oldest first) and each venue's mails (newest first) have an order.
        clock.advance(1000);
        requests.push(await addVenueRequest(deps, planner(), id, { venueId: added.id }));
      }
      return { id, requests };
    }

    /** The mails to `address`, newest first. */
    const mailTo = async (address: string) => store().mail.list({ to: address, limit: 20 });
    /** Moves the clock on a second: what happens next is ordered after what happened before. */
    const tick = () => clock.advance(1000);
    const records = async (eventId: string) =>
      (await store().events.changes(demo.organizationId, eventId, { limit: 100 })).reverse();

    /** An event sent to `count` venues, with each venue's link. */
    async function sent(count: number, body: Record<string, unknown> = {}) {
      const event = await shortlisted(count, body);
      await moveMyEvent(deps, person(), event.id, { move: 'request_approval' });
      await moveMyEvent(deps, approver(), event.id, { move: 'approve_and_send' });
      tick();
      const tokens: string[] = [];
      for (const request of event.requests) tokens.push(tokenIn((await mailTo(request.venue.email))[0]));
      return { ...event, tokens };
    }

    describe('the directory', () => {
      it('has the demo venues, in name order, searched by name or city', async () => {
        const all = await listVenues(deps, planner(), { page: 1, limit: 100 });
        expect(all.data.map((venue) => venue.name)).toEqual(
          expect.arrayContaining(['Alfama Palace Hotel', 'Casa do Rio Meeting Centre']),
        );
        const porto = await listVenues(deps, planner(), { q: ' PORTO ', page: 1, limit: 10 });
        expect(porto.data.map((venue) => venue.name)).toEqual(['Casa do Rio Meeting Centre']);
      });

      it('resolves the city like a candidate city, and again when it changes', async () => {
        const created = await createVenue(deps, planner(), {
          name: 'Ritz',
          email: 'ritz@venues.example',
          city: 'Lisbon',
          country: 'PT',
        });
        expect(created).toMatchObject({
          place_id: 'geonames:2267057',
          countryCode: 'PT',
          timeZone: 'Europe/Lisbon',
        });
        const moved = await updateVenue(deps, planner(), created.id, { city: 'Paris', country: 'France' });
        expect(moved).toMatchObject({ city: 'Paris', place_id: 'geonames:2988507', countryCode: 'FR' });
        const unresolved = await updateVenue(deps, planner(), created.id, {
          city: 'Springfield',
          country: 'US',
        });
        expect(unresolved.place_id).toBeUndefined();
        expect(await getVenue(deps, planner(), created.id.toUpperCase())).toEqual(unresolved);
      });

      it('is the same for a person and a key of the organization, and a 404 for any other', async () => {
        const created = await venue('Shared');
        expect(await getVenue(deps, person(), created.id)).toEqual(created);
        const other = await createDemo(deps);
        await expect(
          getVenue(deps, { organizationId: other.organizationId }, created.id),
        ).rejects.toBeInstanceOf(NotFoundError);
        await expect(getVenue(deps, planner(), 'nope')).rejects.toBeInstanceOf(ValidationError);
      });

      it('archives: out of the list, readable, refused for changes and new requests', async () => {
        const created = await venue('Archived Inn');
        const archived = await archiveVenueOf(deps, planner(), created.id);
        expect(archived.archivedAt).not.toBeNull();
        expect(await archiveVenueOf(deps, planner(), created.id)).toEqual(archived);
        const listed = await listVenues(deps, planner(), { q: 'archived inn', page: 1, limit: 10 });
        expect(listed.total).toBe(0);
        await expect(updateVenue(deps, planner(), created.id, { name: 'Back' })).rejects.toBeInstanceOf(
          VenueArchivedError,
        );
        const { id } = await createEvent(deps, principal, { name: 'Archived test' });
        await expect(addVenueRequest(deps, planner(), id, { venueId: created.id })).rejects.toBeInstanceOf(
          VenueArchivedError,
        );
      });
    });

    describe('the shortlist and sending', () => {
      it('shortlists while draft, nothing sent, nothing recorded; one request per venue', async () => {
        const { id, requests } = await shortlisted(1);
        expect(requests[0]).toMatchObject({ status: 'shortlisted', sentAt: null, proposal: null });
        expect(await mailTo(requests[0]!.venue.email)).toEqual([]);
        expect((await records(id)).map((change) => change.type)).toEqual(['event.created']);
        await expect(
          addVenueRequest(deps, planner(), id, { venueId: requests[0]!.venue.id }),
        ).rejects.toBeInstanceOf(VenueAlreadyRequestedError);
      });

      it('names the venue and the body in a 400 only once the event is found and sourcing', async () => {
        const { id } = await createEvent(deps, principal, { name: 'Checks' });
        await expect(addVenueRequest(deps, planner(), randomUUID(), { venueId: 'x' })).rejects.toBeInstanceOf(
          NotFoundError,
        );
        const unknown = addVenueRequest(deps, planner(), id, { venueId: randomUUID() });
        await expect(unknown).rejects.toMatchObject({
          problems: [{ field: 'venueId', code: 'unknown_venue' }],
        });
        const malformed = addVenueRequest(deps, planner(), id, { venueId: 'x', extra: 1 });
        await expect(malformed).rejects.toMatchObject({
          problems: [
            { field: 'extra', code: 'unknown_field' },
            { field: 'venueId', code: 'invalid_format' },
          ],
        });
        await changeEventStatus(deps, id, 'cancelled');
        await expect(addVenueRequest(deps, planner(), id, { venueId: 'x' })).rejects.toBeInstanceOf(
          EventNotSourcingError,
        );
      });

      it('needs a venue on the shortlist before "Request approval", and says so in the checklist', async () => {
        const { id } = await createEvent(deps, principal, { name: 'Empty shortlist', ...READY });
        const view = await viewMyEvent(deps, person(), id);
        expect(view.checklist.missing).toEqual([
          { field: 'venueRequests', message: 'Add at least one venue to the shortlist.' },
        ]);
        await expect(moveMyEvent(deps, person(), id, { move: 'request_approval' })).rejects.toBeInstanceOf(
          ChecklistIncompleteError,
        );
      });

      it('sends every shortlisted request on "Approve and send", with one mail and one record per venue', async () => {
        const { id, requests, tokens } = await sent(2);
        const types = (await records(id)).map((change) => change.type);
        expect(types.slice(-3)).toEqual(['event.status_changed', 'venue_request.sent', 'venue_request.sent']);
        const last = (await records(id)).slice(-2);
        expect(last.map((change) => requestChangeData(change)?.requestId)).toEqual(requests.map((r) => r.id));
        expect(
          last.every((change) => change.actor.type === 'person' && change.changedFields.length === 0),
        ).toBe(true);
        const listed = await listVenueRequests(deps, planner(), id);
        expect(listed.data.map((request) => request.status)).toEqual(['sent', 'sent']);
        // Due on the event's decision deadline.
        expect(listed.data[0]).toMatchObject({ responseDueDate: '2026-04-01', sentAt: expect.any(String) });
        const [mail] = await mailTo(requests[0]!.venue.email);
        expect(mail).toMatchObject({
          subject: 'Request for proposal: Summit (Demo organization)',
          replyTo: { address: 'planner@example.com', name: 'Planner' },
        });
        expect(mail!.text).toContain(`${BASE}/rfp/${tokens[0]}`);
        expect(mail!.text).toContain('Please answer by: 1 Apr 2026');
        expect(tokens[0]).toMatch(/^[0-9A-Za-z]{32}$/);
        expect(tokens[0]).not.toBe(tokens[1]);
        // Only the hash is stored.
        const exported = [];
        for await (const batch of store().transfer.exportRecords())
          if (batch.kind === 'venueRequests') exported.push(...batch.records);
        expect(JSON.stringify(exported)).not.toContain(tokens[0]);
      });

      it("sends the shortlist on the operator's move into wait_for_proposals too", async () => {
        const { id, requests } = await shortlisted(1);
        await changeEventStatus(deps, id, 'wait_for_proposals');
        expect((await listVenueRequests(deps, planner(), id)).data[0]!.status).toBe('sent');
        expect(await mailTo(requests[0]!.venue.email)).toHaveLength(1);
        const last = (await records(id)).at(-1)!;
        expect(last).toMatchObject({ type: 'venue_request.sent', actor: { type: 'operator' } });
      });

      it('sends a venue added while venues are asked at once, due 14 days on without a deadline', async () => {
        const { id } = await shortlisted(1, { decisionDeadline: null });
        await changeEventStatus(deps, id, 'wait_for_proposals');
        const added = await venue('Late addition');
        const request = await addVenueRequest(deps, planner(), id, { venueId: added.id });
        expect(request).toMatchObject({
          status: 'sent',
          responseDueDate: new Date(clock.now().getTime() + 14 * DAY).toISOString().slice(0, 10),
        });
        expect(await mailTo(added.email)).toHaveLength(1);
        expect((await records(id)).at(-1)).toMatchObject({
          type: 'venue_request.sent',
          actor: { type: 'api_key', keyId: demo.keyId },
        });
      });

      it('removes a shortlisted request and withdraws an open one, telling its venue', async () => {
        const { id, requests } = await shortlisted(1);
        expect(await withdrawVenueRequest(deps, planner(), id, requests[0]!.id)).toEqual({ removed: true });
        expect((await listVenueRequests(deps, planner(), id)).data).toEqual([]);
        const open = await sent(1);
        tick();
        const withdrawn = await withdrawVenueRequest(deps, planner(), open.id, open.requests[0]!.id);
        expect(withdrawn).toMatchObject({ removed: false, request: { status: 'withdrawn' } });
        const [mail] = await mailTo(open.requests[0]!.venue.email);
        expect(mail?.subject).toBe('Request withdrawn: Summit (Demo organization)');
        await expect(
          withdrawVenueRequest(deps, planner(), open.id, open.requests[0]!.id),
        ).rejects.toBeInstanceOf(RequestClosedError);
        await expect(submitVenueProposal(deps, open.tokens[0]!, PROPOSAL)).rejects.toBeInstanceOf(
          RequestClosedError,
        );
      });

      it('withdraws every open request when the event is cancelled, keeping the shortlist', async () => {
        const { id, requests, tokens } = await sent(2);
        await turnDownVenueRequest(deps, tokens[1]!, { reason: 'dates_unavailable' });
        const later = await venue('Shortlisted later');
        await changeEventStatus(deps, id, 'draft');
        tick();
        await addVenueRequest(deps, planner(), id, { venueId: later.id });
        tick();
        await moveMyEvent(deps, person(), id, { move: 'cancel', note: 'Budget cut' });
        const statuses = (await listVenueRequests(deps, planner(), id)).data.map((request) => request.status);
        expect(statuses).toEqual(['withdrawn', 'turned_down', 'shortlisted']);
        const [mail] = await mailTo(requests[0]!.venue.email);
        expect(mail?.subject).toBe('Request withdrawn: Summit (Demo organization)');
        expect(mail?.text).toContain('has cancelled Summit');
        expect(mail?.text).not.toContain('Budget cut');
        expect(await mailTo(later.email)).toEqual([]);
        const page = await readVenueRequest(deps, tokens[0]!);
        expect(page.open).toBe(false);
      });
    });

    describe("the venue's link", () => {
      it('shows the request as the venue may see it, and marks it viewed once', async () => {
        const { requests, tokens } = await sent(2);
        const page = await openVenueRequest(deps, tokens[0]!);
        expect(page).toMatchObject({
          organizationName: 'Demo organization',
          planner: { name: 'Planner', email: 'planner@example.com' },
          venue: requests[0]!.venue,
          open: true,
          request: { id: requests[0]!.id, status: 'viewed', viewedAt: clock.now().toISOString() },
          event: {
            name: 'Summit',
            numPeople: 30,
            notesForVenue: 'Quiet rooms please',
            cities: ['Lisbon, Portugal'],
          },
          proposal: null,
        });
        const shown = JSON.stringify(page);
        for (const hidden of [
          'budgetBreakdown',
          'otherNotes',
          'CFO',
          'approver@example.com',
          requests[1]!.venue.name,
        ]) {
          expect(shown).not.toContain(hidden);
        }
        clock.advance(1000);
        expect((await openVenueRequest(deps, tokens[0]!)).request.viewedAt).toBe(page.request.viewedAt);
      });

      it('answers an unknown or malformed token with the same 404', async () => {
        for (const token of ['A'.repeat(32), 'not a token', '', 'x'.repeat(500)]) {
          await expect(openVenueRequest(deps, token)).rejects.toThrow('This link is not valid.');
        }
      });

      it("takes a proposal: the event moves to proposals_received, recorded as the venue's", async () => {
        const { id, requests, tokens } = await sent(2);
        const proposal = await submitVenueProposal(deps, tokens[0]!, PROPOSAL);
        expect(proposal).toMatchObject({ revision: 1, submittedBy: 'venue', currency: 'USD' });
        expect(proposal).not.toHaveProperty('budget');
        expect(proposal.totals).toEqual({
          rooms: 2700,
          roomTax: 270,
          meetingRooms: 1200,
          foodBeverage: 0,
          av: 0,
          other: 0,
          total: 4170,
        });
        const tail = (await records(id)).slice(-2);
        const venueActor = { type: 'venue', venueId: requests[0]!.venue.id };
        expect(tail.map((change) => [change.type, change.actor])).toEqual([
          ['event.status_changed', venueActor],
          ['proposal.submitted', venueActor],
        ]);
        expect(tail[1]!.data).toEqual({
          requestId: requests[0]!.id,
          venueId: requests[0]!.venue.id,
          proposalRevision: 1,
        });
        const revised = await submitVenueProposal(deps, tokens[0]!, { ...PROPOSAL, meetingRoomRental: 900 });
        expect(revised.revision).toBe(2);
        expect((await records(id)).at(-1)?.type).toBe('proposal.submitted');
        const listed = await listProposals(deps, planner(), id, requests[0]!.id);
        expect(listed.data.map((entry) => entry.revision)).toEqual([2, 1]);
        expect(listed.data[0]!.budget).toEqual({
          venue: { budgeted: 9000, proposed: 3870 },
          fb: { budgeted: 3000, proposed: 0 },
        });
        const event = await store().events.find(demo.organizationId, id);
        expect(event?.details.status).toBe('proposals_received');
      });

      it('names every problem of a proposal and writes nothing; a closed request is a 409 before that', async () => {
        const { id, tokens } = await sent(1);
        const refused = submitVenueProposal(deps, tokens[0]!, { validUntil: '2020-01-01', rooms: { x: 1 } });
        await expect(refused).rejects.toBeInstanceOf(ValidationError);
        await expect(refused).rejects.toMatchObject({
          problems: expect.arrayContaining([
            expect.objectContaining({ field: 'validUntil', code: 'in_the_past' }),
          ]),
        });
        expect((await store().events.find(demo.organizationId, id))?.details.status).toBe(
          'wait_for_proposals',
        );
        await turnDownVenueRequest(deps, tokens[0]!, { reason: 'other', comment: 'Renovation' });
        await expect(submitVenueProposal(deps, tokens[0]!, { nonsense: true })).rejects.toBeInstanceOf(
          RequestClosedError,
        );
        await expect(turnDownVenueRequest(deps, tokens[0]!, {})).rejects.toBeInstanceOf(RequestClosedError);
      });

      it('needs a comment to turn down for another reason, and records the turn-down', async () => {
        const { id, requests, tokens } = await sent(1);
        await expect(turnDownVenueRequest(deps, tokens[0]!, { reason: 'other' })).rejects.toMatchObject({
          problems: [{ field: 'comment', code: 'required' }],
        });
        const page = await turnDownVenueRequest(deps, tokens[0]!, {
          reason: 'rate_too_low',
          comment: 'Sorry',
        });
        expect(page).toMatchObject({
          open: false,
          request: { status: 'turned_down', turnDown: { reason: 'rate_too_low', comment: 'Sorry' } },
        });
        expect((await records(id)).at(-1)).toMatchObject({
          type: 'venue_request.turned_down',
          actor: { type: 'venue', venueId: requests[0]!.venue.id },
        });
      });
    });

    describe('a planner entering a proposal', () => {
      it("records the key's user as the actor, and refuses a request still on the shortlist", async () => {
        const { id, requests } = await shortlisted(1);
        await expect(
          submitProposalFor(deps, planner(), id, requests[0]!.id, PROPOSAL),
        ).rejects.toBeInstanceOf(RequestNotSentError);
        await changeEventStatus(deps, id, 'wait_for_proposals');
        const proposal = await submitProposalFor(deps, planner(), id, requests[0]!.id, PROPOSAL);
        expect(proposal).toMatchObject({ submittedBy: 'planner', budget: { venue: { budgeted: 9000 } } });
        const tail = (await records(id)).slice(-2);
        expect(tail.map((change) => change.actor)).toEqual([
          { type: 'api_key', keyId: demo.keyId, userId: demo.userId },
          { type: 'api_key', keyId: demo.keyId, userId: demo.userId },
        ]);
        await expect(submitProposalFor(deps, planner(), id, randomUUID(), PROPOSAL)).rejects.toBeInstanceOf(
          NotFoundError,
        );
      });
    });

    describe('awarding and declining', () => {
      it('awards atomically: booked, the others declined, unanswered, withdrawn; every venue told', async () => {
        const { id, requests, tokens } = await sent(3);
        await submitVenueProposal(deps, tokens[0]!, PROPOSAL);
        await submitVenueProposal(deps, tokens[1]!, PROPOSAL);
        const listedLate = await venue('Never sent');
        await changeEventStatus(deps, id, 'draft');
        tick();
        await addVenueRequest(deps, planner(), id, { venueId: listedLate.id });
        await changeEventStatus(deps, id, 'proposals_received');
        tick();
        // The operator's move into proposals_received sent the late one too.
        expect(await mailTo(listedLate.email)).toHaveLength(1);
        await withdrawVenueRequest(
          deps,
          planner(),
          id,
          (await listVenueRequests(deps, planner(), id)).data[3]!.id,
        );

        const awarded = await awardVenueRequest(deps, planner(), id, requests[0]!.id, {
          comment: 'Best <view>',
        });
        expect(awarded).toMatchObject({
          status: 'awarded',
          decision: { reason: null, comment: 'Best <view>' },
        });
        const statuses = (await listVenueRequests(deps, planner(), id)).data.map((request) => [
          request.status,
          request.decision,
        ]);
        expect(statuses).toEqual([
          ['awarded', { reason: null, comment: 'Best <view>' }],
          ['declined', { reason: 'selected_other_venue', comment: null }],
          ['no_response', null],
          ['withdrawn', null],
        ]);
        expect((await store().events.find(demo.organizationId, id))?.details.status).toBe('booked');
        const subjects = async (index: number) =>
          (await mailTo(requests[index]!.venue.email)).map((mail) => mail.subject);
        expect((await subjects(0))[0]).toBe('Proposal accepted: Summit (Demo organization)');
        expect((await subjects(1))[0]).toBe('Proposal declined: Summit (Demo organization)');
        expect((await subjects(2))[0]).toBe('Request closed: Summit (Demo organization)');
        const [accepted] = await mailTo(requests[0]!.venue.email);
        expect(accepted!.html).toContain('Best &lt;view&gt;');
        const [declined] = await mailTo(requests[1]!.venue.email);
        expect(declined!.text).toContain('Reason: Another venue was selected');
        const tail = (await records(id)).slice(-4).map((change) => change.type);
        expect(tail).toEqual([
          'event.status_changed',
          'venue_request.awarded',
          'venue_request.declined',
          'venue_request.no_response',
        ]);
        await expect(awardVenueRequest(deps, planner(), id, requests[1]!.id, {})).rejects.toBeInstanceOf(
          EventNotSourcingError,
        );
        await expect(submitVenueProposal(deps, tokens[2]!, PROPOSAL)).rejects.toBeInstanceOf(
          RequestClosedError,
        );
      });

      it('lets exactly one of two awards made at the same moment win; the other is told', async () => {
        for (let round = 0; round < 3; round++) {
          const { id, requests, tokens } = await sent(2);
          await submitVenueProposal(deps, tokens[0]!, PROPOSAL);
          await submitVenueProposal(deps, tokens[1]!, PROPOSAL);
          const results = await Promise.allSettled([
            awardVenueRequest(deps, planner(), id, requests[0]!.id, {}),
            awardVenueRequest(deps, planner(), id, requests[1]!.id, {}),
          ]);
          expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
          const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
          expect(refused.reason).toBeInstanceOf(EventNotSourcingError);
          const statuses = (await listVenueRequests(deps, planner(), id)).data.map(
            (request) => request.status,
          );
          expect(statuses.filter((status) => status === 'awarded')).toHaveLength(1);
          expect(statuses.filter((status) => status === 'declined')).toHaveLength(1);
          const awards = (await records(id)).filter((change) => change.type === 'venue_request.awarded');
          expect(awards).toHaveLength(1);
        }
      });

      it('refuses to award an expired proposal or a request without one, and a stale page', async () => {
        const { id, requests, tokens } = await sent(2);
        await submitVenueProposal(deps, tokens[0]!, { ...PROPOSAL, validUntil: '2026-03-02' });
        await expect(awardVenueRequest(deps, planner(), id, requests[1]!.id, {})).rejects.toBeInstanceOf(
          RequestNotProposedError,
        );
        const view = await viewEventSourcing(
          deps,
          {
            scope: 'grants',
            organizationId: demo.organizationId,
            actor: { type: 'person', userId: demo.userId },
          },
          id,
        );
        await submitVenueProposal(deps, tokens[1]!, PROPOSAL);
        await expect(
          awardVenueRequest(deps, planner(), id, requests[0]!.id, {}, { sourcingVersion: view.version }),
        ).rejects.toBeInstanceOf(PreconditionFailedError);
        clock.advance(3 * DAY);
        await expect(awardVenueRequest(deps, planner(), id, requests[0]!.id, {})).rejects.toBeInstanceOf(
          ProposalExpiredError,
        );
        expect((await store().events.find(demo.organizationId, id))?.details.status).toBe(
          'proposals_received',
        );
        clock.advance(-3 * DAY);
      });

      it('declines one proposal with a reason in words, naming a missing reason first as a 400', async () => {
        const { id, requests, tokens } = await sent(2);
        await expect(declineVenueRequest(deps, planner(), id, requests[0]!.id, {})).rejects.toBeInstanceOf(
          RequestNotProposedError,
        );
        await submitVenueProposal(deps, tokens[0]!, PROPOSAL);
        tick();
        await expect(declineVenueRequest(deps, planner(), id, requests[0]!.id, {})).rejects.toMatchObject({
          problems: [{ field: 'reason', code: 'required' }],
        });
        const declined = await declineVenueRequest(deps, planner(), id, requests[0]!.id, {
          reason: 'rate_too_high',
          comment: 'Over budget',
        });
        expect(declined).toMatchObject({
          status: 'declined',
          decision: { reason: 'rate_too_high', comment: 'Over budget' },
        });
        const [mail] = await mailTo(requests[0]!.venue.email);
        expect(mail?.text).toContain('Reason: The room rate is too high');
        expect(mail?.text).toContain('Comment: Over budget');
        expect((await store().events.find(demo.organizationId, id))?.details.status).toBe(
          'proposals_received',
        );
      });

      it('awards and declines for the operator, addressing the request by id alone', async () => {
        const { id, requests, tokens } = await sent(2);
        await submitVenueProposal(deps, tokens[0]!, PROPOSAL);
        await submitVenueProposal(deps, tokens[1]!, PROPOSAL);
        expect(await declineByOperator(deps, requests[1]!.id, 'late_response')).toEqual({
          id: requests[1]!.id,
          eventId: id,
          status: 'declined',
          eventStatus: 'proposals_received',
        });
        expect(await awardByOperator(deps, requests[0]!.id.toUpperCase(), 'Signed')).toMatchObject({
          status: 'awarded',
          eventStatus: 'booked',
        });
        expect((await records(id)).at(-2)?.actor).toEqual({ type: 'operator' });
        await expect(awardByOperator(deps, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
      });
    });

    describe('for a person in the dashboard', () => {
      it('shows the requests with their proposals, the marks and a version, only on a granted event', async () => {
        const { id, requests, tokens } = await sent(2);
        await submitVenueProposal(deps, tokens[0]!, PROPOSAL);
        await submitVenueProposal(deps, tokens[1]!, { ...PROPOSAL, meetingRoomRental: 100 });
        const personRequester = {
          scope: 'grants' as const,
          organizationId: demo.organizationId,
          actor: { type: 'person' as const, userId: demo.userId },
        };
        const view = await viewEventSourcing(deps, personRequester, id);
        expect(view.requests.map((request) => request.proposal?.revision)).toEqual([1, 1]);
        expect(view.marks.lowestTotal).toEqual({ USD: [requests[1]!.id] });
        expect(view.version).toMatch(/^[\w-]{32}$/);
        const decided = await awardVenueRequest(
          deps,
          personRequester,
          id,
          requests[1]!.id,
          {},
          {
            sourcingVersion: view.version,
          },
        );
        expect(decided.status).toBe('awarded');
        const history = await viewMyEvent(deps, person(), id);
        expect(history.venues[requests[0]!.venue.id]).toBe(requests[0]!.venue.name);
        const { organizationId: otherOrg } = await createDemo(deps);
        await expect(
          viewEventSourcing(deps, { ...personRequester, organizationId: otherOrg }, id),
        ).rejects.toBeInstanceOf(NotFoundError);
      });
    });

    it('records nothing for an operator reopening into a status that sends nothing', async () => {
      const { id } = await shortlisted(1);
      await changeEventStatus(deps, id, 'cancelled');
      await changeEventStatus(deps, id, 'reopen');
      expect((await listVenueRequests(deps, OPERATOR, id)).data[0]!.status).toBe('shortlisted');
    });
  });
}
