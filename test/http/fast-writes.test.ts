/**
 * The fast writes (src/http/fast-writes.ts) answer plain creates and updates on a listening server
 * before Fastify's request handling. Two apps over one store, one with them and one without, must
 * answer every write alike; the routes' own hook shows which requests the fast writes took, and every
 * refusal reaches the routes with its body and has written nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, revokeKey } from '../../src/app/api-keys.js';
import {
  header,
  headerNames,
  type Listening,
  listen,
  type RawResponse,
  send,
  stable,
} from '../helpers/fast-path.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const EVENT = {
  name: 'Spring summit',
  numPeople: 40,
  otherNotes: 'ünïcödé ✓',
  meetingRoomDates: [{ startDate: '2027-05-03', endDate: '2027-05-05' }],
  agenda: [{ title: 'Keynote', dates: ['2027-05-03'], startTime: '09:00', endTime: '10:00' }],
};

let t: TestApp;
let fast: Listening;
let routes: Listening;
let auth: Record<string, string>;
let wakeUps = 0;

const parsed = (response: RawResponse) => JSON.parse(response.body.toString()) as Record<string, unknown>;
/** Everything in an event's document that two events made alike have in common. */
const alike = (response: RawResponse) => {
  const { id: _id, createdAt: _c, updatedAt: _u, agenda, ...rest } = parsed(response);
  return {
    ...rest,
    agenda: (agenda as Array<Record<string, unknown>>).map(({ id: _s, ...session }) => session),
  };
};
/** Headers whose values name the new event or its version, which differ between two events made alike. */
const unlike = new Set(['location', 'etag', 'content-length']);
const comparable = (response: RawResponse) => stable(response).filter(([name]) => !unlike.has(name));

async function createBoth(body: object = EVENT) {
  const payload = JSON.stringify(body);
  const viaFast = await send(fast.port, 'POST', '/v1/events', { ...auth, ...JSON_HEADERS }, payload);
  const viaRoutes = await send(routes.port, 'POST', '/v1/events', { ...auth, ...JSON_HEADERS }, payload);
  return { viaFast, viaRoutes };
}

async function changeCount(eventId: string) {
  return (await t.deps.store.events.changes(t.demo.organizationId, eventId, { limit: 100 })).length;
}

beforeAll(async () => {
  t = await startTestApp();
  auth = { 'x-api-key': t.key };
  fast = await listen(t, true, 1_000_000, false, () => wakeUps++);
  routes = await listen(t, false);
});
afterAll(async () => {
  for (const listening of [fast, routes].filter(Boolean)) {
    await listening.app.close();
    await listening.limiter.close();
  }
  await t.close();
});

