/**
 * Over 10,000 generated requests, valid and invalid, to every endpoint through `app.inject`: bodies,
 * query strings and headers come from the schemas of the published OpenAPI document (see
 * schema-arbitrary.ts), then some are broken on purpose (wrong types, limits, unknown keys, raw JSON
 * damage, content types, keys). Every answer must be below 500, every 4xx a complete problem-details
 * body, and a refused PATCH must leave its event exactly as it was. startTestApp also checks every
 * response of a documented operation against that document.
 */
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/app/organizations.js';
import { committedDocument } from '../helpers/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { arbitraryOf, dayText, type SchemaDocument, wrongValue } from './schema-arbitrary.js';

const FUZZED_REQUESTS = 10_400;
const BATCH = 16;
const SEED = 424_242;

type Schema = Record<string, unknown>;
const document = committedDocument() as unknown as SchemaDocument & {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema: Schema }> }>>;
};
const bodySchema = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const parameterSchema = (path: string, method: string, name: string): Schema =>
  document.paths[path]![method]!.parameters!.find((parameter) => parameter.name === name)!.schema;

// ---- Request specs: what to send, with placeholders resolved against the live state ----------

type KeyKind = 'own' | 'missing' | 'garbage' | 'otherOrganization';
type Mutation =
  | 'none'
  | 'truncate'
  | 'duplicateKey'
  | 'hugeNumber'
  | 'bom'
  | 'garbage'
  | 'invalidUtf8'
  | 'wrapArray';

interface Spec {
  kind: 'list' | 'create' | 'get' | 'patch' | 'other';
  body?: unknown;
  query?: string;
  target: number;
  idKind: 'existing' | 'random' | 'malformed';
  malformedId: string;
  key: KeyKind;
  mutation: Mutation;
  contentType: string | null;
  requestId: string | null;
  condition: 'none' | 'current' | 'stale' | 'star' | 'garbage';
  idempotencyKey: string | null;
  other: { method: InjectOptions['method']; url: string };
  seed: number;
}

const options = { document, wrong: 0.03 };
const createBody = arbitraryOf(bodySchema('CreateEventRequest'), options);
const updateBody = arbitraryOf(bodySchema('UpdateEventRequest'), options);
const pageValue = fc.oneof(
  {
    arbitrary: arbitraryOf(parameterSchema('/v1/events', 'get', 'page'), { document, wrong: 0 }).map(String),
    weight: 6,
  },
  {
    arbitrary: fc.constantFrom('0', '-1', 'abc', '', '1.5', '1e2', '9'.repeat(30), '%00', '2147483648'),
    weight: 2,
  },
);
const limitValue = fc.oneof(
  {
    arbitrary: arbitraryOf(parameterSchema('/v1/events', 'get', 'limit'), { document, wrong: 0 }).map(String),
    weight: 6,
  },
  { arbitrary: fc.constantFrom('0', '101', 'ten', '', '20.0', '-5', '1,2'), weight: 2 },
);
const query = fc
  .tuple(
    fc.option(pageValue, { nil: undefined }),
    fc.option(limitValue, { nil: undefined }),
    fc.constantFrom('', '', '', '&page=1&page=2', '&sort=name', '&limit=', '&filter[x]=1'),
  )
  .map(([page, limit, extra]) => {
    const parts = [];
    if (page !== undefined) parts.push(`page=${encodeURIComponent(page)}`);
    if (limit !== undefined) parts.push(`limit=${encodeURIComponent(limit)}`);
    return parts.join('&') + extra;
  });

const weighted = <T>(...entries: Array<[T, number]>) =>
  fc.oneof(...entries.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));

