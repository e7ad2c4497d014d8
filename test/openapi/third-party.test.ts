/**
 * What tools other than ours read in the document. OpenAPI linters (Spectral's `oas` rules, run by
 * `npm run lint`) want every tag declared; validating proxies such as Prism read a `readOnly` property
 * as one a request never carries, and refuse a body on an operation that declares none. Each check here
 * reads the document the way those tools do, so the document accepts what the service accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentValidator, requestView } from '../helpers/openapi.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';
import { clientFor, createEvent, fullEventBody, session } from '../http/requests.js';

type Json = Record<string, any>;
let t: TestApp;
let document: Json;

beforeAll(async () => {
  t = await startTestApp();
  // A resolved place adds its read-only fields to each location of the GET body.
  await t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
  document = json(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }));
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );

describe('the document, read by other tools', () => {
  it('declares every tag an operation is filed under', () => {
    const declared = new Set(document.tags.map((tag: { name: string }) => tag.name));
    const undeclared = operations().flatMap(({ method, path, operation }) =>
      (operation.tags ?? []).filter((tag: string) => !declared.has(tag)).map((tag: string) => `${method} ${path}: ${tag}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('accepts a full GET body of an event, read-only fields and all, as a PATCH body', async () => {
    const client = clientFor(t);
    const id = await createEvent(client, {
      ...fullEventBody(),
      meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
      agenda: [session('Opening', ['2026-05-01'])],
    });
    const read = await client.get(id);
    expect(read.statusCode).toBe(200);
    const body = json(read);
    expect(body.agenda).toHaveLength(1);
    expect(body.formattedLocations[0].place_id).toMatch(/^geonames:/);

    const asRequestValidatorsReadIt = componentValidator('UpdateEventRequest', requestView(document as never));
    expect(asRequestValidatorsReadIt(body)).toEqual([]);
    // And the service takes it back as it is: nothing changes.
    const patched = await client.patch(id, body);
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.headers.etag).toBe(read.headers.etag);
  });

  it('still refuses an unknown field in a PATCH body', () => {
    const update = componentValidator('UpdateEventRequest', requestView(document as never));
    expect(update({ name: 'x', bogus: 1 })).not.toEqual([]);
  });

  it('declares a body, required or not, on every POST and PATCH, since the service reads one on each', () => {
    const withoutBody = operations()
      .filter(({ method }) => method === 'post' || method === 'patch')
      .filter(({ operation }) => operation.requestBody === undefined)
      .map(({ method, path }) => `${method} ${path}`);
    expect(withoutBody).toEqual([]);
  });

  it('lets the actions on a webhook endpoint be sent without a body or with an empty object', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://hooks.example.com/in', enabledEvents: ['event.created'] }),
    });
    const endpoint = json(created).id;
    for (const action of ['rotate-secret', 'test']) {
      const { requestBody } = document.paths[`/v1/webhook-endpoints/{id}/${action}`].post;
      expect(requestBody.required, action).toBe(false);
      const schema = requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(componentValidator(schema, document as never)({})).toEqual([]);
      for (const payload of [undefined, '{}']) {
        const response = await t.app.inject({
          method: 'POST',
          url: `/v1/webhook-endpoints/${endpoint}/${action}`,
          headers: { 'x-api-key': t.key, ...(payload ? { 'content-type': 'application/json' } : {}) },
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode, `${action} ${payload ?? 'without a body'}`).toBeLessThan(300);
      }
    }
  });
});
