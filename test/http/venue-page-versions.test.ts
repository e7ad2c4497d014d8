/**
 * The venue's page and the request's versions (D26): the page reads the latest version, never the live
 * event; says when it was updated and what changed; and a proposal form opened on an older version is
 * not stored but shown again, with everything typed and the changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { venueHref } from '../../src/web/venue-page/links.js';
import { fullEvent } from '../browser/dashboard.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { callApi, type SentRequest, sendRequests } from '../helpers/venue-link.js';
import { browserFor, formFields, readable } from './form-browser.js';

const PROPOSAL = {
  validUntil: '2030-03-15',
  'rooms.2030-05-01.Single.count': '40',
  'rooms.2030-05-01.Single.rate': '120',
  meetingRoomRental: '1500',
  notes: 'Breakfast included',
};

describe("the venue's page and the request's versions (D26)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const sentOne = async () => (await sendRequests(t, fullEvent()))[0]!;
  const patch = (sent: SentRequest, body: unknown) => callApi(t, 'PATCH', `/v1/events/${sent.eventId}`, body);
  const sendChanges = (sent: SentRequest, body: unknown = {}) =>
    callApi(t, 'POST', `/v1/events/${sent.eventId}/request-versions`, body);
  const proposalsOf = async (sent: SentRequest) =>
    (await callApi(t, 'GET', `/v1/events/${sent.eventId}/venue-requests/${sent.requestId}/proposals`)).json
      .data as unknown[];

  it('shows the version sent, not the live event, until the changes are sent', async () => {
    const sent = await sentOne();
    expect((await patch(sent, { numPeople: 150, notesForVenue: 'Half-done edit' })).status).toBe(200);
    const before = readable((await browserFor(t).get(venueHref.request(sent.token))).body);
    expect(before).toContain('Attendees 120');
    expect(before).not.toContain('Half-done edit');
    expect(before).not.toContain('Updated on');

    expect((await sendChanges(sent, { message: 'We grew <i>a lot</i>' })).status).toBe(201);
    const after = readable((await browserFor(t).get(venueHref.request(sent.token))).body);
    expect(after).toContain('Attendees 150');
    expect(after).toMatch(/Updated on .* \(version 2\)/);
    expect(after).toContain('Attendees: 120 → changed to 150');
    expect(after).toContain('Notes for the venue: Flexible on room layout → changed to Half-done edit');
    expect(after).toContain('Message from the planner: We grew <i>a lot</i>');

    // A third version: the second's changes move under the earlier ones.
    await patch(sent, { numPeople: 160 });
    expect((await sendChanges(sent)).status).toBe(201);
    const third = readable((await browserFor(t).get(venueHref.request(sent.token))).body);
    expect(third).toMatch(/Updated on .* \(version 3\) .*Attendees: 150 → changed to 160/);
    expect(third).toMatch(/Earlier changes \(1\) Version 2, .*Attendees: 120 → changed to 150/);
  });

  it('keeps a form opened on an older version, stores nothing, and stores it once sent again', async () => {
    const sent = await sentOne();
    const browser = browserFor(t);
    const form = await browser.get(venueHref.proposal(sent.token));
    const fields = formFields(form.body, venueHref.proposal(sent.token));
    expect(fields).toContainEqual(['requestVersion', '1']);

    await patch(sent, { accommodations: { '2030-05-01': { Single: 60 } } });
    expect((await sendChanges(sent)).status).toBe(201);

    const stale = await browser.post(venueHref.proposal(sent.token), { ...PROPOSAL, requestVersion: '1' });
    expect(stale.statusCode).toBe(409);
    const text = readable(stale.body);
    expect(text).toContain('The request changed while you were writing');
    expect(text).toContain('Single rooms, night of Wed, May 1, 2030: 40 rooms → changed to 60 rooms');
    const kept = formFields(stale.body, venueHref.proposal(sent.token));
    expect(kept).toContainEqual(['notes', 'Breakfast included']);
    expect(kept).toContainEqual(['meetingRoomRental', '1500']);
    expect(kept).toContainEqual(['rooms.2030-05-01.Single.rate', '120']);
    expect(kept).toContainEqual(['requestVersion', '2']);
    expect(await proposalsOf(sent)).toEqual([]);

    const again = await browser.post(venueHref.proposal(sent.token), Object.fromEntries(kept));
    expect(again.statusCode, again.body).toBe(303);
    expect(await proposalsOf(sent)).toHaveLength(1);
  });

  it('measures coverage against the room block of the latest version, not the live one', async () => {
    const sent = await sentOne();
    const browser = browserFor(t);
    await browser.get(venueHref.proposal(sent.token));
    expect(
      (await browser.post(venueHref.proposal(sent.token), { ...PROPOSAL, requestVersion: '1' })).statusCode,
    ).toBe(303);
    // An edit not yet sent leaves what the venue reads, and its coverage, as they were.
    await patch(sent, { accommodations: { '2030-05-01': { Single: 400 } } });
    const page = readable((await browserFor(t).get(venueHref.request(sent.token))).body);
    expect(page).not.toContain('400');
  });
});
