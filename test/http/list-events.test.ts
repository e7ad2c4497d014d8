import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/app/deps.js';
import { changeEventStatus, createEvent as createEventUseCase } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, expectProblem, problemAt } from './requests.js';

let t: TestApp;
let api: Client;
const EVENT_COUNT = 23;
const created: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  for (let index = 0; index < EVENT_COUNT; index++) {
    created.push(
      await createEvent(api, {
        name: `Event ${index}`,
        formattedLocations: [{ city: 'Austin', state: 'TX', country: 'USA' }, { city: 'Lisbon' }],
        eventDates: [{ startDate: '2026-06-01', endDate: '2026-06-02' }],
        numPeople: index,
      }),
    );
  }
});
afterAll(() => t.close());

async function listAll(client: Client, limit: number) {
  const items: Array<Record<string, any>> = [];
  for (let page = 1; ; page++) {
    const response = await client.list(`page=${page}&limit=${limit}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    if (body.data.length === 0) return items;
    items.push(...body.data);
  }
}

describe('GET /v1/events', () => {
  it('defaults to page 1 and limit 20 and reports the total', async () => {
    const response = await api.list();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'page', 'total']);
    expect(body.page).toBe(1);
    expect(body.limit).toBe(20);
    expect(body.total).toBe(EVENT_COUNT);
    expect(body.data).toHaveLength(20);
  });

  it('lists items with exactly the list fields, locations as "city, state, country"', async () => {
    const body = (await api.list('limit=1')).json();
    const [item] = body.data;
    expect(Object.keys(item).sort()).toEqual([
      'createdAt',
      'dates',
      'id',
      'locations',
      'name',
      'numPeople',
      'status',
    ]);
    expect(item.locations).toEqual(['Austin, TX, USA', 'Lisbon']);
    expect(item.dates).toEqual([{ startDate: '2026-06-01', endDate: '2026-06-02' }]);
    expect(item.status).toBe('draft');
    expect(new Date(item.createdAt).toISOString()).toBe(item.createdAt);
  });

  it('lists newest first by createdAt, then id, and every event exactly once across pages', async () => {
    const items = await listAll(api, 7);
    expect(items.map((item) => item.id).sort()).toEqual([...created].sort());
    const sorted = [...items].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
    );
    expect(items.map((item) => item.id)).toEqual(sorted.map((item) => item.id));
    // The last created is listed first, or shares the newest createdAt with
    // events created in the same millisecond (then the id decides).
    const lastCreated = items.find((item) => item.id === created[created.length - 1])!;
    expect(lastCreated.createdAt).toBe(items[0]!.createdAt);
  });

  it('breaks ties in createdAt by id', async () => {
    const other = await startTestApp();
    try {
      const principal: Principal = {
        organizationId: other.demo.organizationId,
        userId: other.demo.userId,
        keyId: other.demo.keyId,
      };
      const sameInstant = { ...other.deps, clock: { now: () => new Date('2026-01-01T00:00:00.000Z') } };
      const later = { ...other.deps, clock: { now: () => new Date('2026-01-02T00:00:00.000Z') } };
      const tied = [];
      for (let index = 0; index < 5; index++) {
        tied.push((await createEventUseCase(sameInstant, principal, { name: `Tied ${index}` })).id);
      }
      const newest = (await createEventUseCase(later, principal, { name: 'Newest' })).id;
      const ids = (await listAll(clientFor(other), 2)).map((item) => item.id);
      expect(ids).toEqual([newest, ...[...tied].sort().reverse()]);
    } finally {
      await other.close();
    }
  });

  it('accepts limit 1 and limit 100', async () => {
    const one = (await api.list('limit=1')).json();
    expect(one.data).toHaveLength(1);
    expect(one.limit).toBe(1);
    const hundred = (await api.list('limit=100')).json();
    expect(hundred.data).toHaveLength(EVENT_COUNT);
    expect(hundred.limit).toBe(100);
    expect(hundred.total).toBe(EVENT_COUNT);
  });

  it('returns the remainder on the last page and 200 with empty data past the end', async () => {
    const last = (await api.list('page=3&limit=10')).json();
    expect(last.data).toHaveLength(EVENT_COUNT - 20);
    const past = await api.list('page=4&limit=10');
    expect(past.statusCode).toBe(200);
    expect(past.json()).toEqual({ data: [], page: 4, limit: 10, total: EVENT_COUNT });
    const far = await api.list('page=2147483647');
    expect(far.statusCode).toBe(200);
    expect(far.json().data).toEqual([]);
  });

  it.each([
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=-1', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['limit=1.5', 'query.limit'],
    ['limit=', 'query.limit'],
    ['limit=1e1', 'query.limit'],
    ['limit=0x10', 'query.limit'],
    ['limit=%2B5', 'query.limit'],
    ['limit=10.0', 'query.limit'],
    ['limit=5&limit=6', 'query.limit'],
    ['page=0', 'query.page'],
    ['page=-1', 'query.page'],
    ['page=two', 'query.page'],
    ['page=99999999999999999999', 'query.page'],
    ['status=drafted', 'query.status'],
    ['updatedAfter=yesterday', 'query.updatedAfter'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const response = await api.list(query);
    const problem = problemAt(response, field);
    expect(problem.code).toMatch(/^[a-z_]+$/);
    expect(response.json().errors).toHaveLength(1);
  });

  it('names both parameters when both are wrong', async () => {
    const response = await api.list('page=0&limit=abc');
    problemAt(response, 'query.page');
    problemAt(response, 'query.limit');
    expect(response.json().errors).toHaveLength(2);
  });

  it('lists cancelled events, with their status', async () => {
    const other = await startTestApp();
    try {
      const client = clientFor(other);
      const id = await createEvent(client, { name: 'Called off' });
      await changeEventStatus(other.deps, id, 'cancelled');
      const body = (await client.list()).json();
      expect(body.total).toBe(1);
      expect(body.data[0]).toMatchObject({ id, status: 'cancelled' });
    } finally {
      await other.close();
    }
  });

  it("lists only the key's organization", async () => {
    const second = await createDemo(t.deps);
    const client = clientFor(t, second.key);
    const empty = (await client.list()).json();
    expect(empty).toEqual({ data: [], page: 1, limit: 20, total: 0 });
    const own = await createEvent(client, { name: 'Second organization' });
    const body = (await client.list()).json();
    expect(body.total).toBe(1);
    expect(body.data.map((item: { id: string }) => item.id)).toEqual([own]);
    const first = (await api.list('limit=100')).json();
    expect(first.total).toBe(EVENT_COUNT);
    expect(first.data.map((item: { id: string }) => item.id)).not.toContain(own);
  });

  it('refuses a request without a key with 401', async () => {
    expectProblem(await clientFor(t, null).list(), 401, 'unauthorized');
  });
});
