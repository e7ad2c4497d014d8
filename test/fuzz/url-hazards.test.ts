import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('hazardous URLs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers an event id of 1,000 characters with a 400 naming id, not a bare 414 from the router', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${'x'.repeat(1000)}`,
      headers: { 'x-api-key': t.key, 'content-type': 'application/json', 'x-request-id': 'long-id-1' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'validation_failed', requestId: 'long-id-1' });
    expect(response.json().errors.map((error: { field: string }) => error.field)).toContain('id');
  });

  it('answers an id as long as a request line can carry with 401 without a key, then 400 naming id', async () => {
    // Node refuses request heads over 16 KiB (431) before the app sees them; anything shorter reaches the checks.
    const url = `/v1/events/${'x'.repeat(16_000)}`;
    const anonymous = await t.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    const response = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toEqual(['id']);
    expect(response.headers['ratelimit-limit']).toBeDefined();
  });

  it('answers a malformed percent-encoding in an event id with a 400 naming id, after the key check', async () => {
    for (const id of ['%E0%A4%A', '%zz', 'abc%']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/v1/events/${id}`,
        headers: { 'x-api-key': t.key },
      });
      expect(response.statusCode, id).toBe(400);
      expect(response.headers['content-type'], id).toContain('application/problem+json');
      expect(response.json().errors.map((error: { field: string }) => error.field)).toEqual(['id']);
      expect(response.headers['ratelimit-limit'], id).toBeDefined();
      const anonymous = await t.app.inject({ method: 'GET', url: `/v1/events/${id}` });
      expect(anonymous.statusCode, id).toBe(401);
    }
  });

  it('answers other malformed paths with a 404 problem carrying the request id', async () => {
    for (const url of ['/%', '/v1/%zz', '/%E0%A4%A?page=1']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 404, code: 'not_found' });
      expect(response.json().requestId).toBe(response.headers['x-request-id']);
    }
  });
});
