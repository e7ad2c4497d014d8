/** The webhook endpoint API through the real app (D18); every response is checked against the document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/app/organizations.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent } from './requests.js';

describe('webhook endpoints', () => {
  let t: TestApp;
  let client: Client;
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = t.key) =>
    t.app.inject({
      method,
      url: `/v1${url}`,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    t = await startTestApp();
    client = clientFor(t);
  });
  afterAll(() => t.close());

  it('creates an endpoint and shows its secret only in the answer to the create', async () => {
    const created = await send('POST', '/webhook-endpoints', {
      url: 'https://hooks.example.com/in',
      enabledEvents: ['event.created', 'event.status_changed'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = json(created);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(body).toMatchObject({
      status: 'enabled',
      disabledReason: null,
      enabledEvents: ['event.created', 'event.status_changed'],
    });
    const read = await send('GET', `/webhook-endpoints/${body.id}`);
    expect(read.statusCode).toBe(200);
    expect(json(read).secret).toBeUndefined();
    const list = await send('GET', '/webhook-endpoints');
    expect(json(list).data.map((endpoint: { id: string }) => endpoint.id)).toContain(body.id);
    expect(list.body).not.toContain(body.secret);
  });

  it('refuses a malformed body with a 400 naming every field', async () => {
    const response = await send('POST', '/webhook-endpoints', {
      url: 42,
      enabledEvents: ['event.deleted'],
      extra: 1,
    });
    expect(response.statusCode).toBe(400);
    expect(
      json(response)
        .errors.map((problem: { field: string }) => problem.field)
        .sort(),
    ).toEqual(['enabledEvents[0]', 'extra', 'url']);
  });

  it.each([
    'http://hooks.example.com/in',
    'https://10.0.0.1/in',
    'https://127.0.0.1/in',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/in',
    'https://[fd00::1]/in',
    'https://[::ffff:127.0.0.1]/in',
    'https://localhost/in',
    'ftp://hooks.example.com/in',
  ])('refuses %s as an endpoint URL with a 400 naming url', async (url) => {
    const response = await send('POST', '/webhook-endpoints', { url, enabledEvents: ['event.created'] });
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual([
      expect.objectContaining({ field: 'url', code: 'url_not_allowed' }),
    ]);
  });

  it('updates, disables, rotates, tests and deletes an endpoint', async () => {
    const { id, secret } = json(
      await send('POST', '/webhook-endpoints', {
        url: 'https://hooks.example.com/a',
        enabledEvents: ['event.created'],
      }),
    );
    const patched = await send('PATCH', `/webhook-endpoints/${id}`, {
      url: 'https://hooks.example.com/b',
      enabledEvents: ['event.updated'],
      status: 'disabled',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(json(patched)).toMatchObject({
      url: 'https://hooks.example.com/b',
      enabledEvents: ['event.updated'],
      status: 'disabled',
    });
    expect(json(await send('PATCH', `/webhook-endpoints/${id}`, { status: 'enabled' }))).toMatchObject({
      status: 'enabled',
      disabledReason: null,
    });
    const badPatch = await send('PATCH', `/webhook-endpoints/${id}`, {
      url: 'https://10.1.2.3/',
      status: 'paused',
    });
    expect(
      json(badPatch)
        .errors.map((problem: { field: string }) => problem.field)
        .sort(),
    ).toEqual(['status', 'url']);

    const rotated = await send('POST', `/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(json(rotated).secret).not.toBe(secret);
    expect(Date.parse(json(rotated).previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const test = await send('POST', `/webhook-endpoints/${id}/test`);
    expect(test.statusCode).toBe(202);
    expect(json(test)).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0 });
    const deliveries = await send('GET', `/webhook-endpoints/${id}/deliveries?limit=5`);
    expect(json(deliveries).data.map((delivery: { id: string }) => delivery.id)).toEqual([json(test).id]);
    const retried = await send('POST', `/webhook-endpoints/${id}/deliveries/${json(test).id}/retry`);
    expect(retried.statusCode).toBe(202);

    expect((await send('DELETE', `/webhook-endpoints/${id}`)).statusCode).toBe(204);
    expect((await send('GET', `/webhook-endpoints/${id}`)).statusCode).toBe(404);
    expect((await send('DELETE', `/webhook-endpoints/${id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another organization's endpoint and its deliveries", async () => {
    const { id } = json(
      await send('POST', '/webhook-endpoints', {
        url: 'https://hooks.example.com/mine',
        enabledEvents: ['event.created'],
      }),
    );
    const other = (await createDemo(t.deps)).key;
    for (const [method, url] of [
      ['GET', `/webhook-endpoints/${id}`],
      ['PATCH', `/webhook-endpoints/${id}`],
      ['DELETE', `/webhook-endpoints/${id}`],
      ['POST', `/webhook-endpoints/${id}/rotate-secret`],
      ['GET', `/webhook-endpoints/${id}/deliveries`],
      ['POST', `/webhook-endpoints/${id}/test`],
    ] as const) {
      const response = await send(
        method,
        url,
        method === 'PATCH' ? { status: 'disabled' } : undefined,
        other,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(json(await send('GET', '/webhook-endpoints', undefined, other)).data).toEqual([]);
  });

  it('queues a delivery for each change of an enabled type, with the change id as webhook id', async () => {
    const { id } = json(
      await send('POST', '/webhook-endpoints', {
        url: 'https://hooks.example.com/feed',
        enabledEvents: ['event.created'],
      }),
    );
    const eventId = await createEvent(client);
    await client.patch(eventId, { name: 'Renamed' });
    await t.deps.store.webhooks.enqueueChanges(new Date().toISOString(), 100);
    const deliveries = json(await send('GET', `/webhook-endpoints/${id}/deliveries`)).data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ type: 'event.created', status: 'pending', attempts: 0 });
    expect(deliveries[0].webhookId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names malformed ids and unknown query parameters in one 400', async () => {
    const response = await send('GET', '/webhook-endpoints/nope/deliveries?limit=0&x=1');
    expect(response.statusCode).toBe(400);
    expect(
      json(response)
        .errors.map((problem: { field: string }) => problem.field)
        .sort(),
    ).toEqual(['id', 'query.limit', 'query.x']);
  });
});
