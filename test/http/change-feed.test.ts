import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, problemAt } from './requests.js';

let t: TestApp;
let api: Client;
let other: Client;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  other = clientFor(t, (await createDemo(t.deps)).key);
});
afterAll(() => t.close());

const get = (client: Client, url: string) => client.raw({ method: 'GET', url });

/** Pages the feed from `cursor` (the start when undefined) to its end, following the Link headers. */
async function readToEnd(client: Client, limit: number, cursor?: string) {
  const changes: Array<Record<string, any>> = [];
  let url = `/v1/changes?${cursor === undefined ? '' : `after=${encodeURIComponent(cursor)}&`}limit=${limit}`;
  let pages = 0;
  for (;;) {
    const response = await get(client, url);
    expect(response.statusCode, response.body).toBe(200);
    pages++;
    const body = response.json();
    expect(body.data.length).toBeLessThanOrEqual(limit);
    changes.push(...body.data);
    expect(typeof body.nextCursor).toBe('string');
    if (!body.hasMore) {
      expect(response.headers.link).toBeUndefined();
      return { changes, cursor: body.nextCursor as string, pages };
    }
    expect(body.data).toHaveLength(limit);
    const match = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link));
    expect(match, String(response.headers.link)).not.toBeNull();
    url = match![1]!;
  }
}

describe('GET /v1/changes', () => {
  it("reads the organization's changes once each, in sequence order, page after page", async () => {
    const first = await createEvent(api, { numPeople: 1 });
    const second = await createEvent(api);
    await api.patch(first, { numPeople: 2 });
    await api.patch(second, { otherNotes: 'Quiet rooms' });
    await changeEventStatus(t.deps, first, 'wait_for_proposals');
    await createEvent(other); // another organization's change is not in this feed

    const { changes, pages } = await readToEnd(api, 2);
    expect(pages).toBe(3);
    expect(changes.map((change) => change.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(changes.map((change) => [change.eventId, change.revision, change.type])).toEqual([
      [first, 1, 'event.created'],
      [second, 1, 'event.created'],
      [first, 2, 'event.updated'],
      [second, 2, 'event.updated'],
      [first, 3, 'event.status_changed'],
    ]);
    expect(changes[4]!.data).toEqual({ from: 'draft', to: 'wait_for_proposals' });
    expect(changes[2]!.diff).toContainEqual({ op: 'replace', path: '/numPeople', value: 2 });

    const otherFeed = (await get(other, '/v1/changes')).json();
    expect(otherFeed.data).toHaveLength(1);
    expect(otherFeed.data[0].sequence).toBe(1);
  });

  it('tails: the last page still carries a cursor, and polling with it returns each later change once', async () => {
    const start = await readToEnd(api, 100);
    const idle = (await get(api, `/v1/changes?after=${start.cursor}`)).json();
    expect(idle).toEqual({ data: [], hasMore: false, nextCursor: start.cursor });

    const id = await createEvent(api);
    await api.patch(id, { numPeople: 5 });
    const next = await readToEnd(api, 1, start.cursor);
    expect(next.changes.map((change) => [change.eventId, change.revision])).toEqual([
      [id, 1],
      [id, 2],
    ]);
    expect(next.changes[0]!.sequence).toBe(start.changes.at(-1)!.sequence + 1);
    expect((await readToEnd(api, 1, next.cursor)).changes).toEqual([]);
  });

  it("refuses a changed cursor, another organization's, or one of a revision list, naming query.after", async () => {
    await createEvent(api);
    const page = (await get(api, '/v1/changes?limit=1')).json();
    const cursor = page.nextCursor as string;
    expect((await get(api, `/v1/changes?after=${cursor}`)).statusCode).toBe(200);

    // The MAC's last character carries two unused bits: the three characters that differ only there
    // decode to the same bytes, and must be refused all the same; and one that changes a used bit.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(cursor.slice(-1));
    const lastCharacterChanges = [last ^ 1, last ^ 2, last ^ 3, last ^ 4].map(
      (index) => cursor.slice(0, -1) + alphabet[index],
    );
    const revisionsCursor = (await get(api, `/v1/events/${page.data[0].eventId}/revisions?limit=1`)).json()
      .nextCursor as string | null;
    const wrong = [
      ...lastCharacterChanges,
      `x${cursor}`,
      'not-a-cursor',
      ...(revisionsCursor ? [revisionsCursor] : []),
    ];
    for (const value of wrong) {
      const response = await get(api, `/v1/changes?after=${encodeURIComponent(value)}`);
      expect(problemAt(response, 'query.after').code).toBe('invalid_cursor');
    }
    const ofAnotherOrganization = await get(other, `/v1/changes?after=${cursor}`);
    expect(problemAt(ofAnotherOrganization, 'query.after').code).toBe('invalid_cursor');
    const twice = await get(api, `/v1/changes?after=${cursor}&after=${cursor}`);
    problemAt(twice, 'query.after');
  });

  it('takes limit 1 to 100 (default 20) and no other parameter, every problem in one 400', async () => {
    for (let index = 0; index < 21; index++) await createEvent(other, { name: `Bulk ${index}` });
    const page = (await get(other, '/v1/changes')).json();
    expect(page.data).toHaveLength(20);
    expect(page.hasMore).toBe(true);
    for (const [query, field] of [
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['limit=1e1', 'query.limit'],
      ['since=1', 'query.since'],
    ]) {
      expect(problemAt(await get(api, `/v1/changes?${query}`), field!).code).toMatch(/^[a-z_]+$/);
    }
    const both = await get(api, '/v1/changes?limit=0&after=nope');
    expect(
      both
        .json()
        .errors.map((problem: { field: string }) => problem.field)
        .sort(),
    ).toEqual(['query.after', 'query.limit']);
  });

  it('needs an API key', async () => {
    const response = await clientFor(t, null).raw({ method: 'GET', url: '/v1/changes' });
    expect(response.statusCode).toBe(401);
  });
});
