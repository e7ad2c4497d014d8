/** Request ids: accepted from x-request-id (or generated), echoed on every response and in problems. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let id: string;
let etag: string;

beforeAll(async () => {
  t = await startTestApp();
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { 'x-api-key': t.key },
    payload: { name: 'Traced' },
  });
  id = created.json().id;
  etag = (await t.app.inject({ method: 'GET', url: `/v1/events/${id}`, headers: { 'x-api-key': t.key } }))
    .headers.etag as string;
});
afterAll(() => t.close());

const requests = () => {
  const key = { 'x-api-key': t.key };
  const json = { ...key, 'content-type': 'application/json' };
  return [
    { name: '200 list', method: 'GET', url: '/v1/events', headers: key },
    { name: '201 create', method: 'POST', url: '/v1/events', headers: json, payload: '{"name":"x"}' },
    { name: '304 read', method: 'GET', url: `/v1/events/${id}`, headers: { ...key, 'if-none-match': etag } },
    { name: '400 bad id', method: 'GET', url: '/v1/events/nope', headers: key },
    { name: '401 no key', method: 'GET', url: '/v1/events' },
    { name: '404 unknown route', method: 'GET', url: '/v1/nowhere', headers: key },
    { name: '412 stale', method: 'PATCH', url: `/v1/events/${id}`, headers: { ...json, 'if-match': '"old"' }, payload: '{}' },
    { name: '413 too large', method: 'POST', url: '/v1/events', headers: json, payload: `{"name":"${'x'.repeat(1_100_000)}"}` },
    { name: '415 text', method: 'POST', url: '/v1/events', headers: { ...key, 'content-type': 'text/plain' }, payload: 'x' },
    { name: 'the document', method: 'GET', url: '/v1/openapi.json' },
    { name: 'the reference', method: 'GET', url: '/docs' },
  ] as const;
};

describe('x-request-id', () => {
  it('is echoed on every response when the client sends a safe one, and is in every problem body', async () => {
    for (const [index, request] of requests().entries()) {
      const requestId = `trace-${index}.a:b_c`;
      const response = await t.app.inject({
        ...request,
        headers: { ...('headers' in request ? request.headers : {}), 'x-request-id': requestId },
      });
      expect(response.headers['x-request-id'], request.name).toBe(requestId);
      if (response.statusCode >= 400) expect(response.json().requestId, request.name).toBe(requestId);
    }
  });

  it('is generated, fresh for every request, when the client sends none or an unsafe one', async () => {
    const seen = new Set<string>();
    for (const given of [undefined, '', 'has space', 'x'.repeat(129), 'semi;colon']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/events/nope',
        headers: { 'x-api-key': t.key, ...(given === undefined ? {} : { 'x-request-id': given }) },
      });
      const generated = response.headers['x-request-id'] as string;
      expect(generated).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.json().requestId).toBe(generated);
      seen.add(generated);
    }
    expect(seen.size).toBe(5);
  });
});
