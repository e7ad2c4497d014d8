/**
 * A venue's link token is a password (D21): the request that makes one, and every operation on the
 * request, leave no trace of it (nor of its hash) in any log line.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryAttemptCounter } from '../../src/adapters/memory/memory-attempt-counter.js';
import { changeEventStatus } from '../../src/app/events.js';
import { hashVenueToken } from '../../src/app/sourcing.js';
import { loggedPath, loggerOptions } from '../../src/http/logging.js';
import { type OpsApp, startOpsApp } from './ops-app.js';

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, callback) {
    lines.push(String(chunk));
    callback();
  },
});

let ops: OpsApp;
beforeAll(async () => {
  ops = await startOpsApp({
    logger: loggerOptions({ level: 'trace', stream }),
    // With the dashboard, the venue's page (/rfp/{token}) is served too.
    dashboard: { attempts: createMemoryAttemptCounter(), sessionPolicy: { idleMinutes: 60, maxDays: 1 } },
  });
});
afterAll(() => ops.close());

it('logs no venue link token, nor its hash, for the requests that send one or act on it', async () => {
  const send = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await ops.app.inject({ method, url, headers: { 'x-api-key': ops.key }, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const venue = async (email: string) =>
    send('POST', '/v1/venues', { name: 'Logged Hotel', email, city: 'Lisbon' });
  const { id: eventId } = await send('POST', '/v1/events', {
    name: 'Logged sourcing',
    eventDates: [{ startDate: '2090-05-01', endDate: '2090-05-02' }],
  });
  const shortlisted = await venue('shortlisted@venues.example');
  await send('POST', `/v1/events/${eventId}/venue-requests`, { venueId: shortlisted.id });
  await changeEventStatus(ops.deps, eventId, 'wait_for_proposals');
  // Sent at once, inside this HTTP request: the token is made while the request is logged.
  const late = await venue('late@venues.example');
  const request = await send('POST', `/v1/events/${eventId}/venue-requests`, { venueId: late.id });
  await send('GET', `/v1/events/${eventId}/venue-requests/${request.id}`);
  await send('POST', `/v1/events/${eventId}/venue-requests/${request.id}/proposals`, {
    validUntil: '2090-04-01',
    meetingRoomRental: 100,
  });
  await send('DELETE', `/v1/events/${eventId}/venue-requests/${request.id}`);

  const tokens: string[] = [];
  for (const address of ['shortlisted@venues.example', 'late@venues.example']) {
    const mails = await ops.deps.store.mail.list({ to: address, limit: 5 });
    const link = mails.map((mail) => /\/rfp\/(\w+)/.exec(mail.text ?? '')).find((match) => match !== null);
    tokens.push(link![1]!);
  }
  const logged = lines.join('');
  expect(logged).toContain(`/v1/events/${eventId}/venue-requests`);
  for (const token of tokens) {
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(hashVenueToken(token));
  }
});

it("logs no token for the venue's page: its GETs, its refused, forged and accepted POSTs, an unknown link", async () => {
  const api = async (method: 'POST', url: string, payload: object) => {
    const response = await ops.app.inject({ method, url, headers: { 'x-api-key': ops.key }, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const { id: eventId } = await api('POST', '/v1/events', {
    name: 'Logged page',
    eventDates: [{ startDate: '2090-05-01', endDate: '2090-05-02' }],
  });
  const tokens: string[] = [];
  for (const email of ['page-one@venues.example', 'page-two@venues.example']) {
    const venue = await api('POST', '/v1/venues', { name: 'Page Hotel', email, city: 'Lisbon' });
    await api('POST', `/v1/events/${eventId}/venue-requests`, { venueId: venue.id });
  }
  await changeEventStatus(ops.deps, eventId, 'wait_for_proposals');
  for (const email of ['page-one@venues.example', 'page-two@venues.example']) {
    const mails = await ops.deps.store.mail.list({ to: email, limit: 5 });
    tokens.push(mails.map((mail) => /\/rfp\/(\w+)/.exec(mail.text ?? '')).find(Boolean)![1]!);
  }
  const [proposing, turningDown] = tokens as [string, string];
  lines.length = 0;

  let cookie = '';
  const page = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await ops.app.inject({
      method,
      url,
      headers: { cookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    const set = response.cookies.find((one) => one.name === 'eventplan_form');
    if (set) cookie = `eventplan_form=${set.value}`;
    return response;
  };
  const formToken = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

  expect((await page('GET', `/rfp/${proposing}`)).statusCode).toBe(200);
  const form = await page('GET', `/rfp/${proposing}/proposal`);
  const csrf = formToken(form.body);
  expect((await page('POST', `/rfp/${proposing}/proposal`, { validUntil: 'soon' })).statusCode).toBe(403);
  expect(
    (await page('POST', `/rfp/${proposing}/proposal`, { _csrf: csrf, validUntil: 'soon' })).statusCode,
  ).toBe(400);
  const sent = await page('POST', `/rfp/${proposing}/proposal`, {
    _csrf: csrf,
    validUntil: '2090-04-01',
    meetingRoomRental: '900',
  });
  expect(sent.statusCode).toBe(303);
  expect((await page('GET', String(sent.headers.location))).statusCode).toBe(200);
  const turnDown = await page('GET', `/rfp/${turningDown}/turn-down`);
  const answered = await page('POST', `/rfp/${turningDown}/turn-down`, {
    _csrf: formToken(turnDown.body),
    reason: 'dates_unavailable',
  });
  expect(answered.statusCode).toBe(303);
  expect((await page('GET', `/rfp/${'Z'.repeat(32)}`)).statusCode).toBe(404);

  const logged = lines.join('');
  expect(logged).toContain('"path":"/rfp/[token]"');
  expect(logged).toContain('"path":"/rfp/[token]/proposal"');
  expect(logged).toContain('"path":"/rfp/[token]/turn-down"');
  for (const token of [...tokens, 'Z'.repeat(32)]) {
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(hashVenueToken(token));
  }
});

it('replaces a venue link token wherever it stands in a logged path, and drops the query', () => {
  expect(loggedPath('/rfp/AbC123?notice=proposal-sent')).toBe('/rfp/[token]');
  expect(loggedPath('/rfp/AbC123/proposal')).toBe('/rfp/[token]/proposal');
  expect(loggedPath('//RFP/AbC123/turn-down')).toBe('//rfp/[token]/turn-down');
  expect(loggedPath('/v1/events/1')).toBe('/v1/events/1');
});
