/**
 * Tenancy under fire: thousands of random requests made with one organization's key against another
 * organization's event ids, session ids and ETags. Every one must be a 404 that reads exactly like
 * the 404 of an id that never existed, and the other organization's data must be byte-identical
 * afterwards.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/app/organizations.js';
import { committedDocument } from '../helpers/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { arbitraryOf, dayText, type SchemaDocument } from './schema-arbitrary.js';

const REQUESTS = 3000;
const EVENTS_OF_B = 25;

interface Snapshot {
  reads: Map<string, { body: string; etag: string }>;
  stored: Map<string, string | undefined>;
  list: string;
}

describe('tenancy: one organization never reaches another', () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;
  let organizationB: string;
  const idsOfB: string[] = [];
  const sessionsOfB: string[] = [];
  const etagsOfB: string[] = [];
  let before: Snapshot;

  const as = (key: string, options: InjectOptions) =>
    t.app.inject({
      ...options,
      headers: { 'x-api-key': key, ...(options.headers as Record<string, string>) },
    });

  async function snapshot(): Promise<Snapshot> {
    const reads = new Map<string, { body: string; etag: string }>();
    const stored = new Map<string, string | undefined>();
    for (const id of idsOfB) {
      const read = await as(keyB, { method: 'GET', url: `/v1/events/${id}` });
      expect(read.statusCode).toBe(200);
      reads.set(id, { body: read.body, etag: String(read.headers.etag) });
      stored.set(id, (await t.deps.store.events.findDocument(organizationB, id))?.body.toString());
    }
    const list = await as(keyB, { method: 'GET', url: '/v1/events?limit=100&page=1' });
    expect(list.statusCode).toBe(200);
    return { reads, stored, list: list.body };
  }

  beforeAll(async () => {
    t = await startTestApp();
    keyA = t.key;
    const demoB = await createDemo(t.deps);
    keyB = demoB.key;
    organizationB = demoB.organizationId;
    for (let n = 0; n < EVENTS_OF_B; n++) {
      const created = await as(keyB, {
        method: 'POST',
        url: '/v1/events',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          name: `B private event ${n}`,
          formattedLocations: [{ city: 'Reykjavík', country: 'Iceland' }],
          numPeople: 10 + n,
          budgetBreakdown: { venue: 1000 + n },
          accommodations: { [dayText(n)]: { Single: 2 } },
          meetingRoomDates: [{ startDate: dayText(n), endDate: dayText(n + 2) }],
          agenda: [
            { title: `B session ${n}`, dates: [dayText(n + 1)], startTime: '09:00', endTime: '10:00' },
          ],
          otherNotes: `secret of B ${n}`,
        }),
      });
      expect(created.statusCode).toBe(201);
      idsOfB.push(created.json().id);
    }
    for (const id of idsOfB) {
      const read = await as(keyB, { method: 'GET', url: `/v1/events/${id}` });
      sessionsOfB.push(...read.json().agenda.map((session: { id: string }) => session.id));
      etagsOfB.push(String(read.headers.etag));
    }
    const own = await as(keyA, {
      method: 'POST',
      url: '/v1/events',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'A own event' }),
    });
    expect(own.statusCode).toBe(201);
    before = await snapshot();
  });
  afterAll(() => t.close());

  it(`answers ${REQUESTS} random requests with A's key against B's events with 404s that reveal nothing, and B's data stays byte-identical`, async () => {
    const document = committedDocument() as unknown as SchemaDocument;
    const patchBody = arbitraryOf(
      { $ref: '#/components/schemas/UpdateEventRequest' },
      { document, wrong: 0 },
    );
    const request = fc.record({
      target: fc.nat(EVENTS_OF_B - 1),
      kind: fc.constantFrom('get', 'patch', 'patchSessions', 'conditionalGet', 'conditionalPatch', 'list'),
      body: patchBody,
      session: fc.nat(),
      contentType: fc.constantFrom('application/json', 'application/merge-patch+json'),
      op: fc.constantFrom('update', 'remove'),
    });
    const specs = fc.sample(request, { numRuns: REQUESTS, seed: 1_234 });
    const statuses = new Map<number, number>();
    const leaks: string[] = [];
    const never = '4f0c2a7e-9d1b-4c3e-8a5f-6b7c8d9e0f1a';
    const notFoundOf = async (id: string, options: InjectOptions) => {
      const response = await as(keyA, { ...options, url: options.url!.toString().replace(id, never) });
      return response;
    };

    for (const [index, spec] of specs.entries()) {
      const id = idsOfB[spec.target]!;
      const etag = etagsOfB[spec.target]!;
      const sessionId = sessionsOfB[spec.session % sessionsOfB.length]!;
      let options: InjectOptions;
      switch (spec.kind) {
        case 'get':
          options = { method: 'GET', url: `/v1/events/${id}` };
          break;
        case 'conditionalGet':
          options = { method: 'GET', url: `/v1/events/${id}`, headers: { 'if-none-match': etag } };
          break;
        case 'list':
          options = { method: 'GET', url: `/v1/events?limit=100&page=${1 + (spec.session % 3)}` };
          break;
        default: {
          const body = structuredClone(spec.body) as Record<string, unknown>;
          // Free-form in the schema, so it may hold numbers JSON cannot carry (a 400 before the 404, D5).
          if ('organizationId' in body) body.organizationId = organizationB;
          if (spec.kind === 'patchSessions') {
            body.agendaOperations = [
              spec.op === 'remove'
                ? { op: 'remove', sessionId }
                : { op: 'update', sessionId, session: { title: 'taken over' } },
            ];
          }
          options = {
            method: 'PATCH',
            url: `/v1/events/${id}`,
            headers: {
              'content-type': spec.contentType,
              ...(spec.kind === 'conditionalPatch' ? { 'if-match': etag } : {}),
            },
            payload: JSON.stringify(body),
          };
        }
      }
      const response = await as(keyA, options);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      if (spec.kind === 'list') {
        if (response.statusCode !== 200 || idsOfB.some((one) => response.body.includes(one))) {
          leaks.push(`list ${response.statusCode}: ${response.body.slice(0, 200)}`);
        }
        continue;
      }
      if (response.statusCode !== 404) {
        leaks.push(
          `${options.method} #${index} ${spec.kind} -> ${response.statusCode} ${response.body.slice(0, 300)}`,
        );
        continue;
      }
      // The 404 must read exactly like the 404 of an id that never existed: no existence oracle.
      if (index % 10 === 0) {
        const unknown = await notFoundOf(id, options);
        const strip = (body: Record<string, unknown>) => ({
          ...body,
          requestId: '',
          message: String(body.message).replace(never, id),
        });
        if (
          unknown.statusCode !== 404 ||
          JSON.stringify(strip(unknown.json())) !== JSON.stringify(strip(response.json()))
        ) {
          leaks.push(`404 differs from an unknown id: ${response.body} vs ${unknown.body}`);
        }
      }
      if (
        response.json().code !== 'not_found' ||
        response.body.includes('B private') ||
        response.body.includes('secret of B')
      ) {
        leaks.push(`404 body reveals something: ${response.body}`);
      }
    }

    expect(leaks.slice(0, 10)).toEqual([]);
    const listCalls = specs.filter((spec) => spec.kind === 'list').length;
    expect(statuses.get(404)).toBe(REQUESTS - listCalls);
    const after = await snapshot();
    expect(after.list).toBe(before.list);
    for (const id of idsOfB) {
      expect(after.reads.get(id)).toEqual(before.reads.get(id));
      expect(after.stored.get(id)).toBe(before.stored.get(id));
    }
    console.info(
      `tenancy: ${REQUESTS} requests with another organization's key, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 120_000);

  it("ignores organizationId on create: an event made with A's key and B's id belongs to A", async () => {
    const created = await as(keyA, {
      method: 'POST',
      url: '/v1/events',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Smuggled', organizationId: organizationB }),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect((await as(keyB, { method: 'GET', url: `/v1/events/${id}` })).statusCode).toBe(404);
    expect((await as(keyA, { method: 'GET', url: `/v1/events/${id}` })).statusCode).toBe(200);
    const listB = await as(keyB, { method: 'GET', url: '/v1/events?limit=100&page=1' });
    expect(listB.body).not.toContain(id);
    expect(listB.json().total).toBe(EVENTS_OF_B);
  });
});
