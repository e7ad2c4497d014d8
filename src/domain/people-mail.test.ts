import { describe, expect, it } from 'vitest';
import type { NotificationKind } from './notifications.js';
import { type ChangeToTell, type PeopleAudience, peopleMails, type Recipient } from './people-mail.js';
import type { Proposal } from './proposal.js';
import type { RequestStep, VenueRequest } from './venue-request.js';

const BASE = 'https://plan.example.com';
const EVENT_ID = 'e1';

const person = (userId: string, fields: Partial<Recipient> = {}): Recipient => ({
  userId,
  email: `${userId}@acme.example`,
  name: userId === 'ana' ? 'Ana <b>Planner</b>' : null,
  active: true,
  switchedOff: [],
  ...fields,
});

/** Ana created the event; Bea and Carl approve it. */
const granted = [person('ana'), person('bea'), person('carl')];

const audience = (fields: Partial<PeopleAudience> = {}): PeopleAudience => ({
  granted,
  actorUserId: null,
  actorName: null,
  publicBaseUrl: BASE,
  ...fields,
});

const event: ChangeToTell['event'] = {
  createdBy: 'ana',
  details: {
    id: EVENT_ID,
    name: 'Summit <script>alert(1)</script>',
    eventDates: [{ startDate: '2027-05-12', endDate: '2027-05-14' }],
  },
};

const recipients = (mails: ReturnType<typeof peopleMails>) => mails.map((mail) => mail.to.address).sort();

const request = (fields: Partial<VenueRequest> = {}): VenueRequest => ({
  id: 'r1',
  eventId: EVENT_ID,
  venue: { id: 'v1', name: 'Hotel "Atlântico"', email: 'sales@atlantico.example', city: 'Lisbon' },
  status: 'proposed',
  responseDueDate: '2027-04-01',
  sentAt: '2027-03-01T09:00:00.000Z',
  viewedAt: '2027-03-02T09:00:00.000Z',
  respondedAt: '2027-03-03T09:00:00.000Z',
  turnDown: null,
  decision: null,
  remindedAt: null,
  reminderSettledAt: null,
  dueDateToldAt: null,
  createdAt: '2027-03-01T09:00:00.000Z',
  updatedAt: '2027-03-03T09:00:00.000Z',
  ...fields,
});

const proposal = (fields: Partial<Proposal> = {}): Proposal => ({
  id: 'p1',
  requestId: 'r1',
  revision: 1,
  submittedAt: '2027-03-03T09:00:00.000Z',
  submittedBy: 'venue',
  requestVersion: 1,
  late: false,
  validUntil: '2027-04-15',
  currency: 'EUR',
  offeredDates: null,
  holdOption: 'none',
  rooms: { '2027-05-12': { Single: { count: 10, rate: 150 } } },
  meetingRoomRental: 1000,
  foodBeverageMinimum: null,
  avEstimate: null,
  otherCharges: null,
  roomTaxPercent: null,
  serviceChargePercent: null,
  attritionPercent: null,
  depositPercent: null,
  commissionPercent: null,
  cutoffDate: null,
  cancellation: [],
  notes: null,
  ...fields,
});

const step = (before: VenueRequest | null, after: VenueRequest): RequestStep => ({
  before,
  after,
  tellVenue: false,
  change: null,
});

