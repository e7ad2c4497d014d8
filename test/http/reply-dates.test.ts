/**
 * Moving a request's reply date (D28) through the real app: `PATCH …/venue-requests/{requestId}`, the
 * venue's mail with a link that opens its page, the change record in the feed, and every refusal
 * named as D5 orders them (the event and the request, their state, then the body).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/app/organizations.js';
import { turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { day } from '../../src/web/format.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { callApi, READY_EVENT, requestOf, sendRequests } from '../helpers/venue-link.js';

const READY = READY_EVENT;

describe('moving reply dates (D28)', () => {
  let t: TestApp;
  let otherKey: string;
  beforeAll(async () => {
    t = await startTestApp();
    otherKey = (await createDemo(t.deps)).key;
  });
  afterAll(() => t.close());

  const move = (eventId: string, requestId: string, body: unknown) =>
    callApi(t, 'PATCH', `/v1/events/${eventId}/venue-requests/${requestId}`, body);
  const movedMails = async (email: string) =>
    (await t.deps.store.mail.list({ to: email, limit: 20 })).filter((mail) =>
      mail.subject.startsWith('New reply date'),
    );

  it('moves an open request’s date: 200, the venue mailed a link that opens its page, one record', async () => {
    const [sent] = await sendRequests(t, READY);
    expect((await requestOf(t, sent!)).responseDueDate).toBe('2090-04-01');
    const response = await move(sent!.eventId, sent!.requestId, { responseDueDate: '2090-04-15' });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json).toMatchObject({
      id: sent!.requestId,
      status: 'sent',
      responseDueDate: '2090-04-15',
      remindedAt: null,
      overdue: false,
    });
    expect(response.json).not.toHaveProperty('dueDateToldAt');

    const [mail] = await movedMails(sent!.venue.email);
    expect(mail!.subject).toBe('New reply date 15 Apr 2090: Offsite (Demo organization)');
    expect(mail!.text).toContain('from 1 Apr 2090 to 15 Apr 2090');
    const token = /\/rfp\/(\w+)/.exec(mail!.text ?? '')![1]!;
    expect(token).not.toBe(sent!.token);
    const page = await t.app.inject({ url: `/rfp/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(day('2090-04-15'));
    expect((await t.app.inject({ url: `/rfp/${sent!.token}` })).statusCode).toBe(200);

    const feed = await callApi(t, 'GET', `/v1/events/${sent!.eventId}/revisions?limit=1`);
    expect(feed.json.data[0]).toMatchObject({
      type: 'venue_request.due_date_changed',
      changedFields: [],
      data: {
        requestId: sent!.requestId,
        venueId: sent!.venue.id,
        responseDueDate: '2090-04-15',
        previousResponseDueDate: '2090-04-01',
      },
    });
  });

  it('accepts a merge patch too, and the same date again changes nothing', async () => {
    const [sent] = await sendRequests(t, READY);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${sent!.eventId}/venue-requests/${sent!.requestId}`,
      headers: { 'x-api-key': t.key, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ responseDueDate: '2090-04-20' }),
    });
    expect(response.statusCode).toBe(200);
    const before = await callApi(t, 'GET', `/v1/events/${sent!.eventId}/revisions?limit=100`);
    const again = await move(sent!.eventId, sent!.requestId, { responseDueDate: '2090-04-20' });
    expect(again.status).toBe(200);
    const after = await callApi(t, 'GET', `/v1/events/${sent!.eventId}/revisions?limit=100`);
    expect(after.json.data).toHaveLength(before.json.data.length);
    expect(await movedMails(sent!.venue.email)).toHaveLength(1);
  });

  it('sets a shortlisted request’s date without mailing anyone', async () => {
    const event = await callApi(t, 'POST', '/v1/events', READY);
    const venue = await callApi(t, 'POST', '/v1/venues', {
      name: 'Quinta',
      email: 'quinta@venues.example',
      city: 'Porto',
    });
    const request = await callApi(t, 'POST', `/v1/events/${event.json.id}/venue-requests`, {
      venueId: venue.json.id,
    });
    const response = await move(event.json.id, request.json.id, { responseDueDate: '2090-03-20' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ status: 'shortlisted', responseDueDate: '2090-03-20' });
    expect(await t.deps.store.mail.list({ to: 'quinta@venues.example', limit: 5 })).toEqual([]);
  });

  it('names every problem of the body and writes nothing', async () => {
    const [sent] = await sendRequests(t, READY);
    for (const [body, field, code] of [
      [{}, 'responseDueDate', 'required'],
      [{ responseDueDate: null }, 'responseDueDate', 'required'],
      [{ responseDueDate: '2020-01-01' }, 'responseDueDate', 'in_the_past'],
      [{ responseDueDate: '2090-02-30' }, 'responseDueDate', undefined],
      [{ responseDueDate: '2090-04-10', note: 'x' }, 'note', 'unknown_field'],
    ] as const) {
      const response = await move(sent!.eventId, sent!.requestId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.errors[0].field).toBe(field);
      if (code) expect(response.json.errors[0].code).toBe(code);
    }
    expect((await requestOf(t, sent!)).responseDueDate).toBe('2090-04-01');
    expect(await movedMails(sent!.venue.email)).toEqual([]);
  });

  it('answers 404 for another organization’s event or an unknown request, 409 for a closed one', async () => {
    const [sent] = await sendRequests(t, READY);
    const body = { responseDueDate: '2090-04-10' };
    const theirs = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${sent!.eventId}/venue-requests/${sent!.requestId}`,
      headers: { 'x-api-key': otherKey, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(theirs.statusCode).toBe(404);
    const unknown = await move(sent!.eventId, '00000000-0000-4000-8000-000000000000', body);
    expect(unknown.status).toBe(404);
    const malformed = await move(sent!.eventId, 'not-a-uuid', body);
    expect(malformed.status).toBe(400);

    await turnDownVenueRequest(t.deps, sent!.token, { reason: 'dates_unavailable' });
    // The request's state comes before the body: a closed request is a 409 even with a bad body.
    for (const attempt of [body, { responseDueDate: 'soon' }]) {
      const closed = await move(sent!.eventId, sent!.requestId, attempt);
      expect(closed.status).toBe(409);
      expect(closed.json.code).toBe('request_closed');
    }
  });

  it('refuses a body that is not JSON with a 415', async () => {
    const [sent] = await sendRequests(t, READY);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${sent!.eventId}/venue-requests/${sent!.requestId}`,
      headers: { 'x-api-key': t.key, 'content-type': 'text/plain' },
      payload: 'responseDueDate=2090-04-10',
    });
    expect(response.statusCode).toBe(415);
  });
});
