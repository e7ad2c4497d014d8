/**
 * The benchmark's floor (bench/floor) must answer what eventplan answers and store what eventplan
 * stores, or a ratio to it would compare different work. Two databases are seeded alike, with the
 * same ids and clock; eventplan (listening, so its fast reads answer) serves one and the floor the
 * other; every request goes to both, and responses, access lines, metrics and rows are compared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGcra } from '../../bench/floor/gcra.js';
import { createObservers } from '../../bench/floor/observers.js';
import { createPostgresFloor } from '../../bench/floor/postgres-floor.js';
import { createSqliteFloor } from '../../bench/floor/sqlite-floor.js';
import {
  createBody,
  createdAtFor,
  eventIdFor,
  patchBody,
  SESSIONS_PER_EVENT,
  uuidFor,
} from '../../bench/workload.js';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { issueKey, revokeKey } from '../../src/app/api-keys.js';
import type { AppDeps } from '../../src/app/deps.js';
import { changeEventStatus, createEvent } from '../../src/app/events.js';
import { createDemo, createUser, deactivateUser } from '../../src/app/organizations.js';
import { placeKey } from '../../src/domain/places.js';
import { buildApp } from '../../src/http/app.js';
import { loggerOptions } from '../../src/http/logging.js';
import { createMetrics, type Metrics } from '../../src/http/metrics.js';
import type { PlaceRow } from '../../src/ports/place-repository.js';
import type { Store } from '../../src/ports/store.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { createTestSchema } from '../helpers/postgres.js';
import { testBackend } from '../helpers/test-store.js';

const backend = testBackend();
const EVENTS = 30;
/** Enough older events that the middle page of the list is read from a page anchor (SQLite). */
const BULK = 2100;
const END = Date.UTC(2026, 4, 1);
const CANCELLED = EVENTS - 1;

/**
 * Ids numbered by request and by their order within it: both sides ask for ids in the same order, so
 * they get the same ones. Per request, because eventplan's fast writes hand a refused write to the
 * routes, which check it (and draw its ids) a second time; a refused write stores none of them.
 */
function countingIds(prefix: string) {
  let request = -1;
  let next = 0;
  const number = () => {
    if (request !== requestNumber) {
      request = requestNumber;
      next = 0;
    }
    return `${request.toString(16).padStart(6, '0')}${(++next).toString(16).padStart(6, '0')}`;
  };
  return {
    uuid: () => `00000000-0000-4000-${prefix}-${number()}`,
    token: (length: number) => `${prefix}${number()}`.padStart(length, 'x'),
  };
}

let clockMs = END;
const clock = { now: () => new Date(clockMs) };

const place = (
  id: number,
  name: string,
  countryCode: string,
  adminCode: string,
  population: number,
): PlaceRow => ({
  id,
  name,
  nameKey: placeKey(name),
  countryCode,
  adminCode,
  population,
  latitude: 1.5,
  longitude: -2.25,
  timeZone: 'Etc/UTC',
});
/** The sample places and the benchmark's cities: some resolve, some (Vancouver, BC; Munich, Bavaria) do not. */
const PLACES: PlaceRow[] = [
  ...SAMPLE_PLACES,
  place(4671654, 'Austin', 'US', 'TX', 961_855),
  place(3128760, 'Barcelona', 'ES', '56', 1_620_343),
  place(5419384, 'Denver', 'US', 'CO', 715_522),
  place(6173331, 'Vancouver', 'CA', '02', 600_000),
  place(1880252, 'Singapore', 'SG', '00', 3_547_809),
  place(2867714, 'Munich', 'DE', '02', 1_260_391),
  place(1857910, 'Kyoto', 'JP', '22', 1_459_640),
];

interface TestDatabase {
  store: Store;
  /** The SQLite file or the postgres:// URL. */
  url: string;
  rows(sql: string): Promise<Record<string, unknown>[]>;
  run(sql: string): Promise<void>;
  drop(): Promise<void>;
}

