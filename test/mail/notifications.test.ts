/**
 * The mails that tell people what waits for them (D24), end to end on every backend: the real use
 * cases queue them in the change's transaction, the real dispatcher and SMTP transport deliver them
 * to a real SMTP server in this process, read back as a mail client would. Each notification, who
 * gets it and who never does (its author, a deactivated person, a person who switched it off), and
 * nothing for a refused change. Also `user invite --send`'s mail, delivered.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSmtpTransport } from '../../src/adapters/mail/smtp-transport.js';
import { randomIds } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { apiKeyRequester, changeEventStatus, createEvent } from '../../src/app/events.js';
import { createMailDispatcher, type MailDispatcher } from '../../src/app/mail-dispatcher.js';
import { saveNotificationSwitches } from '../../src/app/notification-settings.js';
import { addGroupMember, createDemo, createUser, deactivateUser } from '../../src/app/organizations.js';
import { mailInvite } from '../../src/app/people.js';
import { moveMyEvent } from '../../src/app/planning.js';
import { submitVenueProposal, turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { addVenueRequest, submitProposalFor } from '../../src/app/venue-requests.js';
import { createVenue } from '../../src/app/venues.js';
import { MoveNotAllowedError, ValidationError } from '../../src/domain/errors.js';
import type { MailAddress } from '../../src/domain/mail.js';
import { href } from '../../src/web/href.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { testClock } from '../people/people-deps.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from './smtp-sink.js';

const BASE = 'https://plan.example.com';
const FROM: MailAddress = { address: 'eventplan@plan.example.com', name: 'eventplan' };
/** A body that passes D16's checklist but for the shortlist. */
const READY = {
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 30,
  meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-06' }],
  accommodations: { '2026-05-04': { Single: 10 } },
  decisionDeadline: '2026-04-01',
};
const PROPOSAL = {
  validUntil: '2026-04-15',
  rooms: { '2026-05-04': { Single: { count: 10, rate: 150 } } },
  meetingRoomRental: 1200,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of BACKENDS) {
  describeStore(backend, 'people told by mail', (store) => {
    const clock = testClock();
    let deps: AppDeps;
    let demo: Awaited<ReturnType<typeof createDemo>>;
    let sink: SmtpSink;
    let dispatcher: MailDispatcher;
    let transport: ReturnType<typeof createSmtpTransport>;
    /** A second approver, and an approver who has left (deactivated). */
    let carlId: string;
    let danId: string;

    const planner = () => ({ organizationId: demo.organizationId, userId: demo.userId });
    const approver = () => ({ organizationId: demo.organizationId, userId: demo.approverId });
    const carl = () => ({ organizationId: demo.organizationId, userId: carlId });
    const key = () =>
      apiKeyRequester({ organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId });

    /** Every mail the SMTP server accepted once the outbox is empty, whose subject starts so. */
    async function delivered(subject: string): Promise<ReceivedMail[]> {
      const started = Date.now();
      while ((await store().mail.stats()).pending > 0) {
        if (Date.now() - started > 15_000) throw new Error('the outbox did not empty in time');
        await sleep(20);
      }
      return sink.received.filter((mail) => mail.parsed.subject?.startsWith(subject));
    }
    const to = (mails: readonly ReceivedMail[]) => mails.flatMap((mail) => mail.envelope.to).sort();

    beforeAll(async () => {
      deps = { store: store(), clock, ids: randomIds, mail: { from: FROM, publicBaseUrl: BASE } };
      await store().places.replaceAll(SAMPLE_PLACES, 'sample@1');
      demo = await createDemo(deps);
      carlId = (await createUser(deps, { organizationId: demo.organizationId, email: 'carl@example.com' }))
        .id;
      danId = (await createUser(deps, { organizationId: demo.organizationId, email: 'dan@example.com' })).id;
      await addGroupMember(deps, { groupId: demo.groupId, userId: carlId, role: 'approver' });
      await addGroupMember(deps, { groupId: demo.groupId, userId: danId, role: 'approver' });
      sink = await startSmtpSink();
      transport = createSmtpTransport({ url: sink.url, maxConnections: 2 });
      dispatcher = createMailDispatcher(deps, {
        transport,
        from: FROM,
        retrySchedule: [100],
        pollIntervalMs: 20,
        attemptTimeoutMs: 5000,
      });
      dispatcher.start();
    });
    afterAll(async () => {
      await dispatcher?.stop();
      await transport?.close();
      await sink?.close();
    });

    /** A ready event of the planner with one new venue per name on its shortlist, granted to every approver. */
    async function readyEvent(name: string, venues: string[] = ['Hotel Central']) {
      const { id } = await createEvent(
        deps,
        { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId },
        { name, ...READY },
      );
      const requests = [];
      for (const venueName of venues) {
        const venue = await createVenue(deps, key(), {
          name: venueName,
          email: `${randomUUID()}@venues.example`,
          city: 'Lisbon',
        });
        requests.push(await addVenueRequest(deps, key(), id, { venueId: venue.id }));
      }
      return { id, requests };
    }

    /** The venue's link token, from the request mail that carried it, as delivered (the outbox erases it once sent). */
    async function tokenOf(venueEmail: string): Promise<string> {
      const [mail] = (await delivered('Request for proposal:')).filter((one) =>
        one.envelope.to.includes(venueEmail),
      );
      return /\/rfp\/([0-9A-Za-z]+)/.exec(mail?.parsed.text ?? '')![1]!;
    }

    it('asks every active approver for approval, never the planner who asked, with a link to the event', async () => {
      const { id } = await readyEvent('Approval summit');
      // Granted on the event while active; deactivated since.
      expect((await store().events.grantees(demo.organizationId, id)).map((one) => one.email)).toContain(
        'dan@example.com',
      );
      await deactivateUser(deps, danId);
      await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
      const mails = await delivered('Approval requested: Approval summit');
      expect(to(mails)).toEqual(['approver@example.com', 'carl@example.com']);
      const [mail] = mails;
      expect(mail!.parsed.text).toContain('Planner asks you to approve Approval summit.');
      expect(mail!.parsed.text).toContain(`${BASE}/app/events/${id}`);
      expect(mail!.parsed.html).toContain(`href="${BASE}${href.event(id)}"`);
      expect(mail!.parsed.text).toContain(`switch them off on your account page:\n${BASE}${href.account()}`);
      expect(mail!.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    });

    it('tells the planner the event was returned to draft, with the comment, and was approved', async () => {
      const { id, requests } = await readyEvent('Answered summit');
      await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
      await moveMyEvent(deps, approver(), id, { move: 'return_to_draft', note: 'Add the <b>budget</b>' });
      const [returned, ...others] = await delivered('Returned to draft: Answered summit');
      expect(others).toEqual([]);
      expect(returned!.envelope.to).toEqual(['planner@example.com']);
      expect(returned!.parsed.text).toContain('Approver returned Answered summit to draft');
      expect(returned!.parsed.text).toContain('Comment: Add the <b>budget</b>');
      expect(returned!.parsed.html).toContain('Add the &lt;b&gt;budget&lt;/b&gt;');

      await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
      await moveMyEvent(deps, carl(), id, { move: 'approve_and_send' });
      const approved = await delivered('Approved: Answered summit');
      expect(to(approved)).toEqual(['planner@example.com']);
      expect(approved[0]!.parsed.text).toContain('carl@example.com approved Answered summit.');
      // The venue is asked in the same change; no person is told of it.
      expect(to(await delivered('Request for proposal: Answered summit'))).toEqual([
        requests[0]!.venue.email,
      ]);
    });

    it('names no one when the operator moves the event, and still tells the approvers', async () => {
      const { id } = await readyEvent('Operator summit');
      await changeEventStatus(deps, id, 'pending_approval');
      const mails = await delivered('Approval requested: Operator summit');
      expect(to(mails)).toEqual(['approver@example.com', 'carl@example.com']);
      expect(mails[0]!.parsed.text).toContain('Operator summit is waiting for your approval.');
      expect(mails[0]!.parsed.text).not.toContain('Asked by');
    });

    it('sends nothing for a refused move', async () => {
      const { id } = await readyEvent('Refused summit');
      await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
      await expect(moveMyEvent(deps, planner(), id, { move: 'approve_and_send' })).rejects.toBeInstanceOf(
        MoveNotAllowedError,
      );
      expect(await delivered('Approved: Refused summit')).toEqual([]);
    });

    it('tells everyone granted of a proposal and its revision, and of a venue turning down, linking to the Proposals tab', async () => {
      const { id, requests } = await readyEvent('Sourced summit', ['Hotel Central', 'Casa Azul']);
      await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
      await moveMyEvent(deps, approver(), id, { move: 'approve_and_send' });
      const [central, azul] = [
        await tokenOf(requests[0]!.venue.email),
        await tokenOf(requests[1]!.venue.email),
      ];

      await submitVenueProposal(deps, central, PROPOSAL);
      const received = await delivered('Proposal received: Hotel Central for Sourced summit');
      expect(to(received)).toEqual(['approver@example.com', 'carl@example.com', 'planner@example.com']);
      expect(received[0]!.parsed.text).toContain('Hotel Central sent a proposal for Sourced summit.');
      expect(received[0]!.parsed.text).toContain('Total: USD 2,700.00');
      expect(received[0]!.parsed.text).toContain(`${BASE}/app/events/${id}/proposals`);

      await submitVenueProposal(deps, central, { ...PROPOSAL, meetingRoomRental: 1000 });
      const revised = await delivered('Proposal revised: Hotel Central for Sourced summit');
      expect(to(revised)).toHaveLength(3);
      expect(revised[0]!.parsed.text).toContain('(revision 2)');

      await expect(submitVenueProposal(deps, central, { validUntil: 'soon' })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(await delivered('Proposal revised: Hotel Central for Sourced summit')).toHaveLength(3);

      await turnDownVenueRequest(deps, azul, { reason: 'dates_unavailable' });
      const turnedDown = await delivered('Turned down: Casa Azul for Sourced summit');
      expect(to(turnedDown)).toEqual(['approver@example.com', 'carl@example.com', 'planner@example.com']);
      expect(turnedDown[0]!.parsed.text).toContain('Reason: The dates are not available');
    });

    it('tells the others, not the planner, of a proposal the planner entered for a venue', async () => {
      const { id, requests } = await readyEvent('Entered summit');
      await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
      await moveMyEvent(deps, approver(), id, { move: 'approve_and_send' });
      await submitProposalFor(deps, key(), id, requests[0]!.id, PROPOSAL);
      const mails = await delivered('Proposal received: Hotel Central for Entered summit');
      expect(to(mails)).toEqual(['approver@example.com', 'carl@example.com']);
      expect(mails[0]!.parsed.text).toContain(
        'Planner entered a proposal from Hotel Central for Entered summit.',
      );
    });

    it('respects each person’s switches, kind by kind', async () => {
      await saveNotificationSwitches(deps, carl(), ['approval_answered', 'venue_turned_down']);
      await saveNotificationSwitches(deps, planner(), ['approval_requested', 'approval_answered']);
      try {
        const { id, requests } = await readyEvent('Quiet summit', ['Hotel Central', 'Casa Azul']);
        await moveMyEvent(deps, planner(), id, { move: 'request_approval' });
        expect(to(await delivered('Approval requested: Quiet summit'))).toEqual(['approver@example.com']);
        await moveMyEvent(deps, approver(), id, { move: 'approve_and_send' });
        await submitVenueProposal(deps, await tokenOf(requests[0]!.venue.email), PROPOSAL);
        expect(to(await delivered('Proposal received: Hotel Central for Quiet summit'))).toEqual([
          'approver@example.com',
        ]);
        await turnDownVenueRequest(deps, await tokenOf(requests[1]!.venue.email), {
          reason: 'other',
          comment: 'Closed',
        });
        expect(to(await delivered('Turned down: Casa Azul for Quiet summit'))).toEqual([
          'approver@example.com',
          'carl@example.com',
        ]);
      } finally {
        await saveNotificationSwitches(deps, carl(), [
          'approval_requested',
          'approval_answered',
          'proposal_received',
          'venue_turned_down',
        ]);
        await saveNotificationSwitches(deps, planner(), [
          'approval_requested',
          'approval_answered',
          'proposal_received',
          'venue_turned_down',
        ]);
      }
    });

    it('delivers the invitation of `user invite --send` with its link', async () => {
      const invited = await mailInvite(deps, carlId, BASE, href.invite);
      const [mail] = await delivered('Choose your password for eventplan');
      expect(invited.to).toBe('carl@example.com');
      expect(mail!.envelope.to).toEqual(['carl@example.com']);
      expect(mail!.parsed.text).toMatch(new RegExp(`${BASE}/app/invite/[0-9A-Za-z]{43}`));
    });
  });
}
