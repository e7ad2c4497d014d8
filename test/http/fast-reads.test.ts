/**
 * The fast reads (src/http/fast-reads.ts) answer plain event reads on a listening server before
 * Fastify's request handling. Two apps over one store, one with them and one without, must answer
 * every request alike; the routes' own hook shows which requests the fast reads took.
 */
import { randomUUID } from 'node:crypto';
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

const get = (port: number, path: string, headers: Record<string, string>) => send(port, 'GET', path, headers);

/** A second person in the demo organization, with a key of their own to come. */
async function addPerson(t: TestApp): Promise<string> {
  const id = randomUUID();
  await t.deps.store.identity.insertUser({
    id,
    organizationId: t.demo.organizationId,
    email: `${id}@example.com`,
    name: 'Second planner',
    active: true,
    createdAt: new Date().toISOString(),
  });
  return id;
}

let t: TestApp;
let fast: Listening;
let routes: Listening;
let eventId: string;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  auth = { 'x-api-key': t.key };
  for (const name of ['Spring summit', 'Board offsite', 'Sales kickoff']) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/events',
      headers: auth,
      payload: { name, numPeople: 40, otherNotes: 'ünïcödé ✓' },
    });
    expect(created.statusCode, created.body).toBe(201);
    eventId = created.json().id;
  }
  fast = await listen(t, true);
  routes = await listen(t, false);
});
afterAll(async () => {
  for (const listening of [fast, routes].filter(Boolean)) {
    await listening.app.close();
    await listening.limiter.close();
  }
  await t.close();
});

