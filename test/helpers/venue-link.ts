/**
 * A request for proposals sent to a venue through the real app's API, and the link's token from the
 * venue's mail: what the venue's page (/rfp/{token}) is opened with.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import type { TestApp } from './test-app.js';

/** A small event D16's checklist accepts, decided by 1 April 2090: what most request tests send. */
export const READY_EVENT = {
  name: 'Offsite',
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 20,
  meetingRoomDates: [{ startDate: '2090-05-04', endDate: '2090-05-05' }],
  accommodations: { '2090-05-04': { Single: 10 } },
  decisionDeadline: '2090-04-01',
};

export interface SentRequest {
  eventId: string;
  requestId: string;
  venue: { id: string; name: string; email: string };
  token: string;
}

export async function callApi(
  t: TestApp,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const response = await t.app.inject({
    method,
    url,
    headers: { 'x-api-key': t.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON field by field
  return { status: response.statusCode, json: (response.body ? response.json() : undefined) as any };
}

/** The token of the link in the venue's request mail. */
export async function linkTokenFor(t: TestApp, email: string): Promise<string> {
  const mails = await t.deps.store.mail.list({ to: email, limit: 5 });
  const sent = mails.find((mail) => /\/rfp\/\w+/.test(mail.text ?? ''));
  return /\/rfp\/(\w+)/.exec(sent?.text ?? '')![1]!;
}

/** A new event of `body`, `venues` venues on its shortlist, the requests sent; one per venue. */
export async function sendRequests(
  t: TestApp,
  body: Record<string, unknown>,
  venueNames: readonly string[] = ['Casa do Rio'],
): Promise<SentRequest[]> {
  const event = await callApi(t, 'POST', '/v1/events', body);
  expect(event.status, JSON.stringify(event.json)).toBe(201);
  const eventId = event.json.id as string;
  const added = [];
  for (const name of venueNames) {
    const venue = await callApi(t, 'POST', '/v1/venues', {
      name,
      email: `${randomUUID()}@venues.example`,
      city: 'Lisbon',
    });
    expect(venue.status, JSON.stringify(venue.json)).toBe(201);
    const request = await callApi(t, 'POST', `/v1/events/${eventId}/venue-requests`, {
      venueId: venue.json.id,
    });
    expect(request.status, JSON.stringify(request.json)).toBe(201);
    added.push({ venue: venue.json, requestId: request.json.id as string });
  }
  await changeEventStatus(t.deps, eventId, 'wait_for_proposals');
  return Promise.all(
    added.map(async ({ venue, requestId }) => ({
      eventId,
      requestId,
      venue: { id: venue.id, name: venue.name, email: venue.email },
      token: await linkTokenFor(t, venue.email),
    })),
  );
}

/** The request as the planner's API reads it, with its latest proposal. */
export async function requestOf(t: TestApp, sent: SentRequest) {
  const response = await callApi(t, 'GET', `/v1/events/${sent.eventId}/venue-requests/${sent.requestId}`);
  expect(response.status).toBe(200);
  return response.json;
}