const spec: fc.Arbitrary<Spec> = fc.record({
  kind: weighted<Spec['kind']>(['list', 2], ['create', 3], ['get', 2], ['patch', 6], ['other', 1]),
  body: fc.constant(undefined),
  query,
  target: fc.nat(),
  idKind: weighted<Spec['idKind']>(['existing', 8], ['random', 1], ['malformed', 1]),
  malformedId: fc.constantFrom(
    'abc',
    '123',
    '00000000-0000-0000-0000-00000000000g',
    '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1x',
    '%E2%80%AE',
    'x'.repeat(300),
    '..%2F..%2Fetc',
    '%00',
    "1'%20OR%20'1'='1",
    '%E0%A4%A',
    '%zz',
  ),
  key: weighted<KeyKind>(['own', 90], ['missing', 3], ['garbage', 3], ['otherOrganization', 4]),
  mutation: weighted<Mutation>(
    ['none', 86],
    ['truncate', 2],
    ['duplicateKey', 2],
    ['hugeNumber', 2],
    ['bom', 1],
    ['garbage', 3],
    ['invalidUtf8', 2],
    ['wrapArray', 2],
  ),
  contentType: weighted<string | null>(
    ['application/json', 80],
    ['application/merge-patch+json', 6],
    ['application/json; charset=utf-8', 5],
    ['text/plain', 3],
    [null, 3],
    ['application/x-www-form-urlencoded', 2],
    ['APPLICATION/JSON', 1],
  ),
  requestId: weighted<string | null>([null, 8], ['fuzz-req.1:a_b', 1], ['has spaces and 🚀', 1]),
  condition: weighted<Spec['condition']>(
    ['none', 12],
    ['current', 2],
    ['stale', 1],
    ['star', 1],
    ['garbage', 1],
  ),
  idempotencyKey: weighted<string | null>([null, 10], ['fuzz-idem-1', 1], ['bad\u0001key', 1]),
  other: fc.record({
    method: fc.constantFrom<InjectOptions['method']>(
      'DELETE',
      'PUT',
      'OPTIONS',
      'HEAD',
      'GET',
      'POST',
      'PATCH',
    ),
    url: fc.constantFrom(
      '/',
      '/v1',
      '/v1/',
      '/v1/events/',
      '/v1/events/x/agenda',
      '/v2/events',
      '/healthz',
      '/readyz',
      '/metrics',
      '/v1/openapi.json',
      '/docs',
      '/%',
      '/v1/events?%zz',
      `/${'a'.repeat(5000)}`,
      '/v1/events/../../etc/passwd',
    ),
  }),
  seed: fc.integer(),
});
const specWithBody = spec.chain((one) =>
  one.kind === 'create'
    ? createBody.map((body) => ({ ...one, body }))
    : one.kind === 'patch'
      ? updateBody.map((body) => ({ ...one, body }))
      : one.kind === 'other'
        ? fc.option(wrongValue, { nil: undefined }).map((body) => ({ ...one, body }))
        : fc.constant(one),
);

// ---- Live state ---------------------------------------------------------------------------------

interface Known {
  id: string;
  /** The event as last read or written, and its ETag. */
  document: Record<string, unknown>;
  etag: string;
}

/** A small PRNG so runtime fix-ups are reproducible from the spec's seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const RANGE_FIELDS = ['meetingRoomDates', 'eventDates', 'event_dates'] as const;

/**
 * Random schema-valid bodies still break rules the schema cannot state (start after end, sessions
 * outside the meeting-room days, unknown session ids, two names for the dates). Most of the time this
 * repairs those, so that writes succeed often enough to be fuzzed too.
 */
function fixUp(body: unknown, known: Known | undefined, seed: number): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const chance = random(seed);
  const copy = structuredClone(body) as Record<string, unknown>;
  if (chance() < 0.8) {
    const present = RANGE_FIELDS.filter((field) => copy[field] !== undefined);
    for (const field of present.slice(1)) delete copy[field];
  }
  for (const field of RANGE_FIELDS) {
    const ranges = copy[field];
    if (!Array.isArray(ranges) || chance() < 0.2) continue;
    for (const range of ranges) {
      if (typeof range?.startDate !== 'string' || typeof range?.endDate !== 'string') continue;
      const [first, last] = [range.startDate, range.endDate].sort();
      range.startDate = first;
      range.endDate = last > first && chance() < 0.5 ? last : first;
    }
  }
  if (typeof copy.currency === 'string' && chance() < 0.7) copy.currency = 'EUR';
  const rangeList = (RANGE_FIELDS.map((field) => copy[field]).find(Array.isArray) ??
    known?.document.meetingRoomDates) as Array<{ startDate?: unknown }> | undefined;
  const days = (rangeList ?? []).map((range) => range?.startDate).filter((date) => typeof date === 'string');
  const placeSession = (session: unknown) => {
    if (typeof session !== 'object' || session === null || !('dates' in session) || chance() < 0.3) return;
    const fields = session as Record<string, unknown>;
    if (days.length > 0) fields.dates = [days[Math.floor(chance() * days.length)]];
    fields.startTime = '09:00';
    fields.endTime = '10:00';
  };
  if (Array.isArray(copy.agenda)) copy.agenda.forEach(placeSession);
  const sessions = (known?.document.agenda as Array<{ id: string }> | undefined) ?? [];
  const operations = Array.isArray(copy.agendaOperations) ? copy.agendaOperations : [];
  for (const operation of operations) {
    if (typeof operation !== 'object' || operation === null) continue;
    const op = operation as Record<string, unknown>;
    if ('sessionId' in op && sessions.length > 0 && chance() < 0.7) {
      op.sessionId = sessions[Math.floor(chance() * sessions.length)]!.id;
    }
    placeSession(op.session);
  }
  return copy;
}

