/**
 * The request as sent (D26) through the real app: version 1 at the first send, the changes pending,
 * sending them with a message, the venues' mails and their new links, and every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { submitVenueProposal, turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { callApi, requestOf, type SentRequest, sendRequests } from '../helpers/venue-link.js';

const READY = {
  name: 'Offsite',
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 20,
  meetingRoomDates: [{ startDate: '2090-05-04', endDate: '2090-05-05' }],
  accommodations: { '2090-05-04': { Single: 10 } },
  budgetBreakdown: { venue: 5000 },
  otherNotes: 'Internal only',
  decisionDeadline: '2090-04-01',
};

describe('request versions (D26)', () => {
  let t: TestApp;
  let otherKey: string;
  beforeAll(async () => {
    t = await startTestApp();
    otherKey = (await createDemo(t.deps)).key;
  });
  afterAll(() => t.close());

  const versionsOf = (eventId: string) => callApi(t, 'GET', `/v1/events/${eventId}/request-versions`);
  const sendChanges = (eventId: string, body?: unknown) =>
    callApi(t, 'POST', `/v1/events/${eventId}/request-versions`, body);
  const patch = (eventId: string, body: unknown) => callApi(t, 'PATCH', `/v1/events/${eventId}`, body);
  const updatedMails = async (email: string) =>
    (await t.deps.store.mail.list({ to: email, limit: 20 })).filter((mail) =>
      mail.subject.startsWith('Updated request'),
    );
  const pageStatus = async (token: string) => (await t.app.inject({ url: `/rfp/${token}` })).statusCode;

  it('takes version 1 at the first send, with nothing pending, and keeps what venues read', async () => {
    const [sent] = await sendRequests(t, READY);
    const list = await versionsOf(sent!.eventId);
    expect(list.status).toBe(200);
    expect(list.json.pending).toBeNull();
    expect(list.json.data).toHaveLength(1);
    expect(list.json.data[0]).toMatchObject({
      version: 1,
      message: null,
      changes: [],
      sentBy: { type: 'operator' },
    });
    const one = await callApi(t, 'GET', `/v1/events/${sent!.eventId}/request-versions/1`);
    expect(one.status).toBe(200);
    expect(one.json.request).toMatchObject({ name: 'Offsite', numPeople: 20, cities: ['Lisbon, Portugal'] });
    expect(JSON.stringify(one.json.request)).not.toContain('Internal only');
    expect(one.json.request).not.toHaveProperty('budgetBreakdown');
  });

  it('has no versions before the first send', async () => {
    const event = await callApi(t, 'POST', '/v1/events', READY);
    const list = await versionsOf(event.json.id);
    expect(list.json).toEqual({ data: [], pending: null });
  });

  it('never counts the budget or the other notes as pending: nothing to send', async () => {
    const [sent] = await sendRequests(t, READY);
    expect(
      (await patch(sent!.eventId, { budgetBreakdown: { venue: 9000 }, otherNotes: 'Changed' })).status,
    ).toBe(200);
    expect((await versionsOf(sent!.eventId)).json.pending).toBeNull();
    const refused = await sendChanges(sent!.eventId, {});
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('nothing_to_send');
  });

  describe('sending the changes', () => {
    let venues: SentRequest[];
    let eventId: string;
    beforeAll(async () => {
      venues = await sendRequests(t, READY, ['Casa do Rio', 'Hotel Sol', 'Quinta Nova']);
      eventId = venues[0]!.eventId;
      // The third venue turns the request down: it is closed, and not told of versions.
      await turnDownVenueRequest(t.deps, venues[2]!.token, { reason: 'dates_unavailable' });
      const patched = await patch(eventId, {
        numPeople: 30,
        accommodations: { '2090-05-04': { Single: 15 } },
      });
      expect(patched.status).toBe(200);
    });

    it('lists the pending changes by path, in words', async () => {
      const list = await versionsOf(eventId);
      expect(list.json.pending).toEqual({
        changes: [
          { field: 'numPeople', label: 'Attendees', before: 20, after: 30 },
          {
            field: 'accommodations.2090-05-04.Single',
            label: 'Single rooms, night of Thu, May 4, 2090',
            before: 10,
            after: 15,
          },
        ],
      });
    });

    it('sends them as version 2: 201, a record, one mail per open request with a new link', async () => {
      const message = 'Twenty more guests.\r\nBcc: victim@example.com <b>bold</b>';
      const response = await sendChanges(eventId, { message });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      expect(response.json).toMatchObject({
        version: 2,
        message: message.trim(),
        sentBy: { type: 'api_key' },
        changes: [{ field: 'numPeople' }, { field: 'accommodations.2090-05-04.Single' }],
      });
      expect((await versionsOf(eventId)).json.pending).toBeNull();

      for (const venue of venues.slice(0, 2)) {
        const [mail] = await updatedMails(venue.venue.email);
        expect(mail!.subject).toBe('Updated request: Offsite');
        expect(mail!.text).toContain('Attendees: 20 → 30');
        expect(mail!.text).toContain('Single rooms, night of Thu, May 4, 2090: 10 rooms → 15 rooms');
        expect(mail!.text).toContain('Twenty more guests.');
        expect(mail!.html).toContain('&lt;b&gt;bold&lt;/b&gt;');
        expect(mail!.html).not.toContain('<b>bold</b>');
        const token = /\/rfp\/(\w+)/.exec(mail!.text ?? '')![1]!;
        expect(token).not.toBe(venue.token);
        expect(await pageStatus(token)).toBe(200);
        // The earlier link keeps working.
        expect(await pageStatus(venue.token)).toBe(200);
      }
      expect(await updatedMails(venues[2]!.venue.email)).toEqual([]);

      const revisions = await callApi(t, 'GET', `/v1/events/${eventId}/revisions?limit=5`);
      const revised = revisions.json.data.find(
        (change: { type: string }) => change.type === 'request.revised',
      );
      expect(revised).toMatchObject({
        changedFields: [],
        data: { version: 2, changedFields: ['numPeople', 'accommodations.2090-05-04.Single'] },
      });
    });

    it('refuses a second click: nothing pending and the same message again', async () => {
      const again = await sendChanges(eventId, {
        message: 'Twenty more guests.\r\nBcc: victim@example.com <b>bold</b>',
      });
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('nothing_to_send');
      expect((await versionsOf(eventId)).json.data).toHaveLength(2);
    });

    it('sends a new message alone as a version without changes', async () => {
      const response = await sendChanges(eventId, { message: 'Breakfast is included for everyone.' });
      expect(response.status).toBe(201);
      expect(response.json).toMatchObject({ version: 3, changes: [] });
      const [mail] = await updatedMails(venues[0]!.venue.email);
      expect(mail!.text).toContain('the requirements are unchanged');
      const one = await callApi(t, 'GET', `/v1/events/${eventId}/request-versions/2`);
      expect(one.json.request.numPeople).toBe(30);
      const list = await versionsOf(eventId);
      expect(list.json.data.map((version: { version: number }) => version.version)).toEqual([3, 2, 1]);
    });
  });

  it('says which version each proposal answers, and asks the venue of an older one for a revision', async () => {
    const [proposing, silent] = await sendRequests(t, READY, ['Casa Velha', 'Hotel Mar']);
    const eventId = proposing!.eventId;
    await submitVenueProposal(t.deps, proposing!.token, { validUntil: '2090-03-01', meetingRoomRental: 900 });
    await patch(eventId, { numPeople: 30 });
    expect((await sendChanges(eventId, {})).status).toBe(201);
    const read = await requestOf(t, proposing!);
    expect(read.proposal).toMatchObject({ requestVersion: 1, late: false, revision: 1 });

    const url = `/v1/events/${eventId}/venue-requests/${proposing!.requestId}/revision-request`;
    const long = await callApi(t, 'POST', url, { message: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.json.errors.map((problem: { field: string }) => problem.field)).toEqual(['message']);
    const asked = await callApi(t, 'POST', url, { message: 'Thirty now.\r\nBcc: x@example.com' });
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(asked.json).toMatchObject({ id: proposing!.requestId, status: 'proposed' });

    const [mail] = (await t.deps.store.mail.list({ to: proposing!.venue.email, limit: 20 })).filter(
      (candidate) => candidate.subject === 'Please revise your proposal: Offsite',
    );
    expect(mail!.text).toContain('it answers version 1 of the request, which is now at version 2');
    expect(mail!.text).toContain('Attendees: 20 → 30');
    expect(mail!.text).toContain('Thirty now.');
    const token = /\/rfp\/(\w+)/.exec(mail!.text ?? '')![1]!;
    expect((await t.app.inject({ url: `/rfp/${token}` })).statusCode).toBe(200);
    const feed = await callApi(t, 'GET', `/v1/events/${eventId}/revisions?limit=1`);
    expect(feed.json.data[0]).toMatchObject({
      type: 'venue_request.revision_requested',
      changedFields: [],
      data: { requestId: proposing!.requestId, venueId: proposing!.venue.id, proposalRevision: 1 },
    });

    // A request without a proposal has nothing to revise.
    const none = await callApi(
      t,
      'POST',
      `/v1/events/${eventId}/venue-requests/${silent!.requestId}/revision-request`,
    );
    expect(none.status).toBe(409);
    expect(none.json.code).toBe('request_not_proposed');

    // A proposal entered on the venue's behalf answers the latest version unless it names an earlier one.
    const proposals = `/v1/events/${eventId}/venue-requests/${silent!.requestId}/proposals`;
    const terms = { validUntil: '2090-03-01', meetingRoomRental: 800 };
    expect((await callApi(t, 'POST', proposals, terms)).json.requestVersion).toBe(2);
    expect((await callApi(t, 'POST', proposals, { ...terms, requestVersion: 1 })).json.requestVersion).toBe(
      1,
    );
    const beyond = await callApi(t, 'POST', proposals, { ...terms, requestVersion: 3 });
    expect(beyond.status).toBe(400);
    expect(beyond.json.errors.map((problem: { field: string }) => problem.field)).toEqual(['requestVersion']);
  });

  it('judges coverage against the room block of the latest version sent, not the live one', async () => {
    const [sent] = await sendRequests(t, READY);
    await submitVenueProposal(t.deps, sent!.token, {
      validUntil: '2090-03-01',
      rooms: { '2090-05-04': { Single: { count: 10, rate: 100 } } },
    });
    await patch(sent!.eventId, { accommodations: { '2090-05-04': { Single: 20 } } });
    expect((await requestOf(t, sent!)).proposal.coverage).toMatchObject({
      requestedRoomNights: 10,
      percent: 100,
    });
    const listed = await callApi(
      t,
      'GET',
      `/v1/events/${sent!.eventId}/venue-requests/${sent!.requestId}/proposals`,
    );
    expect(listed.json.data[0].coverage).toMatchObject({ requestedRoomNights: 10 });
    expect((await sendChanges(sent!.eventId, {})).status).toBe(201);
    expect((await requestOf(t, sent!)).proposal.coverage).toMatchObject({
      requestedRoomNights: 20,
      percent: 50,
    });
  });

  it('makes one version of two sends at the same moment', async () => {
    const [sent] = await sendRequests(t, READY);
    await patch(sent!.eventId, { numPeople: 25 });
    const [a, b] = await Promise.all([sendChanges(sent!.eventId), sendChanges(sent!.eventId)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((a.status === 409 ? a : b).json.code).toBe('nothing_to_send');
    expect((await versionsOf(sent!.eventId)).json.data).toHaveLength(2);
    expect(await updatedMails(sent!.venue.email)).toHaveLength(1);
  });

  it('refuses to send while the event is not asking venues, and once it is booked or cancelled', async () => {
    const draft = await callApi(t, 'POST', '/v1/events', READY);
    const refused = await sendChanges(draft.json.id, { message: 'Hello' });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('event_not_asking_venues');
    const [sent] = await sendRequests(t, READY);
    await changeEventStatus(t.deps, sent!.eventId, 'cancelled');
    const cancelled = await sendChanges(sent!.eventId, { message: 'Hello' });
    expect(cancelled.status).toBe(409);
    expect(cancelled.json.code).toBe('event_not_asking_venues');
  });

  it('refuses a message of 1,001 characters, or not text, naming the field', async () => {
    const [sent] = await sendRequests(t, READY);
    const long = await sendChanges(sent!.eventId, { message: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.json.errors.map((problem: { field: string }) => problem.field)).toEqual(['message']);
    const number = await sendChanges(sent!.eventId, { message: 12 });
    expect(number.status).toBe(400);
    const unknown = await sendChanges(sent!.eventId, { note: 'x' });
    expect(unknown.status).toBe(400);
    expect((await versionsOf(sent!.eventId)).json.data).toHaveLength(1);
  });

  it('answers 404 for another organization, an unknown version, and 400 for a malformed one', async () => {
    const [sent] = await sendRequests(t, READY);
    const other = await t.app.inject({
      url: `/v1/events/${sent!.eventId}/request-versions`,
      headers: { 'x-api-key': otherKey },
    });
    expect(other.statusCode).toBe(404);
    const otherSend = await t.app.inject({
      method: 'POST',
      url: `/v1/events/${sent!.eventId}/request-versions`,
      headers: { 'x-api-key': otherKey, 'content-type': 'application/json' },
      payload: '{"message":"hi"}',
    });
    expect(otherSend.statusCode).toBe(404);
    expect((await callApi(t, 'GET', `/v1/events/${sent!.eventId}/request-versions/9`)).status).toBe(404);
    const malformed = await callApi(t, 'GET', `/v1/events/${sent!.eventId}/request-versions/01`);
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors[0].field).toBe('version');
  });
});
