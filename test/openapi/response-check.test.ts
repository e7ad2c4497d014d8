import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedResponse, expectMatchesOpenApi, openApiMismatches } from '../helpers/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let id: string;
let read: CheckedResponse;

beforeAll(async () => {
  t = await startTestApp();
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { 'x-api-key': t.key },
    payload: { name: 'Checked', numPeople: 12 },
  });
  id = created.json().id;
  read = await t.app.inject({ method: 'GET', url: `/v1/events/${id}`, headers: { 'x-api-key': t.key } });
});
afterAll(() => t.close());

const changed = (response: CheckedResponse, change: Partial<CheckedResponse>): CheckedResponse => ({
  statusCode: response.statusCode,
  headers: { ...response.headers },
  body: response.body,
  ...change,
});

describe('expectMatchesOpenApi', () => {
  it('accepts a real response, by template or by concrete path', () => {
    expect(openApiMismatches(read, 'GET', '/v1/events/{id}')).toEqual([]);
    expect(() => expectMatchesOpenApi(read, 'GET', `/v1/events/${id}`)).not.toThrow();
  });

  it('fails a body with a field the document does not list', () => {
    const body = JSON.stringify({ ...JSON.parse(read.body), secret: 'x' });
    expect(() => expectMatchesOpenApi(changed(read, { body }), 'GET', '/v1/events/{id}')).toThrow(
      /must NOT have additional properties/,
    );
  });

  it('fails a body whose field has the wrong type', () => {
    const body = JSON.stringify({ ...JSON.parse(read.body), numPeople: '12' });
    expect(openApiMismatches(changed(read, { body }), 'GET', '/v1/events/{id}')).toEqual([
      expect.stringMatching(/^body\/numPeople must be integer/),
    ]);
  });

  it('fails a missing required header and a malformed one', () => {
    const headers: CheckedResponse['headers'] = { ...read.headers, 'ratelimit-remaining': 'many' };
    delete headers.etag;
    expect(openApiMismatches(changed(read, { headers }), 'GET', '/v1/events/{id}')).toEqual([
      expect.stringContaining('RateLimit-Remaining'),
      'header ETag is required but missing',
    ]);
  });

  it('judges a status the operation does not list by its default response', () => {
    expect(openApiMismatches(changed(read, { statusCode: 418 }), 'GET', '/v1/events/{id}')).toEqual([
      'content-type "application/json" is not documented (expected application/problem+json)',
    ]);
  });

  it('fails a status of an operation without a default response', () => {
    expect(openApiMismatches(changed(read, { statusCode: 404 }), 'GET', '/v1/openapi.json')).toEqual([
      'status 404 is not documented for GET /v1/openapi.json',
    ]);
  });

  it('fails a media type the response does not document', () => {
    const headers = { ...read.headers, 'content-type': 'text/plain' };
    expect(openApiMismatches(changed(read, { headers }), 'GET', '/v1/events/{id}')).toEqual([
      expect.stringContaining('content-type "text/plain" is not documented'),
    ]);
  });

  it('fails a body where the document promises none (304)', () => {
    expect(openApiMismatches(changed(read, { statusCode: 304 }), 'GET', '/v1/events/{id}')).toEqual([
      expect.stringContaining('a body was sent where none is documented'),
    ]);
  });

  it('fails an operation the document does not have', () => {
    expect(openApiMismatches(read, 'DELETE', '/v1/events/{id}')).toEqual([
      'DELETE /v1/events/{id} is not an operation of the document',
    ]);
  });
});

describe('app.inject of startTestApp()', () => {
  it('fails the test when a documented operation answers something the document does not describe', async () => {
    const other = await startTestApp();
    try {
      // A deliberate drift: an extra field on every event read.
      // (An event is sent as the stored bytes, so the payload here is a Buffer.)
      other.app.addHook('onSend', async (request, _reply, payload) =>
        request.method === 'GET' && Buffer.isBuffer(payload) && request.url.startsWith('/v1/events/')
          ? payload.toString().replace(/}$/, ',"drift":true}')
          : payload,
      );
      const created = await other.app.inject({
        method: 'POST',
        url: '/v1/events',
        headers: { 'x-api-key': other.key },
        payload: { name: 'Drift' },
      });
      await expect(
        other.app.inject({ method: 'GET', url: `/v1/events/${created.json().id}`, headers: { 'x-api-key': other.key } }),
      ).rejects.toThrow(/does not match the OpenAPI document/);
    } finally {
      await other.close();
    }
  });

  it('leaves undocumented routes alone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
  });
});
