/**
 * A venue's link token is a password (D21): the request that makes one, and every operation on the
 * request, leave no trace of it (nor of its hash) in any log line.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { hashVenueToken } from '../../src/app/sourcing.js';
import { loggerOptions } from '../../src/http/logging.js';
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
  ops = await startOpsApp({ logger: loggerOptions({ level: 'trace', stream }) });
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
