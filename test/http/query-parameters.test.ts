import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, expectProblem, fieldsOf, problemAt } from './requests.js';

let t: TestApp;
let api: Client;
let id: string;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  id = await createEvent(api);
});
afterAll(() => t.close());

function send(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, key: string | null = t.key) {
  return clientFor(t, key).raw({
    method,
    url,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
  });
}

const total = async () => (await api.list()).json().total as number;

describe('unknown query parameters on the event routes', () => {
  it.each([
    ['GET', '/v1/events', undefined],
    ['POST', '/v1/events', { name: 'Sales kickoff' }],
    ['GET', '/v1/events/{id}', undefined],
    ['PATCH', '/v1/events/{id}', { numPeople: 5 }],
  ] as const)('%s %s refuses ?foo=1 with 400 naming query.foo', async (method, path, body) => {
    const response = await send(method, `${path.replace('{id}', id)}?foo=1`, body);
    expect(problemAt(response, 'query.foo').code).toBe('unknown_field');
    expect(fieldsOf(response)).toEqual(['query.foo']);
  });

  it('names every unknown parameter in one 400', async () => {
    const response = await send('GET', `/v1/events/${id}?foo=1&bar=&page=2`);
    expect(fieldsOf(response)).toEqual(['query.foo', 'query.bar', 'query.page']);
  });

  it('refuses a create with an unknown parameter without creating anything', async () => {
    const before = await total();
    problemAt(await send('POST', '/v1/events?dryRun=true', { name: 'Not created' }), 'query.dryRun');
    expect(await total()).toBe(before);
  });

  it('refuses an update with an unknown parameter without changing the event', async () => {
    const before = await api.get(id);
    problemAt(await send('PATCH', `/v1/events/${id}?name=Renamed`, { numPeople: 77 }), 'query.name');
    const after = await api.get(id);
    expect(after.body).toBe(before.body);
  });

  it('still answers 401 before looking at the query', async () => {
    expectProblem(await send('GET', `/v1/events/${id}?foo=1`, undefined, null), 401, 'unauthorized');
    expectProblem(await send('POST', '/v1/events?foo=1', { name: 'x' }, null), 401, 'unauthorized');
  });

  it('checks the query of a create before its body', async () => {
    const response = await clientFor(t).raw({
      method: 'POST',
      url: '/v1/events?foo=1',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(fieldsOf(response)).toEqual(['query.foo']);
  });

  it('accepts the requests without a query string, and an empty one', async () => {
    expect((await send('GET', `/v1/events/${id}?`)).statusCode).toBe(200);
    expect((await send('PATCH', `/v1/events/${id}`, { numPeople: 6 })).statusCode).toBe(200);
    expect((await send('POST', '/v1/events?', { name: 'Fine' })).statusCode).toBe(201);
  });
});

describe('the endpoints outside the event routes', () => {
  it.each([
    ['/v1/openapi.json', /^application\/json/],
    ['/docs', /^text\/html/],
    ['/docs/json', /^application\/json/],
    ['/healthz', /^application\/json/],
    ['/readyz', /^application\/json/],
    ['/metrics', /^text\/plain/],
  ])('%s still answers 200 without a key, whatever the query string', async (path, contentType) => {
    const response = await send('GET', `${path}?foo=1&v=${randomUUID()}`, undefined, null);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(contentType);
  });
});