describe('fast reads', () => {
  it.each([
    ['an event', () => `/v1/events/${eventId}`],
    ['an event by its id in capitals', () => `/v1/events/${eventId.toUpperCase()}`],
    ['the first page', () => '/v1/events'],
    ['a page and a limit', () => '/v1/events?page=2&limit=1'],
    ['a limit alone', () => '/v1/events?limit=2'],
    ['a page past the end', () => '/v1/events?page=9&limit=100'],
  ])('answer %s exactly as the routes do, without reaching them', async (_name, path) => {
    const fastCount = fast.routed.length;
    const viaFast = await get(fast.port, path(), auth);
    const viaRoutes = await get(routes.port, path(), auth);
    expect(viaFast.status).toBe(200);
    expect(viaFast.status).toBe(viaRoutes.status);
    expect(headerNames(viaFast)).toEqual(headerNames(viaRoutes));
    expect(stable(viaFast)).toEqual(stable(viaRoutes));
    expect(viaFast.body.equals(viaRoutes.body)).toBe(true);
    expect(header(viaFast, 'x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(fast.routed.length).toBe(fastCount);
    expect(routes.routed.at(-1)).toBe(`GET ${path()}`);
  });

  it('send back the caller’s request id', async () => {
    const response = await get(fast.port, `/v1/events/${eventId}`, { ...auth, 'x-request-id': 'trace-42.a' });
    expect(header(response, 'x-request-id')).toBe('trace-42.a');
  });

  it.each([
    ['a conditional GET', () => `/v1/events/${eventId}`, { 'if-none-match': '"x"' }, 200],
    ['an unknown event', () => '/v1/events/00000000-0000-4000-8000-000000000000', {}, 404],
    ['an id that is not a UUID', () => `/v1/events/${'z'.repeat(36)}`, {}, 400],
    ['a filtered list', () => '/v1/events?status=draft', {}, 200],
    ['a page out of range', () => '/v1/events?page=0', {}, 400],
    ['a parameter given twice', () => '/v1/events?limit=1&limit=2', {}, 400],
    ['an unknown parameter', () => '/v1/events?sort=name', {}, 400],
    ['a query on an event', () => `/v1/events/${eventId}?x=1`, {}, 400],
    [
      'a wrong key',
      () => `/v1/events/${eventId}`,
      { 'x-api-key': `${'evp_'}${'a'.repeat(16)}_${'b'.repeat(40)}` },
      401,
    ],
    ['no key', () => '/v1/events', { 'x-api-key': '' }, 401],
  ])('leave %s to the routes, with the same answer', async (_name, path, extra, status) => {
    const headers = { ...auth, ...extra } as Record<string, string>;
    if (headers['x-api-key'] === '') delete headers['x-api-key'];
    const viaFast = await get(fast.port, path(), headers);
    const viaRoutes = await get(routes.port, path(), headers);
    expect(viaFast.status).toBe(status);
    expect(viaRoutes.status).toBe(status);
    expect(stable(viaFast)).toEqual(stable(viaRoutes));
    const body = (response: RawResponse) => ({
      ...JSON.parse(response.body.toString()),
      requestId: undefined,
    });
    expect(body(viaFast)).toEqual(body(viaRoutes));
    expect(fast.routed.at(-1)).toBe(`GET ${path()}`);
  });

  it('write the same access line as the routes and count the request in the same metrics series', async () => {
    const path = `/v1/events/${eventId}`;
    const before = fast.logs.lines().length;
    const response = await get(fast.port, path, auth);
    const viaRoutes = await get(routes.port, path, auth);
    const line = fast.logs
      .lines()
      .slice(before)
      .find((entry) => entry.reqId === header(response, 'x-request-id'));
    const routeLine = routes.logs.lines().find((entry) => entry.reqId === header(viaRoutes, 'x-request-id'));
    expect(line).toBeDefined();
    const shape = (entry: Record<string, unknown>) => ({
      ...entry,
      time: typeof entry.time,
      reqId: typeof entry.reqId,
      responseTime: typeof entry.responseTime,
    });
    expect(Object.keys(line!)).toEqual(Object.keys(routeLine!));
    expect(shape(line!)).toEqual(shape(routeLine!));
    expect(line!.req).toEqual({ method: 'GET', path, remoteAddress: '127.0.0.1' });
    const listLine = async () => {
      const listed = await get(fast.port, '/v1/events?limit=1', auth);
      return fast.logs.lines().find((entry) => entry.reqId === header(listed, 'x-request-id'));
    };
    expect((await listLine())?.req).toEqual({
      method: 'GET',
      path: '/v1/events',
      remoteAddress: '127.0.0.1',
    });

    const metrics = await fast.app.inject({ method: 'GET', url: '/metrics' });
    const served = (route: string) =>
      Number(
        new RegExp(
          `eventplan_http_requests_total\\{method="GET",route="${route}",status_code="200"\\} (\\d+)`,
        ).exec(metrics.body)?.[1],
      );
    expect(served('/v1/events/:id')).toBeGreaterThanOrEqual(3);
    expect(served('/v1/events')).toBeGreaterThanOrEqual(5);
    expect(metrics.body).toContain(
      'eventplan_http_request_duration_seconds_count{method="GET",route="/v1/events/:id"',
    );
  });
});

describe('fast reads and keys', () => {
  it('refuse a key from the very next request after it is revoked or its user deactivated', async () => {
    const path = `/v1/events/${eventId}`;
    const issued = await issueKey(t.deps, t.demo.userId);
    expect((await get(fast.port, path, { 'x-api-key': issued.key })).status).toBe(200);
    await revokeKey(t.deps, issued.keyId);
    expect((await get(fast.port, path, { 'x-api-key': issued.key })).status).toBe(401);

    const userId = await addPerson(t);
    const own = await issueKey(t.deps, userId);
    expect((await get(fast.port, path, { 'x-api-key': own.key })).status).toBe(200);
    await t.deps.store.identity.deactivateUser(userId);
    expect((await get(fast.port, path, { 'x-api-key': own.key })).status).toBe(401);
    expect((await get(fast.port, '/v1/events', { 'x-api-key': own.key })).status).toBe(401);
  });
});

describe('fast reads behind a proxy', () => {
  it('log the client address the trusted proxy forwarded, as the routes do', async () => {
    const proxied = [await listen(t, true, 1_000_000, 1), await listen(t, false, 1_000_000, 1)];
    try {
      const headers = { ...auth, 'x-forwarded-for': '203.0.113.9' };
      const addresses: unknown[] = [];
      for (const listening of proxied) {
        const response = await get(listening.port, `/v1/events/${eventId}`, headers);
        const line = listening.logs.lines().find((entry) => entry.reqId === header(response, 'x-request-id'));
        addresses.push((line?.req as { remoteAddress?: string } | undefined)?.remoteAddress);
      }
      expect(addresses).toEqual(['203.0.113.9', '203.0.113.9']);
      expect(proxied[0]!.routed).toEqual([]);
    } finally {
      for (const listening of proxied) {
        await listening.app.close();
        await listening.limiter.close();
      }
    }
  });
});

describe('fast reads and the rate limit', () => {
  it('count a request once, also when they hand it to the routes', async () => {
    const limited = await listen(t, true, 3);
    try {
      const path = `/v1/events/${eventId}`;
      const first = await get(limited.port, path, auth);
      const second = await get(limited.port, '/v1/events/00000000-0000-4000-8000-000000000000', auth);
      const third = await get(limited.port, '/v1/events', auth);
      const fourth = await get(limited.port, path, auth);
      expect([first, second, third, fourth].map((response) => response.status)).toEqual([200, 404, 200, 429]);
      expect(
        [first, second, third, fourth].map((response) => header(response, 'ratelimit-remaining')),
      ).toEqual(['2', '1', '0', '0']);
      expect(header(fourth, 'retry-after')).toMatch(/^\d+$/);
      expect(limited.routed).toEqual(['GET /v1/events/00000000-0000-4000-8000-000000000000', `GET ${path}`]);
    } finally {
      await limited.app.close();
      await limited.limiter.close();
    }
  });
});

describe('fast reads while shutting down', () => {
  it('leave every request to the routes, which close the connection', async () => {
    const closing = await listen(t, true);
    try {
      closing.readiness.beginShutdown();
      const response = await get(closing.port, `/v1/events/${eventId}`, auth);
      expect(response.status).toBe(200);
      expect(header(response, 'connection')).toBe('close');
      expect(closing.routed).toEqual([`GET /v1/events/${eventId}`]);
    } finally {
      await closing.app.close();
      await closing.limiter.close();
    }
  });
});