describe('a request for approval', () => {
  const change: ChangeToTell = { event, status: { from: 'draft', to: 'pending_approval' } };

  it('goes to every approver of the event, never to its creator who asked', () => {
    const mails = peopleMails(change, audience({ actorUserId: 'ana', actorName: 'Ana <b>Planner</b>' }));
    expect(recipients(mails)).toEqual(['bea@acme.example', 'carl@acme.example']);
    const [mail] = mails;
    expect(mail!.subject).toBe('Approval requested: Summit <script>alert(1)</script>');
    expect(mail!.text).toContain('Hello bea@acme.example,');
    expect(mail!.text).toContain('Ana <b>Planner</b> asks you to approve Summit <script>alert(1)</script>.');
    expect(mail!.text).toContain(`Open the event:\n${BASE}/app/events/${EVENT_ID}`);
    expect(mail!.text).toContain('Dates: 12 May 2027 – 14 May 2027');
  });

  it('escapes everything typed in the HTML part and links to the event', () => {
    const [mail] = peopleMails(change, audience({ actorUserId: 'ana', actorName: 'Ana <b>Planner</b>' }));
    expect(mail!.html).not.toContain('<script>');
    expect(mail!.html).not.toContain('<b>');
    expect(mail!.html).toContain('Summit &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail!.html).toContain(`href="${BASE}/app/events/${EVENT_ID}"`);
  });

  it('says how to switch it off, with a link to the account page, in both parts', () => {
    const [mail] = peopleMails(change, audience());
    expect(mail!.text).toContain(
      'To stop mails about “Approval requests”, switch them off on your account page:',
    );
    expect(mail!.text).toContain(`${BASE}/app/account`);
    expect(mail!.html).toContain(`href="${BASE}/app/account"`);
  });

  it('skips deactivated people and those who switched approval requests off', () => {
    const mails = peopleMails(
      change,
      audience({
        granted: [
          person('ana'),
          person('bea', { active: false }),
          person('carl', { switchedOff: ['approval_requested'] }),
          person('dan', { switchedOff: ['proposal_received', 'venue_turned_down'] }),
        ],
      }),
    );
    expect(recipients(mails)).toEqual(['dan@acme.example']);
  });

  it('is not sent for a reopening into waiting for approval, nor for other moves', () => {
    expect(peopleMails({ event, status: { from: 'cancelled', to: 'pending_approval' } }, audience())).toEqual(
      [],
    );
    expect(peopleMails({ event, status: { from: 'draft', to: 'wait_for_proposals' } }, audience())).toEqual(
      [],
    );
    expect(peopleMails({ event, status: { from: 'proposals_received', to: 'booked' } }, audience())).toEqual(
      [],
    );
  });

  it('skips an address that cannot carry mail rather than refusing the change', () => {
    const mails = peopleMails(
      change,
      audience({
        granted: [person('ana'), person('bea', { email: 'bea@acme.example\r\nBcc: x@y.example' })],
      }),
    );
    expect(mails).toEqual([]);
  });
});

describe('the answer to a request for approval', () => {
  it('tells the creator the event was returned to draft, with the comment, not the approver who did it', () => {
    const mails = peopleMails(
      { event, status: { from: 'pending_approval', to: 'draft', comment: 'Budget <too> high' } },
      audience({ actorUserId: 'bea', actorName: 'Bea' }),
    );
    expect(recipients(mails)).toEqual(['ana@acme.example']);
    expect(mails[0]!.subject).toBe('Returned to draft: Summit <script>alert(1)</script>');
    expect(mails[0]!.text).toContain('Hello Ana <b>Planner</b>,');
    expect(mails[0]!.text).toContain('Bea returned Summit');
    expect(mails[0]!.text).toContain('Comment: Budget <too> high');
    expect(mails[0]!.html).toContain('Budget &lt;too&gt; high');
    expect(mails[0]!.text).toContain('“Your events approved or returned”');
  });

  it('is not sent to a creator who withdrew their own request', () => {
    const withdrawn = {
      event,
      status: { from: 'pending_approval' as const, to: 'draft' as const, comment: 'x' },
    };
    expect(peopleMails(withdrawn, audience({ actorUserId: 'ana', actorName: 'Ana' }))).toEqual([]);
  });

  it('tells the creator the event was approved; an operator’s move names no one', () => {
    const change: ChangeToTell = { event, status: { from: 'pending_approval', to: 'wait_for_proposals' } };
    const [byBea] = peopleMails(change, audience({ actorUserId: 'bea', actorName: 'Bea' }));
    expect(byBea!.subject).toBe('Approved: Summit <script>alert(1)</script>');
    expect(byBea!.text).toContain('Bea approved Summit');
    const [byOperator] = peopleMails(change, audience());
    expect(byOperator!.text).toContain('Summit <script>alert(1)</script> was approved.');
    expect(byOperator!.text).not.toContain('Approved by');
  });

  it('respects the creator’s switch', () => {
    const off: NotificationKind[] = ['approval_answered'];
    const change: ChangeToTell = { event, status: { from: 'pending_approval', to: 'wait_for_proposals' } };
    expect(
      peopleMails(change, audience({ granted: [person('ana', { switchedOff: off }), person('bea')] })),
    ).toEqual([]);
  });
});

describe('a proposal', () => {
  const sent = request({ status: 'viewed', respondedAt: null });

  it('submitted by a venue tells everyone granted, with its total and a link to the Proposals tab', () => {
    const mails = peopleMails({ event, steps: [step(sent, request())], proposals: [proposal()] }, audience());
    expect(recipients(mails)).toEqual(['ana@acme.example', 'bea@acme.example', 'carl@acme.example']);
    const [mail] = mails;
    expect(mail!.subject).toBe('Proposal received: Hotel "Atlântico" for Summit <script>alert(1)</script>');
    expect(mail!.text).toContain('Hotel "Atlântico" sent a proposal for Summit');
    expect(mail!.text).toContain('Total: EUR 2,500.00');
    expect(mail!.text).toContain('Valid until: 15 Apr 2027');
    expect(mail!.text).toContain(`Compare the proposals:\n${BASE}/app/events/${EVENT_ID}/proposals`);
    expect(mail!.html).toContain('Hotel &quot;Atlântico&quot;');
    expect(mail!.text).toContain('“Proposals received”');
  });

  it('revised says so, with its revision', () => {
    const [mail] = peopleMails(
      { event, steps: [step(request(), request())], proposals: [proposal({ revision: 3 })] },
      audience(),
    );
    expect(mail!.subject).toMatch(/^Proposal revised: /);
    expect(mail!.text).toContain('revised its proposal (revision 3)');
  });

  it('entered by a planner tells the others, naming the planner', () => {
    const mails = peopleMails(
      { event, steps: [step(sent, request())], proposals: [proposal({ submittedBy: 'planner' })] },
      audience({ actorUserId: 'bea', actorName: 'Bea' }),
    );
    expect(recipients(mails)).toEqual(['ana@acme.example', 'carl@acme.example']);
    expect(mails[0]!.text).toContain('Bea entered a proposal from Hotel "Atlântico" for Summit');
  });

  it('reaches no one who switched proposals off', () => {
    const off: NotificationKind[] = ['proposal_received'];
    const mails = peopleMails(
      { event, steps: [step(sent, request())], proposals: [proposal()] },
      audience({ granted: granted.map((one) => person(one.userId, { switchedOff: off })) }),
    );
    expect(mails).toEqual([]);
  });
});

describe('a venue turning down', () => {
  const turnedDown = request({
    status: 'turned_down',
    turnDown: { reason: 'other', comment: 'Closed for <works>' },
  });

  it('tells everyone granted, with the reason in words and the comment', () => {
    const mails = peopleMails(
      { event, steps: [step(request({ status: 'viewed' }), turnedDown)] },
      audience(),
    );
    expect(recipients(mails)).toHaveLength(3);
    const [mail] = mails;
    expect(mail!.subject).toBe('Turned down: Hotel "Atlântico" for Summit <script>alert(1)</script>');
    expect(mail!.text).toContain('Reason: Another reason');
    expect(mail!.text).toContain('Comment: Closed for <works>');
    expect(mail!.html).toContain('Closed for &lt;works&gt;');
    expect(mail!.text).toContain('“Venues turning down”');
  });

  it('is not told again for other steps: a view, a withdrawal, an award', () => {
    const viewed = step(request({ status: 'sent' }), request({ status: 'viewed' }));
    const withdrawn = step(request({ status: 'sent' }), request({ status: 'withdrawn' }));
    const awarded = step(request(), request({ status: 'awarded' }));
    expect(peopleMails({ event, steps: [viewed, withdrawn, awarded] }, audience())).toEqual([]);
  });
});

describe('every notification', () => {
  it('keeps its headers on one line, whatever the names hold', () => {
    const hostile: ChangeToTell = {
      event: { ...event, details: { ...event.details, name: 'Summit\r\nBcc: victim@example.com' } },
      status: { from: 'draft', to: 'pending_approval' },
    };
    const mails = peopleMails(
      hostile,
      audience({ granted: [person('ana'), person('bea', { name: 'Bea\nX-Injected: yes' })] }),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Approval requested: Summit Bcc: victim@example.com');
    expect(mails[0]!.to.name).toBe('Bea X-Injected: yes');
  });
});
