import { describe, expect, it } from 'vitest';
import type { VenueRequest } from './venue-request.js';
import {
  mailDates,
  requestAwardedMail,
  requestDeclinedMail,
  requestNoResponseMail,
  requestSentMail,
  requestWithdrawnMail,
  type VenueMailContext,
  venueStepMail,
} from './venue-request-mail.js';

const context: VenueMailContext = {
  organizationName: 'Acme <Events> & Co',
  planner: { name: 'Ana Planner', email: 'ana@acme.example' },
  event: {
    name: 'Summit <script>alert(1)</script>',
    eventDates: [
      { startDate: '2027-05-12', endDate: '2027-05-14' },
      { startDate: '2027-06-01', endDate: '2027-06-01' },
    ],
  },
  venue: { id: 'v1', name: 'Hotel "Atlântico"', email: 'sales@atlantico.example', city: 'Lisbon' },
};
const LINK = 'https://plan.example.com/rfp/AbCdEf0123456789AbCdEf0123456789';

function request(fields: Partial<VenueRequest>): VenueRequest {
  return {
    id: 'r1',
    eventId: 'e1',
    venue: context.venue,
    status: 'sent',
    responseDueDate: '2027-04-01',
    sentAt: '2027-03-01T09:00:00.000Z',
    viewedAt: null,
    respondedAt: null,
    turnDown: null,
    decision: null,
    remindedAt: null,
    reminderSettledAt: null,
    dueDateToldAt: null,
    createdAt: '2027-03-01T09:00:00.000Z',
    updatedAt: '2027-03-01T09:00:00.000Z',
    ...fields,
  };
}

describe('the request for proposals', () => {
  const mail = requestSentMail(context, { responseDueDate: '2027-04-01' }, LINK);

  it('goes to the venue with the planner as reply-to', () => {
    expect(mail.to).toEqual({ address: 'sales@atlantico.example', name: 'Hotel "Atlântico"' });
    expect(mail.replyTo).toEqual({ address: 'ana@acme.example', name: 'Ana Planner' });
    expect(mail.subject).toBe('Request for proposal: Summit <script>alert(1)</script> (Acme <Events> & Co)');
  });

  it("names the organization, the event, its dates, the due date, the planner and the venue's link", () => {
    expect(mail.text).toContain('Acme <Events> & Co is planning Summit <script>alert(1)</script>');
    expect(mail.text).toContain('Dates: 12 May 2027 – 14 May 2027, 1 Jun 2027');
    expect(mail.text).toContain('Please answer by: 1 Apr 2027');
    expect(mail.text).toContain('Planner: Ana Planner <ana@acme.example>');
    expect(mail.text).toContain(`Open the request:\n${LINK}`);
    expect(mail.html).toContain(`href="${LINK}"`);
  });

  it('escapes everything typed in the HTML part', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Summit &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Acme &lt;Events&gt; &amp; Co');
    expect(mail.html).toContain('Hotel &quot;Atlântico&quot;');
  });

  it('keeps every header on one line, whatever the names hold', () => {
    const hostile = requestSentMail(
      {
        ...context,
        organizationName: 'Acme\r\nBcc: victim@example.com',
        event: { ...context.event, name: 'Summit\nX-Injected: yes' },
        venue: { ...context.venue, name: 'Hotel\r\nBcc: other@example.com' },
        planner: { name: 'Ana\nBcc: third@example.com', email: 'ana@acme.example' },
      },
      { responseDueDate: null },
      LINK,
    );
    for (const header of [hostile.subject, hostile.to.name, hostile.replyTo?.name]) {
      expect(header).not.toMatch(/[\r\n]/);
    }
    expect(hostile.subject).toBe(
      'Request for proposal: Summit X-Injected: yes (Acme Bcc: victim@example.com)',
    );
    expect(hostile.text).not.toContain('Please answer by');
  });

  it('has no reply-to when the planner is unknown or has no usable address', () => {
    expect(requestSentMail({ ...context, planner: null }, request({}), LINK).replyTo).toBeNull();
    const unusable = { ...context, planner: { name: 'Ana', email: 'ana @acme' } };
    expect(requestSentMail(unusable, request({}), LINK).replyTo).toBeNull();
  });

  it('refuses a venue address that could carry another recipient', () => {
    const smuggled = { ...context, venue: { ...context.venue, email: 'a@b.example,c@d.example' } };
    expect(() => requestSentMail(smuggled, request({}), LINK)).toThrow(/to/);
  });
});

describe('the mails that close a request', () => {
  it('withdraws, saying when it is because the event was cancelled, never the reason typed', () => {
    expect(requestWithdrawnMail(context, false).text).toContain(
      'Acme <Events> & Co has withdrawn its request for a proposal from Hotel "Atlântico"',
    );
    const cancelled = requestWithdrawnMail(context, true);
    expect(cancelled.subject).toMatch(/^Request withdrawn: /);
    expect(cancelled.text).toContain('has cancelled Summit');
    expect(cancelled.text).toContain('no longer accepts proposals');
  });

  it('awards with the comment given, escaped in the HTML part', () => {
    const mail = requestAwardedMail(context, { reason: null, comment: 'See you <soon>' });
    expect(mail.subject).toMatch(/^Proposal accepted: /);
    expect(mail.text).toContain('Comment: See you <soon>');
    expect(mail.text).not.toContain('Reason:');
    expect(mail.html).toContain('See you &lt;soon&gt;');
    expect(mail.text).toContain('Ana Planner will be in touch');
  });

  it('declines with the reason in words', () => {
    const mail = requestDeclinedMail(context, { reason: 'fb_minimum_too_high', comment: null });
    expect(mail.subject).toMatch(/^Proposal declined: /);
    expect(mail.text).toContain('Reason: The food and beverage minimum is too high');
    expect(requestDeclinedMail(context, { reason: 'selected_other_venue', comment: null }).text).toContain(
      'Reason: Another venue was selected',
    );
  });

  it('tells an unanswered venue that another venue was chosen', () => {
    const mail = requestNoResponseMail(context);
    expect(mail.subject).toMatch(/^Request closed: /);
    expect(mail.text).toContain('has chosen another venue');
  });
});

describe('the mail of a step', () => {
  it('is chosen by the status the step leaves the request in', () => {
    expect(venueStepMail(context, request({}), { url: LINK })?.subject).toMatch(/^Request for proposal/);
    expect(
      venueStepMail(context, request({ status: 'withdrawn' }), { eventCancelled: true })?.text,
    ).toContain('has cancelled');
    const awarded = request({ status: 'awarded', decision: { reason: null, comment: 'Yes' } });
    expect(venueStepMail(context, awarded, {})?.text).toContain('Comment: Yes');
    expect(venueStepMail(context, request({ status: 'no_response' }), {})?.subject).toMatch(
      /^Request closed/,
    );
    expect(venueStepMail(context, request({ status: 'viewed' }), {})).toBeUndefined();
    expect(() => venueStepMail(context, request({}), {})).toThrow();
  });

  it('writes dates to be decided when the event has none', () => {
    expect(mailDates([])).toBe('to be decided');
  });
});
