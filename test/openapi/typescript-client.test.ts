/** The typed client (clients/typescript) against a real listening server, every response checked. */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickstart } from '../../clients/typescript/examples/quickstart.js';
import { createEventplanClient, type EventplanClientOptions, type RetryInfo } from '../../clients/typescript/src/index.js';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { changeEventStatus } from '../../src/app/events.js';
import { expectMatchesOpenApi, fromFetch } from '../helpers/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** fetch that fails the test when a response does not match the document. */
const checkedFetch = async (request: Request): Promise<Response> => {
  const response = await fetch(request.clone());
  expectMatchesOpenApi(await fromFetch(response.clone()), request.method, new URL(request.url).pathname);
  return response;
};

describe('the TypeScript client on a live server', () => {
  let t: TestApp;
  let options: EventplanClientOptions;

  beforeAll(async () => {
    t = await startTestApp();
    options = { baseUrl: await listen(t), apiKey: t.key, fetch: checkedFetch };
  });
  afterAll(() => t.close());

  it('creates, reads, updates the agenda and lists, as in the example', async () => {
    const lines: string[] = [];
    const result = await quickstart(createEventplanClient(options), (line) => lines.push(line));
    expect(result.event.id).toBe(result.id);
    expect(result.event.agenda.map((session) => session.title)).toEqual(['Opening plenary']);
    expect(result.event.budgetBreakdown).toEqual({ venue: 25000, fb: 8000.5 });
    expect(result.etag).toMatch(/^"/);
    expect(result.listed).toBe(1);
    expect(lines).toHaveLength(4);

    const again = await createEventplanClient(options).GET('/v1/events/{id}', {
      params: { path: { id: result.id } },
    });
    expect(again.data?.agenda).toEqual(result.event.agenda);
    expect(again.response.headers.get('etag')).toBe(result.etag);
  });

  it('reads the change feed page by page, resumes from a saved cursor, and tails it until aborted', async () => {
    const client = createEventplanClient(options);
    const seen: number[] = [];
    let saved: string | undefined;
    for await (const page of client.changeFeed({ pageSize: 2 })) {
      seen.push(...page.data.map((change) => change.sequence));
      saved = page.nextCursor;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual(seen.map((_, index) => index + 1));

    const controller = new AbortController();
    const tailed: string[] = [];
    const tail = (async () => {
      for await (const page of client.changeFeed({ after: saved!, follow: true, pollIntervalMs: 20, signal: controller.signal })) {
        tailed.push(...page.data.map((change) => change.type));
        if (tailed.length >= 2) controller.abort();
      }
    })();
    const { data } = await client.POST('/v1/events', { body: { name: 'Tailed' } });
    await client.PATCH('/v1/events/{id}', { params: { path: { id: data!.id } }, body: { numPeople: 4 } });
    await tail;
    expect(tailed).toEqual(['event.created', 'event.updated']);
  });

  it('follows pagination through every page, newest first, without repeats', async () => {
    const client = createEventplanClient(options);
    for (let index = 0; index < 7; index++) {
      const { response } = await client.POST('/v1/events', { body: { name: `Paged ${index}` } });
      expect(response.status).toBe(201);
    }
    const listed = [];
    for await (const event of client.listAllEvents({ pageSize: 3 })) listed.push(event);
    const { data } = await client.GET('/v1/events', { params: { query: { limit: 100 } } });
    expect(listed.length).toBe(data?.total);
    expect(listed.map((event) => event.id)).toEqual(data?.data.map((event) => event.id));
    expect(new Set(listed.map((event) => event.id)).size).toBe(listed.length);
    // The seven just created come first; events created in the same millisecond are ordered by id.
    expect(listed.slice(0, 7).map((event) => event.name).sort()).toEqual(
      ['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4', 'Paged 5', 'Paged 6'],
    );
    const createdAt = listed.map((event) => event.createdAt);
    expect(createdAt).toEqual([...createdAt].sort().reverse());
  });

  it('adds a venue, shortlists it on an event, enters a proposal and awards it, each typed', async () => {
    const client = createEventplanClient(options);
    const venue = await client.POST('/v1/venues', {
      body: { name: 'Typed Hotel', email: 'typed@venues.example', city: 'Lisbon' },
    });
    expect(venue.data?.name).toBe('Typed Hotel');
    const event = await client.POST('/v1/events', {
      body: { name: 'Typed sourcing', eventDates: [{ startDate: '2090-05-01', endDate: '2090-05-02' }] },
    });
    const eventId = event.data!.id;
    const shortlisted = await client.POST('/v1/events/{id}/venue-requests', {
      params: { path: { id: eventId } },
      body: { venueId: venue.data!.id },
    });
    expect(shortlisted.data?.status).toBe('shortlisted');
    const requestId = shortlisted.data!.id;
    const path = { id: eventId, requestId };
    const early = await client.POST('/v1/events/{id}/venue-requests/{requestId}/proposals', {
      params: { path },
      body: { validUntil: '2090-04-01', meetingRoomRental: 500 },
    });
    expect(early.error?.code).toBe('request_not_sent');
    await changeEventStatus(t.deps, eventId, 'wait_for_proposals');
    const proposal = await client.POST('/v1/events/{id}/venue-requests/{requestId}/proposals', {
      params: { path },
      body: { validUntil: '2090-04-01', meetingRoomRental: 500 },
    });
    expect(proposal.data?.totals.total).toBe(500);
    const awarded = await client.POST('/v1/events/{id}/venue-requests/{requestId}/award', {
      params: { path },
      body: { comment: 'Yes' },
    });
    expect(awarded.data?.status).toBe('awarded');
    const listed = await client.GET('/v1/events/{id}/venue-requests', { params: { path: { id: eventId } } });
    expect(listed.data?.data.map((request) => request.decision?.comment)).toEqual(['Yes']);
  });

  it('reports a refused request with its problem details', async () => {
    const client = createEventplanClient(options);
    const { error, response } = await client.POST('/v1/events', { body: { name: '' } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'validation_failed', errors: [{ field: 'name' }] });
  });
});

describe('the TypeScript client when rate limited', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    // Two requests per one-second window: the third waits about a second.
    t = await startTestApp({ rateLimiter: createMemoryRateLimiter({ limit: 2, windowMs: 1000 }) });
    baseUrl = await listen(t);
  });
  afterAll(() => t.close());

  it('waits Retry-After and retries a 429, so every call finally succeeds', async () => {
    const retries: RetryInfo[] = [];
    const client = createEventplanClient({
      baseUrl,
      apiKey: t.key,
      fetch: checkedFetch,
      maxRetries: 5,
      onRetry: (retry) => retries.push(retry),
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => client.GET('/v1/events', { params: { query: { limit: 1 } } })),
    );
    expect(results.map(({ response }) => response.status)).toEqual([200, 200, 200, 200]);
    expect(retries.length).toBeGreaterThan(0);
    for (const retry of retries) {
      expect(retry.response.status).toBe(429);
      expect(retry.waitMs).toBe(Number(retry.response.headers.get('retry-after')) * 1000);
      expect(retry.waitMs).toBeGreaterThan(0);
    }
  });

  it('returns the 429 to the caller once its retries are used up', async () => {
    const client = createEventplanClient({ baseUrl, apiKey: t.key, fetch: checkedFetch, maxRetries: 0 });
    const results = await Promise.all(Array.from({ length: 4 }, () => client.GET('/v1/events')));
    const refused = results.filter(({ response }) => response.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.error).toMatchObject({ code: 'rate_limited' });
  });
});
