// The client on its own, against a fetch that answers as the API would: the key on every request,
// retries of a 429 after its Retry-After, pagination and the change feed. Runs on the built dist/.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEventplanClient, EventplanError } from '../dist/index.js';

const BASE_URL = 'http://eventplan.test';
const json = (status, body, headers = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });
const problem = (status, code, headers) =>
  json(status, { type: 'about:blank', title: code, status, code, message: code }, headers);

/** A fetch that records each request and answers with the next of `responses` (or calls it). */
function scriptedFetch(...responses) {
  const requests = [];
  const fetch = async (request) => {
    requests.push({
      method: request.method,
      url: new URL(request.url),
      apiKey: request.headers.get('x-api-key'),
      body: await request.text(),
    });
    const next = responses.shift();
    assert.ok(next, `unexpected request ${request.method} ${request.url}`);
    return typeof next === 'function' ? next(request) : next;
  };
  return { fetch, requests };
}

const listItem = (n) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Event ${n}`,
});

describe('createEventplanClient', () => {
  it('sends the API key on every request, to the base URL without a doubled slash', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { data: [], page: 1, limit: 10, total: 0 }));
    const api = createEventplanClient({ baseUrl: `${BASE_URL}/`, apiKey: 'evp_key', fetch });
    const { data } = await api.GET('/v1/events', { params: { query: { limit: 10 } } });
    assert.deepEqual(data.data, []);
    assert.equal(requests[0].apiKey, 'evp_key');
    assert.equal(requests[0].url.href, `${BASE_URL}/v1/events?limit=10`);
  });

  it('retries a 429 after its Retry-After, with the same body, and reports each wait', async () => {
    const { fetch, requests } = scriptedFetch(
      problem(429, 'rate_limited', { 'retry-after': '0' }),
      problem(429, 'rate_limited', { 'retry-after': '0' }),
      json(201, { id: listItem(1).id }),
    );
    const waits = [];
    const api = createEventplanClient({
      baseUrl: BASE_URL,
      apiKey: 'k',
      fetch,
      onRetry: (retry) => waits.push(retry),
    });
    const { data, response } = await api.POST('/v1/events', { body: { name: 'Kickoff' } });
    assert.equal(response.status, 201);
    assert.equal(data.id, listItem(1).id);
    assert.equal(requests.length, 3);
    assert.deepEqual(
      requests.map((request) => JSON.parse(request.body).name),
      ['Kickoff', 'Kickoff', 'Kickoff'],
    );
    assert.deepEqual(
      waits.map(({ attempt, waitMs }) => ({ attempt, waitMs })),
      [
        { attempt: 1, waitMs: 0 },
        { attempt: 2, waitMs: 0 },
      ],
    );
  });

  it('returns the 429 once maxRetries are spent, or at once when Retry-After is beyond maxRetryDelayMs', async () => {
    const spent = scriptedFetch(
      ...Array.from({ length: 3 }, () => problem(429, 'rate_limited', { 'retry-after': '0' })),
    );
    const twice = createEventplanClient({
      baseUrl: BASE_URL,
      apiKey: 'k',
      fetch: spent.fetch,
      maxRetries: 2,
    });
    const first = await twice.GET('/v1/events');
    assert.equal(first.response.status, 429);
    assert.equal(first.error.code, 'rate_limited');
    assert.equal(spent.requests.length, 3);

    const long = scriptedFetch(problem(429, 'rate_limited', { 'retry-after': '61' }));
    const patient = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: long.fetch });
    const started = Date.now();
    assert.equal((await patient.GET('/v1/events')).response.status, 429);
    assert.ok(Date.now() - started < 1000);
    assert.equal(long.requests.length, 1);
  });

  it('waits what Retry-After says before retrying', async () => {
    const { fetch } = scriptedFetch(
      problem(429, 'rate_limited', { 'retry-after': '1' }),
      json(200, { data: [], page: 1, limit: 100, total: 0 }),
    );
    const api = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });
    const started = Date.now();
    assert.equal((await api.GET('/v1/events')).response.status, 200);
    assert.ok(Date.now() - started >= 990);
  });

  it('lists every event across pages, and stops at the total', async () => {
    const { fetch, requests } = scriptedFetch(
      json(200, { data: [listItem(1), listItem(2)], page: 1, limit: 2, total: 5 }),
      json(200, { data: [listItem(3), listItem(4)], page: 2, limit: 2, total: 5 }),
      json(200, { data: [listItem(5)], page: 3, limit: 2, total: 5 }),
    );
    const api = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });
    const names = [];
    for await (const event of api.listAllEvents({ pageSize: 2 })) names.push(event.name);
    assert.deepEqual(names, ['Event 1', 'Event 2', 'Event 3', 'Event 4', 'Event 5']);
    assert.deepEqual(
      requests.map((request) => request.url.searchParams.get('page')),
      ['1', '2', '3'],
    );
  });

  it('throws an EventplanError carrying the problem when a page is refused', async () => {
    const { fetch } = scriptedFetch(problem(401, 'unauthorized'));
    const api = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });
    await assert.rejects(
      async () => {
        for await (const _event of api.listAllEvents()) {
        }
      },
      (error) =>
        error instanceof EventplanError && error.status === 401 && error.problem.code === 'unauthorized',
    );
  });

  it('reads the change feed from a saved cursor, page by page, skipping empty pages', async () => {
    const change = (sequence) => ({ id: `c${sequence}`, sequence });
    const { fetch, requests } = scriptedFetch(
      json(200, { data: [change(4), change(5)], nextCursor: 'after-5', hasMore: true }),
      json(200, { data: [change(6)], nextCursor: 'after-6', hasMore: false }),
    );
    const api = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });
    const pages = [];
    for await (const page of api.changeFeed({ after: 'after-3', pageSize: 2 })) pages.push(page);
    assert.deepEqual(
      pages.map((page) => page.data.map((c) => c.sequence)),
      [[4, 5], [6]],
    );
    assert.deepEqual(
      requests.map((request) => request.url.searchParams.get('after')),
      ['after-3', 'after-5'],
    );

    const empty = scriptedFetch(json(200, { data: [], nextCursor: 'after-6', hasMore: false }));
    const quiet = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: empty.fetch });
    for await (const _page of quiet.changeFeed({ after: 'after-6' }))
      assert.fail('an empty page is not yielded');
  });

  it('follows the feed until aborted, polling from the last cursor', async () => {
    const controller = new AbortController();
    const { fetch, requests } = scriptedFetch(
      json(200, { data: [], nextCursor: 'c0', hasMore: false }),
      json(200, { data: [{ id: 'c1', sequence: 1 }], nextCursor: 'c1', hasMore: false }),
      () => {
        controller.abort();
        return json(200, { data: [], nextCursor: 'c1', hasMore: false });
      },
    );
    const api = createEventplanClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });
    const seen = [];
    for await (const page of api.changeFeed({ follow: true, pollIntervalMs: 5, signal: controller.signal })) {
      seen.push(...page.data.map((c) => c.sequence));
    }
    assert.deepEqual(seen, [1]);
    assert.deepEqual(
      requests.map((request) => request.url.searchParams.get('after')),
      [null, 'c0', 'c1'],
    );
  });
});