function mutate(text: string, mutation: Mutation): string | Buffer {
  switch (mutation) {
    case 'none':
      return text;
    case 'truncate':
      return text.slice(0, Math.floor(text.length / 2));
    case 'duplicateKey':
      return text.startsWith('{') && text.length > 2
        ? `{"name":"first",${text.slice(1)}`.replace(',}', '}')
        : text;
    case 'hugeNumber':
      return text.startsWith('{') && text.length > 2
        ? `{"numPeople":1E400,${text.slice(1)}`.replace(',}', '}')
        : text;
    case 'bom':
      return `\uFEFF${text}`;
    case 'garbage':
      return text.replace(/[:,]/, ';');
    case 'invalidUtf8':
      return Buffer.concat([
        Buffer.from(text.slice(0, -1)),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(text.slice(-1)),
      ]);
    case 'wrapArray':
      return `[${text}]`;
  }
}

// ---- The run ------------------------------------------------------------------------------------

describe('fuzzing the HTTP API', () => {
  let t: TestApp;
  let otherKey: string;
  const known: Known[] = [];
  const failures: string[] = [];
  const statusCounts = new Map<number, number>();
  let fuzzed = 0;
  let verifications = 0;

  const keyFor = (kind: KeyKind) =>
    kind === 'own'
      ? t.key
      : kind === 'otherOrganization'
        ? otherKey
        : kind === 'garbage'
          ? 'evp_nope_nope'
          : undefined;

  async function remember(id: string) {
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/events/${id}`,
      headers: { 'x-api-key': t.key },
    });
    verifications++;
    expect(read.statusCode).toBe(200);
    known.push({ id, document: read.json(), etag: String(read.headers.etag) });
  }

  function fail(what: string, request: InjectOptions, response: LightMyRequestResponse) {
    if (failures.length < 25) {
      const payload = request.payload === undefined ? '' : String(request.payload).slice(0, 300);
      failures.push(
        `${what}: ${request.method} ${String(request.url).slice(0, 120)} ${payload} -> ${response.statusCode} ${response.body.slice(0, 400)}`,
      );
    }
  }

  function checkResponse(request: InjectOptions, response: LightMyRequestResponse) {
    statusCounts.set(response.statusCode, (statusCounts.get(response.statusCode) ?? 0) + 1);
    if (response.statusCode >= 500) fail('5xx', request, response);
    if (response.statusCode < 400 || request.method === 'HEAD') return;
    if (!String(response.headers['content-type']).startsWith('application/problem+json')) {
      fail('4xx without problem+json', request, response);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = response.json();
    } catch {
      fail('4xx body is not JSON', request, response);
      return;
    }
    const complete =
      typeof body.type === 'string' &&
      typeof body.title === 'string' &&
      body.status === response.statusCode &&
      typeof body.code === 'string' &&
      /^[a-z_]+$/.test(body.code) &&
      typeof body.message === 'string' &&
      body.requestId === response.headers['x-request-id'];
    if (!complete) fail('incomplete problem body', request, response);
    if (response.statusCode === 400 && body.code === 'validation_failed') {
      const errors = body.errors as Array<Record<string, unknown>> | undefined;
      const named =
        Array.isArray(errors) &&
        errors.length > 0 &&
        errors.every(
          (error) =>
            typeof error.field === 'string' &&
            typeof error.code === 'string' &&
            typeof error.message === 'string',
        );
      if (!named) fail('400 without named problems', request, response);
    }
  }

  function build(one: Spec, patchTargets: Set<string>): { request: InjectOptions; patched?: Known } {
    const headers: Record<string, string> = {};
    const key = keyFor(one.key);
    if (key) headers['x-api-key'] = key;
    if (one.requestId) headers['x-request-id'] = one.requestId;
    const target = known[one.target % known.length];
    const idFor = () =>
      one.idKind === 'existing' && target
        ? target.id
        : one.idKind === 'random'
          ? fc.sample(fc.uuid(), { numRuns: 1, seed: one.seed })[0]!
          : one.malformedId;
    const withBody = (value: unknown, known?: Known) => {
      const payload = mutate(JSON.stringify(fixUp(value, known, one.seed)) ?? 'null', one.mutation);
      if (one.contentType) headers['content-type'] = one.contentType;
      return payload;
    };
    switch (one.kind) {
      case 'list':
        return { request: { method: 'GET', url: `/v1/events?${one.query}`, headers } };
      case 'create':
        if (one.idempotencyKey) headers['idempotency-key'] = one.idempotencyKey;
        return { request: { method: 'POST', url: '/v1/events', headers, payload: withBody(one.body) } };
      case 'get': {
        if (one.condition !== 'none') headers['if-none-match'] = condition(one.condition, target);
        return { request: { method: 'GET', url: `/v1/events/${idFor()}`, headers } };
      }
      case 'patch': {
        const id = idFor();
        // One PATCH per event per batch, so its outcome can be checked against the event afterwards.
        const patched = one.idKind === 'existing' && target && !patchTargets.has(id) ? target : undefined;
        if (one.idKind === 'existing' && target && patchTargets.has(id)) {
          return { request: { method: 'GET', url: `/v1/events/${id}`, headers } };
        }
        if (patched) patchTargets.add(id);
        if (one.condition !== 'none') headers['if-match'] = condition(one.condition, target);
        return {
          request: {
            method: 'PATCH',
            url: `/v1/events/${id}`,
            headers,
            payload: withBody(one.body, patched),
          },
          patched,
        };
      }
      case 'other':
        return {
          request: {
            method: one.other.method,
            url: one.other.url,
            headers,
            ...(one.body === undefined || one.other.method === 'GET' || one.other.method === 'HEAD'
              ? {}
              : { payload: withBody(one.body) }),
          },
        };
    }
  }

  function condition(kind: Spec['condition'], target: Known | undefined): string {
    if (kind === 'current') return target?.etag ?? '"none"';
    if (kind === 'stale') return '"stale-etag-value"';
    if (kind === 'star') return '*';
    return 'not an etag';
  }

  beforeAll(async () => {
    t = await startTestApp();
    otherKey = (await createDemo(t.deps)).key;
    const seeds = fc.sample(createBody, { numRuns: 40, seed: SEED });
    for (const body of [
      {
        name: 'Seed with agenda',
        meetingRoomDates: [{ startDate: dayText(10), endDate: dayText(14) }],
        agenda: [
          { title: 'Opening', dates: [dayText(10)], startTime: '09:00', endTime: '10:00' },
          { title: 'Closing', dates: [dayText(14)], startTime: '16:00', endTime: '17:00' },
        ],
      },
      ...seeds,
    ]) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/events',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      if (created.statusCode === 201) await remember(created.json().id);
    }
    expect(known.length).toBeGreaterThan(2);
  });
  afterAll(() => t.close());

  it(`answers ${FUZZED_REQUESTS} generated requests without a 5xx, each 4xx a problem body, refused PATCHes changing nothing`, async () => {
    const started = Date.now();
    const specs = fc.sample(specWithBody, { numRuns: FUZZED_REQUESTS, seed: SEED });
    for (let offset = 0; offset < specs.length; offset += BATCH) {
      const patchTargets = new Set<string>();
      const built = specs.slice(offset, offset + BATCH).map((one) => build(one, patchTargets));
      const responses = await Promise.all(built.map(({ request }) => t.app.inject(request)));
      fuzzed += responses.length;
      const created: string[] = [];
      for (const [index, response] of responses.entries()) {
        const { request, patched } = built[index]!;
        checkResponse(request, response);
        if (request.method === 'POST' && request.url === '/v1/events' && response.statusCode === 201) {
          if ((request.headers as Record<string, string>)['x-api-key'] === t.key)
            created.push(response.json().id);
        }
        if (!patched) continue;
        if (response.statusCode === 200) {
          patched.document = response.json();
          patched.etag = String(response.headers.etag);
          continue;
        }
        // Refused: the event must be exactly as it was.
        const read = await t.app.inject({
          method: 'GET',
          url: `/v1/events/${patched.id}`,
          headers: { 'x-api-key': t.key },
        });
        verifications++;
        if (read.statusCode !== 200 || read.headers.etag !== patched.etag) {
          fail(
            `refused PATCH changed the event (etag ${patched.etag} -> ${read.headers.etag})`,
            request,
            response,
          );
        }
      }
      for (const id of created.slice(0, 2)) await remember(id);
    }
    const seconds = (Date.now() - started) / 1000;
    const summary = [...statusCounts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}:${count}`);
    console.info(
      `fuzzed ${fuzzed} requests (+${verifications} verification reads) in ${seconds.toFixed(1)} s; statuses ${summary.join(' ')}`,
    );

    expect(failures).toEqual([]);
    expect(fuzzed).toBeGreaterThanOrEqual(10_000);
    // The generators must reach both outcomes of every write, or the run proves little.
    expect(statusCounts.get(200) ?? 0).toBeGreaterThan(500);
    expect(statusCounts.get(201) ?? 0).toBeGreaterThan(100);
    expect(statusCounts.get(400) ?? 0).toBeGreaterThan(1000);
    expect(statusCounts.get(404) ?? 0).toBeGreaterThan(100);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);
});
