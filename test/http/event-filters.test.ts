import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, problemAt } from './requests.js';

let t: TestApp;
let api: Client;
const ids: Record<string, string> = {};
let createdAllBy: string;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  for (const name of ['draft one', 'draft two', 'booked', 'cancelled', 'pending']) {
    ids[name] = await createEvent(api, { name });
  }
  await changeEventStatus(t.deps, ids.booked!, 'booked');
  await changeEventStatus(t.deps, ids.cancelled!, 'cancelled');
  await changeEventStatus(t.deps, ids.pending!, 'pending_approval');
  createdAllBy = (await api.get(ids.pending!)).json().updatedAt;
  await new Promise((resolve) => setTimeout(resolve, 5));
  await api.patch(ids['draft two']!, { numPeople: 3 });
});
afterAll(() => t.close());

async function names(query: string) {
  const response = await api.list(query);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return { names: body.data.map((item: { name: string }) => item.name), total: body.total };
}

describe('GET /v1/events filters', () => {
  it('keeps the events in any of the given statuses, newest first, and counts only those', async () => {
    expect(await names('status=draft')).toEqual({ names: ['draft two', 'draft one'], total: 2 });
    expect(await names('status=cancelled,booked')).toEqual({ names: ['cancelled', 'booked'], total: 2 });
    expect(await names('status=completed')).toEqual({ names: [], total: 0 });
    expect(await names('status=draft,draft&limit=1&page=2')).toEqual({ names: ['draft one'], total: 2 });
    expect(await names('status=draft&page=3&limit=1')).toEqual({ names: [], total: 2 });
  });

  it('keeps the events updated strictly after updatedAfter, in any time zone', async () => {
    expect(await names(`updatedAfter=${createdAllBy}`)).toEqual({ names: ['draft two'], total: 1 });
    const updatedAt = (await api.get(ids['draft two']!)).json().updatedAt as string;
    expect(await names(`updatedAfter=${updatedAt}`)).toEqual({ names: [], total: 0 });
    const before = new Date(Date.parse(updatedAt) - 1);
    // The same instant written with an offset: 1 ms before the update, two hours ahead of UTC.
    const shifted = new Date(before.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect(await names(`updatedAfter=${encodeURIComponent(shifted)}`)).toEqual({
      names: ['draft two'],
      total: 1,
    });
    expect(await names('updatedAfter=2000-01-01T00:00:00.123456Z')).toMatchObject({ total: 5 });
  });

  it('combines the filters', async () => {
    expect(await names(`status=booked,draft&updatedAfter=${createdAllBy}`)).toEqual({
      names: ['draft two'],
      total: 1,
    });
    expect(await names(`status=booked&updatedAfter=${createdAllBy}`)).toEqual({ names: [], total: 0 });
  });

  it('refuses an unknown status or a malformed instant, naming the parameter, with the other problems', async () => {
    for (const query of [
      'status=',
      'status=draft,',
      'status=Draft',
      'status=draft,shipped',
      'status=draft&status=booked',
    ]) {
      problemAt(await api.list(query), 'query.status');
    }
    for (const query of [
      'updatedAfter=',
      'updatedAfter=2026-05-01',
      'updatedAfter=2026-05-01T10:00:00',
      'updatedAfter=2026-02-30T10:00:00Z',
      'updatedAfter=2026-05-01%2010:00:00Z',
      'updatedAfter=2026-05-01T24:00:00Z',
    ]) {
      expect(problemAt(await api.list(query), 'query.updatedAfter').code).toMatch(/^invalid_/);
    }
    const all = await api.list('status=nope&updatedAfter=soon&limit=0');
    expect(all.json().errors.map((problem: { field: string }) => problem.field)).toEqual([
      'query.limit',
      'query.status',
      'query.updatedAfter',
    ]);
  });
});