describe('fast writes', () => {
  it('create an event exactly as the routes do, without reaching them', async () => {
    const routed = fast.routed.length;
    const { viaFast, viaRoutes } = await createBoth();
    expect(viaFast.status).toBe(201);
    expect(viaRoutes.status).toBe(201);
    expect(headerNames(viaFast)).toEqual(headerNames(viaRoutes));
    expect(comparable(viaFast)).toEqual(comparable(viaRoutes));
    const created = parsed(viaFast);
    expect(Object.keys(created)).toEqual(['id', 'grantedTo']);
    expect(created.grantedTo).toBe(parsed(viaRoutes).grantedTo);
    expect(header(viaFast, 'location')).toBe(`/v1/events/${created.id}`);
    expect(fast.routed.length).toBe(routed);

    const read = await send(fast.port, 'GET', `/v1/events/${created.id}`, auth);
    const readRoutes = await send(routes.port, 'GET', `/v1/events/${parsed(viaRoutes).id}`, auth);
    expect(alike(read)).toEqual(alike(readRoutes));
    expect(await changeCount(created.id as string)).toBe(1);
  });

  it.each([
    ['application/json', { name: 'Spring summit 2027', numPeople: 55 }],
    [
      'application/merge-patch+json',
      { otherNotes: null, agendaOperations: [{ op: 'remove', sessionId: 'FIRST' }] },
    ],
    [
      'application/json; charset=utf-8',
      { budgetBreakdown: { venue: 40000 }, accommodations: { '2027-05-03': { Single: 20 } } },
    ],
  ])('update an event sent as %s exactly as the routes do', async (type, change) => {
    const { viaFast, viaRoutes } = await createBoth();
    const ids = [parsed(viaFast).id as string, parsed(viaRoutes).id as string];
    const bodies: string[] = [];
    for (const id of ids) {
      const read = await send(routes.port, 'GET', `/v1/events/${id}`, auth);
      const sessionId = (parsed(read).agenda as Array<{ id: string }>)[0]!.id;
      bodies.push(JSON.stringify(change).replace('FIRST', sessionId));
    }
    const routed = fast.routed.length;
    const updated = await send(
      fast.port,
      'PATCH',
      `/v1/events/${ids[0]}`,
      { ...auth, 'content-type': type },
      bodies[0],
    );
    const updatedRoutes = await send(
      routes.port,
      'PATCH',
      `/v1/events/${ids[1]}`,
      { ...auth, 'content-type': type },
      bodies[1],
    );
    expect(updated.status, updated.body.toString()).toBe(200);
    expect(updatedRoutes.status).toBe(200);
    expect(headerNames(updated)).toEqual(headerNames(updatedRoutes));
    expect(comparable(updated)).toEqual(comparable(updatedRoutes));
    expect(alike(updated)).toEqual(alike(updatedRoutes));
    expect(fast.routed.length).toBe(routed);
    const stored = await send(routes.port, 'GET', `/v1/events/${ids[0]}`, auth);
    expect(stored.body.equals(updated.body)).toBe(true);
    expect(header(stored, 'etag')).toBe(header(updated, 'etag'));
    expect(await changeCount(ids[0]!)).toBe(2);
  });

  it('write the same access line as the routes, count the request and wake the webhook dispatcher', async () => {
    const before = wakeUps;
    const { viaFast, viaRoutes } = await createBoth();
    const line = fast.logs.lines().find((entry) => entry.reqId === header(viaFast, 'x-request-id'));
    const routeLine = routes.logs.lines().find((entry) => entry.reqId === header(viaRoutes, 'x-request-id'));
    expect(line).toBeDefined();
    expect(Object.keys(line!)).toEqual(Object.keys(routeLine!));
    expect(line!.req).toEqual({ method: 'POST', path: '/v1/events', remoteAddress: '127.0.0.1' });
    expect(line!.res).toEqual({ statusCode: 201 });
    expect(wakeUps).toBe(before + 1);

    const metrics = await fast.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /eventplan_http_requests_total\{method="POST",route="\/v1\/events",status_code="201"\} [1-9]/,
    );
    expect(metrics.body).toMatch(/eventplan_events_created_total [1-9]/);
  });
});