async function openDatabase(): Promise<TestDatabase> {
  if (backend === 'postgres') {
    const schema = await createTestSchema();
    const store = openPostgresStore({ url: schema.url, poolSize: 4 });
    await store.migrate();
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    return {
      store,
      url: schema.url,
      rows: async (sql) => (await pool.query(sql)).rows,
      run: async (sql) => {
        await pool.query(sql);
      },
      async drop() {
        await pool.end();
        await store.close();
        await schema.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-floor-'));
  const path = join(dir, 'eventplan.db');
  const store = openSqliteStore({ path });
  await store.migrate();
  const connection = new Database(path);
  return {
    store,
    url: path,
    rows: async (sql) => connection.prepare(sql).all() as Record<string, unknown>[],
    run: async (sql) => {
      connection.exec(sql);
    },
    async drop() {
      connection.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Old events written straight to the table, for deep list pages; only their summaries are ever read. */
function bulkInsert(organizationId: string, userId: string): string {
  if (backend === 'postgres') {
    return `
      INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, document, summary, etag)
      SELECT '${organizationId}', 'bulk-' || lpad(i::text, 5, '0'), '${userId}',
        timestamptz '2020-01-01T00:00:00Z' + i * interval '1 minute', timestamptz '2020-01-01T00:00:00Z',
        'draft', '{}', json_build_object('id', 'bulk-' || i, 'n', i)::text, '"x"'
      FROM generate_series(1, ${BULK}) i;
      UPDATE organizations SET event_count = event_count + ${BULK} WHERE id = '${organizationId}';`;
  }
  return `
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK})
    INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, document, summary, etag)
    SELECT '${organizationId}', printf('bulk-%05d', i), '${userId}', printf('2020-01-01T%05d', i),
      '2020-01-01T00:00:00.000Z', 'draft', '{}', json_object('id', 'bulk-' || i, 'n', i), '"x"'
    FROM n;
    UPDATE organizations SET event_count = event_count + ${BULK} WHERE id = '${organizationId}';`;
}

interface Keys {
  planner: string;
  loner: string;
  revoked: string;
  deactivated: string;
}

/** The benchmark's organization, its events (ids from workload.ts), and keys that must not work. */
async function seed(database: TestDatabase): Promise<Keys> {
  const ids = countingIds('8000');
  clockMs = END;
  const deps: AppDeps = { store: database.store, clock, ids };
  await database.store.places.replaceAll(PLACES, 'test');
  const demo = await createDemo(deps);
  const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
  for (let index = 0; index < EVENTS; index++) {
    let slot = 0;
    const eventIds = {
      uuid: () => (slot <= SESSIONS_PER_EVENT ? uuidFor(index, slot++) : ids.uuid()),
      token: ids.token,
    };
    const at = { now: () => createdAtFor(index, EVENTS, END) };
    await createEvent({ store: database.store, clock: at, ids: eventIds }, principal, createBody(index));
  }
  await changeEventStatus(deps, eventIdFor(CANCELLED), 'cancelled');
  const revoked = await issueKey(deps, demo.approverId);
  await revokeKey(deps, revoked.keyId);
  const gone = await createUser(deps, { organizationId: demo.organizationId, email: 'gone@example.com' });
  const deactivated = await issueKey(deps, gone.id);
  await deactivateUser(deps, gone.id);
  const loner = await createUser(deps, { organizationId: demo.organizationId, email: 'loner@example.com' });
  const lonerKey = await issueKey(deps, loner.id);
  await database.run(bulkInsert(demo.organizationId, demo.userId));
  return { planner: demo.key, loner: lonerKey.key, revoked: revoked.key, deactivated: deactivated.key };
}

const lineCollector = (lines: string[]) =>
  new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

let service: { database: TestDatabase; app: FastifyInstance; metrics: Metrics; url: string; lines: string[] };
let floor: {
  database: TestDatabase;
  server: Server;
  close(): unknown;
  url: string;
  lines: string[];
  metrics(): Promise<string>;
};
let keys: Keys;
let requestNumber = 0;

async function ask(url: string, method: string, path: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(`${url}${path}`, { ...init, method });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/**
 * Sends one request to eventplan, then the same to the floor, at the same clock, and expects the
 * same status, body and headers. Answers eventplan's response.
 */
async function both(
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  requestNumber++;
  clockMs = END + requestNumber * 1000;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const key = options.key === undefined ? keys.planner : options.key;
  const init: RequestInit = {
    headers: {
      'x-request-id': `request-${requestNumber}`,
      ...(key === null ? {} : { 'x-api-key': key }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body }),
  };
  const expected = await ask(service.url, method, path, init);
  const actual = await ask(floor.url, method, path, init);
  const what = `${method} ${path} ${body?.slice(0, 200) ?? ''}`;
  expect(actual.status, what).toBe(expected.status);
  expect(actual.body, what).toBe(expected.body);
  for (const name of ['content-type', 'etag', 'location', 'ratelimit-limit', 'x-request-id'])
    expect(actual.headers.get(name), `${what}: ${name}`).toBe(expected.headers.get(name));
  expect(actual.headers.has('retry-after'), what).toBe(expected.headers.has('retry-after'));
  return expected;
}

/** The sessions a PATCH answer shows that earlier PATCHes added. */
const addedSessions = (document: string) =>
  [...document.matchAll(/"id":"([0-9a-f-]{36})","title":"Side meeting"/g)].map((match) => match[1]!);

beforeAll(async () => {
  const serviceDatabase = await openDatabase();
  const floorDatabase = await openDatabase();
  keys = await seed(serviceDatabase);
  expect(await seed(floorDatabase)).toEqual(keys);

  const serviceLines: string[] = [];
  const metrics = createMetrics();
  const app = await buildApp({
    deps: { store: serviceDatabase.store, clock, ids: countingIds('9000') },
    rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }),
    logger: loggerOptions({ level: 'info', stream: lineCollector(serviceLines) }),
    metrics,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  service = {
    database: serviceDatabase,
    app,
    metrics,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    lines: serviceLines,
  };

  const floorLines: string[] = [];
  const observers = createObservers({ write: (line: string) => floorLines.push(line.trimEnd()) });
  const options = {
    limiter: createGcra(1_000_000),
    observers,
    uuid: countingIds('9000').uuid,
    now: clock.now,
  };
  const served =
    backend === 'postgres'
      ? createPostgresFloor(floorDatabase.url, options)
      : createSqliteFloor(floorDatabase.url, options);
  const server = createServer(served.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  floor = {
    database: floorDatabase,
    server,
    close: served.close,
    url: urlOf(server),
    lines: floorLines,
    metrics: () => observers.registry.metrics(),
  };
}, 120_000);

afterAll(async () => {
  await service?.app.close();
  await service?.database.drop();
  if (floor) {
    await new Promise((resolve) => floor.server.close(resolve));
    floor.server.closeAllConnections();
    await floor.close();
    await floor.database.drop();
  }
});

describe(`the floor on ${backend}`, () => {
  it('answers a GET of an event with the same document and ETag, and refuses the same requests', async () => {
    for (const index of [0, 7, 13]) {
      const answer = await both('GET', `/v1/events/${eventIdFor(index)}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('etag')).toMatch(/^"[\w-]{32}"$/);
    }
    await both('GET', `/v1/events/${eventIdFor(3).toUpperCase()}`);
    await both('GET', `/v1/events/${uuidFor(999, 0)}`);
    await both('GET', '/v1/events/not-a-uuid');
    await both('GET', `/v1/events/${eventIdFor(1)}`, { key: null });
    await both('GET', `/v1/events/${eventIdFor(1)}`, { key: 'evp_nope' });
    await both('GET', `/v1/events/${eventIdFor(1)}`, { key: `evp_${'A'.repeat(16)}_${'b'.repeat(40)}` });
    await both('GET', `/v1/events/${eventIdFor(1)}`, { key: keys.revoked });
    await both('GET', `/v1/events/${eventIdFor(1)}`, { key: keys.deactivated });
  });

  it('answers list pages with the same summaries and total, deep pages included', async () => {
    const total = EVENTS + BULK;
    const middle = Math.ceil(total / 20 / 2);
    for (const query of [
      '',
      '?page=1&limit=20',
      '?limit=5&page=2',
      `?page=${middle}&limit=20`,
      `?page=${middle + 3}&limit=7`,
      `?page=${Math.ceil(total / 20)}&limit=20`,
      `?page=${Math.ceil(total / 20) + 1}&limit=20`,
      '?page=3&limit=100',
    ]) {
      const answer = await both('GET', `/v1/events${query}`);
      expect(answer.status).toBe(200);
    }
    await both('GET', '/v1/events', { key: keys.revoked });
  });

  it("applies the benchmark's updates with the same documents and ETags", async () => {
    for (let index = 0; index < 10; index++) {
      const first = await both('PATCH', `/v1/events/${eventIdFor(index)}`, {
        body: patchBody(index, 100 + index),
      });
      expect(first.status).toBe(200);
      const [added] = addedSessions(first.body);
      const second = await both('PATCH', `/v1/events/${eventIdFor(index)}`, {
        body: patchBody(index, 200 + index, added),
      });
      expect(addedSessions(second.body)).not.toContain(added);
    }
  });

  it('applies other updates alike: nights added and removed, places, names, nothing changed', async () => {
    const id = eventIdFor(11);
    const updates: unknown[] = [
      {},
      { organizationId: 'ignored', name: 'Sales kickoff 2027 #11' },
      { budgetBreakdown: { venue: null, merch: 12.5 }, accommodations: { '2026-01-01': { VIP: 2 } } },
      { accommodations: { '2026-01-01': null, '2026-03-30': { Twin: 0 } } },
      {
        formattedLocations: [
          { city: 'Lisbon', country: 'Portugal' },
          { city: 'Springfield', state: 'IL' },
        ],
      },
      { formattedLocations: [{ city: 'Paris', formatted_address: 'typed' }], numPeople: null },
      {
        decisionFactors: ['Price'],
        otherNotes: null,
        decisionDeadline: '2026-02-01',
        numMeetingRoomsNeeded: 4,
      },
      { meetingRoomDates: [{ startDate: '2026-01-10', endDate: '2026-01-20' }] },
      {
        agendaOperations: [
          {
            op: 'update',
            sessionId: uuidFor(11, 3).toUpperCase(),
            session: { dates: ['2026-01-16', '2026-01-12'], useInternalSpace: true },
          },
        ],
      },
      {
        agendaOperations: [
          {
            op: 'update',
            sessionId: uuidFor(11, 3),
            session: { useInternalSpace: null, startTime: '07:00' },
          },
        ],
      },
      { agendaOperations: [{ op: 'remove', sessionId: uuidFor(11, 5) }] },
      { id: eventIdFor(11).toUpperCase(), status: 'draft', agendaOperations: [] },
    ];
    for (const body of updates) {
      const answer = await both('PATCH', `/v1/events/${id}`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(200);
    }
  });

  it('refuses updates with the same problems', async () => {
    const id = eventIdFor(12);
    const refused: unknown[] = [
      { budgetBreakdown: { venue: -1, fb: 1.234, pizza: 3 } },
      {
        accommodations: {
          '2026-02-30': { Single: 1 },
          __proto__x: 1,
          '2026-01-02': { Single: 1.5, Pony: 1 },
        },
      },
      { accommodations: [] },
      { name: null, numPeople: 'many', flexibility: 'x'.repeat(1001), color: 'red', location: 'Nowhere' },
      {
        agendaOperations: [{ op: 'update', sessionId: 'nope', session: { capacity: 1 } }, { op: 'jump' }, 3],
      },
      {
        agendaOperations: [
          {
            op: 'add',
            session: { title: 'Late', dates: ['2027-01-01'], startTime: '10:00', endTime: '09:00' },
          },
        ],
      },
      {
        agendaOperations: [
          { op: 'add', sessionId: 'x', session: { id: 'mine', title: ' ', dates: [], startTime: '25:00' } },
        ],
      },
      { agendaOperations: [{ op: 'update', sessionId: uuidFor(12, 2), session: { startTime: '23:00' } }] },
      {
        agendaOperations: [
          { op: 'remove', session: {} },
          { op: 'remove', sessionId: uuidFor(12, 1) },
          { op: 'remove', sessionId: uuidFor(12, 1) },
        ],
      },
      { agendaOperations: null },
      {
        agendaOperations: [
          {
            op: 'update',
            sessionId: uuidFor(12, 1),
            session: { dates: ['2027-01-01'], avRequirements: ['ok', 1] },
          },
          { op: 'update', sessionId: uuidFor(12, 2), session: { dates: ['2027-02-01'] } },
          {
            op: 'add',
            session: { title: 'T', dates: ['2026-13-01', 5], startTime: '09:00', endTime: '10:00' },
          },
          {
            op: 'add',
            session: { title: 'T', dates: ['2027-03-01'], startTime: '9am', endTime: '10:00', capacity: -1 },
          },
        ],
      },
      { meetingRoomDates: [{ startDate: '2026-03-01', endDate: '2026-03-02' }] },
      { meetingRoomDates: [{ startDate: '2026-03-05', endDate: '2026-03-01', extra: true }] },
      { formattedLocations: [{ city: 'Lisbon', country: 'Portugal', place_id: 'geonames:1' }] },
      {
        formattedLocations: [{ country: 'PT' }, 'Lisbon', { city: 'Kyoto', latitude: 'north', mood: 'calm' }],
      },
      { eventDates: [], agenda: [] },
    ];
    for (const body of refused) {
      const answer = await both('PATCH', `/v1/events/${id}`, { body });
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
    }
    await both('PATCH', `/v1/events/${eventIdFor(CANCELLED)}`, { body: { name: 'Back' } });
    await both('PATCH', `/v1/events/${uuidFor(999, 0)}`, { body: { name: 'Nobody' } });
    await both('PATCH', '/v1/events/nope', { body: { name: 'Nobody' } });
    await both('PATCH', `/v1/events/${id}`, { body: { name: 'x' }, key: keys.revoked });
    await both('PATCH', `/v1/events/${id}`, { raw: '{"name":"a","name":"b"}' });
    await both('PATCH', `/v1/events/${id}`, { raw: '{"budgetBreakdown":{"venue":1e400}}' });
    await both('PATCH', `/v1/events/${id}`, { raw: '{"otherNotes":"\\ud800"}' });
    await both('PATCH', `/v1/events/${id}`, { raw: '{"name":' });
    await both('PATCH', `/v1/events/${id}`, { raw: '[1,2]' });
    await both('PATCH', `/v1/events/${id}`, { raw: `{"otherNotes":${'['.repeat(40)}${']'.repeat(40)}}` });
    await both('PATCH', `/v1/events/${id}`, {
      raw: '{"name":"x"}',
      headers: { 'content-type': 'text/plain' },
    });
  });

  it("creates the benchmark's events with the same answers", async () => {
    for (let index = 0; index < 6; index++) {
      const answer = await both('POST', '/v1/events', { body: createBody(1000 + index) });
      expect(answer.status).toBe(201);
    }
    const created = await both('POST', '/v1/events', { body: createBody(2000), key: keys.loner });
    expect(JSON.parse(created.body).grantedTo).toBe(0);
    await both('POST', '/v1/events', { body: { name: 'Bare' } });
    await both('POST', '/v1/events', {
      body: {
        name: 'Aliased',
        event_dates: [{ startDate: '2026-05-01', endDate: '2026-05-02' }],
        currency: 'EUR',
        formattedLocations: [
          { city: 'São Paulo' },
          { city: 'Springfield' },
          { city: 'Lagos', country: 'NG' },
        ],
        agenda: [
          { title: 'One', dates: ['2026-05-02'], startTime: '09:00', endTime: '10:00', internalOfficeId: 7 },
        ],
        notesForVenue: 'Hello',
        meetingRooms: null,
      },
    });
  });

  it('refuses creates with the same problems', async () => {
    const refused: unknown[] = [
      {},
      { name: 'x', currency: 'XXXX', status: 'booked', agendaOperations: [], mood: 1 },
      { name: 'x', eventDates: [], meetingRoomDates: [] },
      {
        name: 'x',
        eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-02' }],
        agenda: [
          { title: 'Out', dates: ['2026-06-01'], startTime: '09:00', endTime: '10:00' },
          { title: 'Bad', dates: ['2026-06-02'], startTime: '11:00', endTime: '10:00' },
          { dates: ['2026-05-01', '2026-05-01'] },
        ],
      },
      { name: 'x', formattedLocations: [{ city: 'Lisbon', countryCode: 'US' }] },
      { name: 'x', eventDates: [{ startDate: '2026-01-01', endDate: '2027-06-01' }] },
    ];
    for (const body of refused) await both('POST', '/v1/events', { body });
    await both('POST', '/v1/events', { raw: '' });
    await both('POST', '/v1/events', { raw: '"text"' });
    await both('POST', '/v1/events', {
      raw: '{"name":"x"}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    await both('POST', '/v1/events', { body: { name: 'x' }, key: keys.deactivated });
  });

  it('stores the same events, change records, grants, counters and key use', async () => {
    const tables = [
      'SELECT * FROM events ORDER BY organization_id, id',
      'SELECT * FROM event_changes ORDER BY organization_id, sequence',
      'SELECT * FROM event_grants ORDER BY organization_id, event_id, user_id',
      'SELECT id, event_count, change_sequence FROM organizations ORDER BY id',
      'SELECT key_id, last_used_at FROM api_keys ORDER BY key_id',
    ];
    // Writes queued on eventplan's side (a key's lastUsedAt) land before the comparison.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const sql of tables) {
      const expected = await service.database.rows(sql);
      const actual = await floor.database.rows(sql);
      expect(actual.length, sql).toBe(expected.length);
      expect(actual, sql).toEqual(expected);
    }
  });

  it('writes one access line per request with the same fields', () => {
    const shape = (line: string) => {
      const { time, pid, hostname, responseTime, ...rest } = JSON.parse(line);
      expect([typeof time, typeof pid, typeof hostname, typeof responseTime]).toEqual([
        'number',
        'number',
        'string',
        'number',
      ]);
      return { keys: Object.keys(JSON.parse(line)), ...rest };
    };
    // eventplan also logs that it listens; only access lines are compared.
    const accessLines = (lines: string[]) => lines.filter((line) => line.includes('"responseTime"'));
    expect(floor.lines).toHaveLength(accessLines(service.lines).length);
    expect(floor.lines.map(shape)).toEqual(accessLines(service.lines).map(shape));
  });

  it('counts requests in the same series', async () => {
    const requestCounts = (text: string) =>
      text
        .split('\n')
        .filter((line) => /^eventplan_(http_requests_total|events_(created|updated)_total)\b/.test(line))
        .sort();
    expect(requestCounts(await floor.metrics())).toEqual(requestCounts(await service.metrics.render()));
  });
});
