import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, expectProblem, problemAt, type Response } from './requests.js';

let t: TestApp;
let api: Client;
let other: Client;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  other = clientFor(t, (await createDemo(t.deps)).key);
});
afterAll(() => t.close());

const get = (client: Client, url: string, headers: Record<string, string> = {}) =>
  client.raw({ method: 'GET', url, headers });

/** Every revision of an event, newest first, following `nextCursor` page by page. */
async function allRevisions(client: Client, id: string, limit: number) {
  const pages: Response[] = [];
  const items: Array<Record<string, any>> = [];
  let url = `/v1/events/${id}/revisions?limit=${limit}`;
  for (;;) {
    const response = await get(client, url);
    expect(response.statusCode, response.body).toBe(200);
    pages.push(response);
    const body = response.json();
    items.push(...body.data);
    if (!body.hasMore) {
      expect(body.nextCursor).toBeNull();
      expect(response.headers.link).toBeUndefined();
      return { items, pages };
    }
    const link = String(response.headers.link);
    const next = `/v1/events/${id}/revisions?after=${encodeURIComponent(body.nextCursor)}&limit=${limit}`;
    expect(link).toBe(`<${next}>; rel="next"`);
    url = next;
  }
}

describe('GET /v1/events/{id}/revisions', () => {
  it('numbers the changes 1..n without gaps, and each snapshot is the event right after its change', async () => {
    const id = await createEvent(api, { numPeople: 10 });
    const states = [(await api.get(id)).json()];
    for (const body of [
      { numPeople: 20 },
      {
        otherNotes: 'Near the airport',
        meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-02' }],
      },
      {
        agendaOperations: [
          {
            op: 'add',
            session: { title: 'Kickoff', dates: ['2026-05-01'], startTime: '09:00', endTime: '10:00' },
          },
        ],
      },
    ]) {
      const response = await api.patch(id, body);
      expect(response.statusCode, response.body).toBe(200);
      states.push(response.json());
    }
    await changeEventStatus(t.deps, id, 'booked');
    states.push((await api.get(id)).json());

    const { items, pages } = await allRevisions(api, id, 2);
    expect(pages).toHaveLength(3);
    expect(items.map((change) => change.revision)).toEqual([5, 4, 3, 2, 1]);
    expect(new Set(items.map((change) => change.id)).size).toBe(5);
    expect(items.map((change) => change.type)).toEqual([
      'event.status_changed',
      'event.updated',
      'event.updated',
      'event.updated',
      'event.created',
    ]);
    expect(items[0]!.data).toEqual({ from: 'draft', to: 'booked' });
    expect(items[0]!.actor).toEqual({ type: 'operator' });
    expect(items[3]!.actor).toEqual({ type: 'api_key', keyId: t.demo.keyId, userId: t.demo.userId });
    expect(items[3]!.changedFields).toEqual(['numPeople']);
    expect(items[3]).not.toHaveProperty('data');
    expect(Object.keys(items[3]!)).toEqual([
      'id',
      'sequence',
      'eventId',
      'revision',
      'type',
      'occurredAt',
      'actor',
      'changedFields',
      'diff',
    ]);
    // The agenda is addressed by session id in the diff.
    const sessionId = states[3]!.agenda[0].id;
    expect(items[1]!.diff).toContainEqual(
      expect.objectContaining({ op: 'add', path: `/agenda/${sessionId}` }),
    );

    for (let revision = 1; revision <= 5; revision++) {
      const response = await get(api, `/v1/events/${id}/revisions/${revision}`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.revision).toBe(revision);
      expect(body.eventId).toBe(id);
      expect(body.snapshot).toEqual(states[revision - 1]);
      expect(body.occurredAt).toBe(states[revision - 1]!.updatedAt);
      const { snapshot, ...change } = body;
      expect(change).toEqual(items[5 - revision]);
    }
  });

  it('records nothing for a PATCH that changes nothing, nor for one refused with 400, 409 or 412', async () => {
    const id = await createEvent(api, { numPeople: 10 });
    const read = await api.get(id);
    expect((await api.patch(id, { numPeople: 10 })).statusCode).toBe(200);
    expect((await api.patch(id, read.json())).statusCode).toBe(200);
    expectProblem(await api.patch(id, { name: '' }), 400, 'validation_failed');
    expectProblem(
      await api.patch(id, { meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-01' }] }),
      400,
      'validation_failed',
    );
    const stale = await api.raw({
      method: 'PATCH',
      url: `/v1/events/${id}`,
      headers: { 'content-type': 'application/json', 'if-match': '"stale"' },
      payload: JSON.stringify({ numPeople: 11 }),
    });
    expectProblem(stale, 412, 'precondition_failed');
    let page = (await get(api, `/v1/events/${id}/revisions`)).json();
    expect(page.data.map((change: { revision: number }) => change.revision)).toEqual([1]);

    await changeEventStatus(t.deps, id, 'cancelled');
    expectProblem(await api.patch(id, { numPeople: 12 }), 409, 'event_cancelled');
    // Moving to the status it already has changes nothing either.
    await changeEventStatus(t.deps, id, 'cancelled');
    page = (await get(api, `/v1/events/${id}/revisions`)).json();
    expect(page.data.map((change: { type: string }) => change.type)).toEqual([
      'event.status_changed',
      'event.created',
    ]);
  });

  it('is a 404 for an unknown event and for an event of another organization, a 400 for a malformed id', async () => {
    const id = await createEvent(api);
    expectProblem(
      await get(api, '/v1/events/00000000-0000-4000-8000-000000000000/revisions'),
      404,
      'not_found',
    );
    expectProblem(await get(other, `/v1/events/${id}/revisions`), 404, 'not_found');
    expectProblem(await get(other, `/v1/events/${id}/revisions/1`), 404, 'not_found');
    expect(problemAt(await get(api, '/v1/events/nope/revisions'), 'id').code).toBe('invalid_format');
  });

  it('is a 404 for a revision the event does not have, a 400 naming `revision` for a malformed one', async () => {
    const id = await createEvent(api);
    expectProblem(await get(api, `/v1/events/${id}/revisions/2`), 404, 'not_found');
    for (const revision of ['0', 'abc', '1.0', '1e1', '-1', '99999999999']) {
      const response = await get(api, `/v1/events/${id}/revisions/${revision}`);
      expect(problemAt(response, 'revision').code).toBe('invalid_format');
    }
    expect(problemAt(await get(api, `/v1/events/${id}/revisions/1?x=1`), 'query.x').code).toBe(
      'unknown_field',
    );
  });

  it('refuses a changed cursor, one of another event or of the feed, naming query.after', async () => {
    const id = await createEvent(api);
    const second = await createEvent(api);
    for (const eventId of [id, second]) await api.patch(eventId, { numPeople: 1 });
    const cursor = (await get(api, `/v1/events/${id}/revisions?limit=1`)).json().nextCursor as string;
    expect(typeof cursor).toBe('string');
    expect((await get(api, `/v1/events/${id}/revisions?after=${cursor}`)).json().data).toHaveLength(1);

    const flipped = cursor.slice(0, 2) + (cursor[2] === 'A' ? 'B' : 'A') + cursor.slice(3);
    const feedCursor = (await get(api, '/v1/changes')).json().nextCursor as string;
    for (const wrong of [flipped, `${cursor}x`, 'garbage', '', feedCursor]) {
      const response = await get(api, `/v1/events/${id}/revisions?after=${encodeURIComponent(wrong)}`);
      expect(problemAt(response, 'query.after').code).toBe('invalid_cursor');
    }
    const ofAnotherEvent = await get(api, `/v1/events/${second}/revisions?after=${cursor}`);
    expect(problemAt(ofAnotherEvent, 'query.after').code).toBe('invalid_cursor');
    // Every problem of the query in one 400.
    const both = await get(api, `/v1/events/${id}/revisions?after=garbage&limit=0`);
    problemAt(both, 'query.after');
    problemAt(both, 'query.limit');
  });

  it('gives no cursor and no Link header when one page holds every revision', async () => {
    const id = await createEvent(api);
    const page = (await get(api, `/v1/events/${id}/revisions?limit=100`)).json();
    expect(page).toEqual({
      data: [expect.objectContaining({ revision: 1 })],
      hasMore: false,
      nextCursor: null,
    });
  });
});