describe('fast writes hand refusals to the routes', () => {
  let eventId: string;
  beforeAll(async () => {
    eventId = parsed((await createBoth()).viaFast).id as string;
  });

  it.each([
    [
      'an invalid field',
      'PATCH',
      () => `/v1/events/${eventId}`,
      JSON_HEADERS,
      '{"numPeople":-1,"name":""}',
      400,
    ],
    ['a body that is not an object', 'PATCH', () => `/v1/events/${eventId}`, JSON_HEADERS, '[1]', 400],
    ['malformed JSON', 'PATCH', () => `/v1/events/${eventId}`, JSON_HEADERS, '{"name":', 400],
    ['a repeated key', 'POST', () => '/v1/events', JSON_HEADERS, '{"name":"a","name":"b"}', 400],
    ['an unknown field on create', 'POST', () => '/v1/events', JSON_HEADERS, '{"name":"a","colour":1}', 400],
    [
      'an unknown event',
      'PATCH',
      () => '/v1/events/00000000-0000-4000-8000-000000000000',
      JSON_HEADERS,
      '{}',
      404,
    ],
    [
      'an id that is not a UUID',
      'PATCH',
      () => `/v1/events/${'z'.repeat(36)}`,
      JSON_HEADERS,
      '{"name":""}',
      400,
    ],
    [
      'merge-patch on a create',
      'POST',
      () => '/v1/events',
      { 'content-type': 'application/merge-patch+json' },
      '{}',
      415,
    ],
    [
      'another media type',
      'PATCH',
      () => `/v1/events/${eventId}`,
      { 'content-type': 'text/plain' },
      '{}',
      415,
    ],
    ['a query', 'POST', () => '/v1/events?x=1', JSON_HEADERS, '{"name":"a"}', 400],
    [
      'a stale If-Match',
      'PATCH',
      () => `/v1/events/${eventId}`,
      { ...JSON_HEADERS, 'if-match': '"stale"' },
      '{}',
      412,
    ],
    [
      'a wrong key',
      'POST',
      () => '/v1/events',
      { ...JSON_HEADERS, 'x-api-key': `evp_${'a'.repeat(16)}_${'b'.repeat(40)}` },
      '{}',
      401,
    ],
  ])('refuse %s with the routes’ answer, writing nothing', async (_name, method, path, extra, body, status) => {
    const headers = { ...auth, ...extra } as Record<string, string>;
    const changes = await changeCount(eventId);
    const viaFast = await send(fast.port, method, path(), headers, body);
    const viaRoutes = await send(routes.port, method, path(), headers, body);
    expect(viaFast.status, viaFast.body.toString()).toBe(status);
    expect(viaRoutes.status).toBe(status);
    expect(stable(viaFast)).toEqual(stable(viaRoutes));
    const problem = (response: RawResponse) => ({ ...parsed(response), requestId: undefined });
    expect(problem(viaFast)).toEqual(problem(viaRoutes));
    expect(fast.routed.at(-1)).toBe(`${method} ${path()}`);
    expect(await changeCount(eventId)).toBe(changes);
  });

  it('leave a create with an Idempotency-Key to the routes, which create it once', async () => {
    const headers = { ...auth, ...JSON_HEADERS, 'idempotency-key': 'fast-writes-once' };
    const first = await send(fast.port, 'POST', '/v1/events', headers, JSON.stringify(EVENT));
    const again = await send(fast.port, 'POST', '/v1/events', headers, JSON.stringify(EVENT));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(parsed(again).id).toBe(parsed(first).id);
    expect(header(again, 'idempotent-replayed')).toBe('true');
    expect(fast.routed.at(-1)).toBe('POST /v1/events');
  });

  it('leave a body sent in chunks to the routes', async () => {
    const routed = fast.routed.length;
    const response = await send(
      fast.port,
      'PATCH',
      `/v1/events/${eventId}`,
      { ...auth, ...JSON_HEADERS, 'transfer-encoding': 'chunked' },
      '{"numPeople":41}',
    );
    expect(response.status).toBe(200);
    expect(parsed(response).numPeople).toBe(41);
    expect(fast.routed.length).toBe(routed + 1);
  });
});

describe('fast writes, keys and the rate limit', () => {
  it('refuse a key on the very next write after it is revoked', async () => {
    const issued = await issueKey(t.deps, t.demo.userId);
    const headers = { 'x-api-key': issued.key, ...JSON_HEADERS };
    expect((await send(fast.port, 'POST', '/v1/events', headers, '{"name":"Kept"}')).status).toBe(201);
    await revokeKey(t.deps, issued.keyId);
    expect((await send(fast.port, 'POST', '/v1/events', headers, '{"name":"Refused"}')).status).toBe(401);
  });

  it('count a write once, also when they hand it to the routes', async () => {
    const limited = await listen(t, true, 2);
    try {
      const headers = { ...auth, ...JSON_HEADERS };
      const refused = await send(limited.port, 'POST', '/v1/events', headers, '{"name":""}');
      const created = await send(limited.port, 'POST', '/v1/events', headers, '{"name":"Counted"}');
      const limitedOut = await send(limited.port, 'POST', '/v1/events', headers, '{"name":"Too many"}');
      expect([refused, created, limitedOut].map((response) => response.status)).toEqual([400, 201, 429]);
      expect([refused, created].map((response) => header(response, 'ratelimit-remaining'))).toEqual([
        '1',
        '0',
      ]);
      expect(limited.routed).toEqual(['POST /v1/events', 'POST /v1/events']);
    } finally {
      await limited.app.close();
      await limited.limiter.close();
    }
  });
});
