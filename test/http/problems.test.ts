import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, expectProblem, problemAt } from './requests.js';

let t: TestApp;
let api: Client;
let id: string;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  id = await createEvent(api);
});
afterAll(() => t.close());

const ONE_MIB = 1024 * 1024;

/** A JSON object body of exactly `bytes` bytes. */
function bodyOfSize(bytes: number): string {
  const frame = '{"otherNotes":""}';
  return `{"otherNotes":"${'x'.repeat(bytes - frame.length)}"}`;
}

function send(method: 'POST' | 'PATCH', payload: string, contentType = 'application/json') {
  return api.raw({
    method,
    url: method === 'POST' ? '/v1/events' : `/v1/events/${id}`,
    headers: { 'content-type': contentType },
    payload,
  });
}

describe('error bodies (D4)', () => {
  it('are RFC 9457 problems with type, title, status, code, message and requestId', async () => {
    const cases: Array<[Promise<Awaited<ReturnType<Client['get']>>>, number, string]> = [
      [api.get('nope'), 400, 'validation_failed'],
      [clientFor(t, null).list(), 401, 'unauthorized'],
      [api.get(randomUUID()), 404, 'not_found'],
      [send('PATCH', 'x', 'text/plain'), 415, 'unsupported_media_type'],
      [send('POST', bodyOfSize(ONE_MIB + 1)), 413, 'payload_too_large'],
    ];
    for (const [pending, status, code] of cases) {
      const body = expectProblem(await pending, status, code);
      expect(body.type).toMatch(/\S/);
      expect(body.title).toMatch(/\S/);
    }
  });

  it('give a 400 an errors list of { field, code, message }', async () => {
    const response = await api.create({ name: '', numPeople: 1.5 });
    const body = expectProblem(response, 400, 'validation_failed');
    expect(body.errors).toEqual([
      { field: 'name', code: expect.any(String), message: expect.any(String) },
      { field: 'numPeople', code: expect.any(String), message: expect.any(String) },
    ]);
  });

  it('never show a stack trace for a 500', async () => {
    const broken = await startTestApp();
    try {
      await broken.deps.store.close();
      const response = await clientFor(broken).list();
      const body = expectProblem(response, 500, 'internal_error');
      expect(body.errors).toBeUndefined();
      expect(response.body).not.toMatch(/\bat .*\(|\.ts:\d|node_modules|database|sqlite/i);
    } finally {
      await broken.close();
    }
  });
});

describe('request bodies (D14)', () => {
  it('accepts a body of exactly 1 MiB and refuses one byte more with 413', async () => {
    const atLimit = await send('PATCH', bodyOfSize(ONE_MIB));
    // Read, then refused for its content (too long a note), not for its size.
    expect(problemAt(atLimit, 'otherNotes').code).toBe('too_long');
    expectProblem(await send('PATCH', bodyOfSize(ONE_MIB + 1)), 413, 'payload_too_large');
    expectProblem(await send('POST', bodyOfSize(ONE_MIB + 1)), 413, 'payload_too_large');
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
  ])('refuses %s with 415 on create and update', async (contentType) => {
    expectProblem(await send('POST', '{"name":"x"}', contentType), 415, 'unsupported_media_type');
    expectProblem(await send('PATCH', '{"name":"x"}', contentType), 415, 'unsupported_media_type');
  });

  it('refuses merge-patch on create with 415 and accepts it on update', async () => {
    expectProblem(
      await send('POST', '{"name":"x"}', 'application/merge-patch+json'),
      415,
      'unsupported_media_type',
    );
    expect((await send('PATCH', '{"numPeople":4}', 'application/merge-patch+json')).statusCode).toBe(200);
  });

  it('accepts a charset parameter on application/json', async () => {
    expect((await send('POST', '{"name":"x"}', 'application/json; charset=utf-8')).statusCode).toBe(201);
  });

  it.each([
    ['malformed JSON', '{"name": "x",'],
    ['an empty body', ''],
    ['an array', '[{"name":"x"}]'],
    ['a string', '"x"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('refuses %s with 400 on create and update, writing nothing', async (_label, payload) => {
    const before = await api.get(id);
    const totalBefore = (await api.list()).json().total;
    for (const method of ['POST', 'PATCH'] as const) {
      const response = await send(method, payload);
      const problem = problemAt(response, 'body');
      expect(problem.code).toMatch(/^[a-z_]+$/);
    }
    expect((await api.get(id)).body).toBe(before.body);
    expect((await api.list()).json().total).toBe(totalBefore);
  });

  it('refuses a missing body on update with 400', async () => {
    const response = await api.raw({ method: 'PATCH', url: `/v1/events/${id}` });
    problemAt(response, 'body');
  });

  it.each([
    '__proto__',
    'constructor',
    'prototype',
  ])('refuses a %s key anywhere with 400 naming it, and never pollutes Object.prototype', async (key) => {
    const polluting = `"${key}":{"polluted":true}`;
    const newSession = `"title":"t","dates":["2026-05-01"],"startTime":"09:00","endTime":"10:00"`;
    // [fields shared by create and update, the field named]
    const shared: Array<[string, string]> = [
      [polluting, key],
      [`"budgetBreakdown":{${polluting}}`, `budgetBreakdown.${key}`],
      [`"accommodations":{"2026-05-01":{${polluting}}}`, `accommodations.2026-05-01.${key}`],
      [`"formattedLocations":[{"city":"Oslo",${polluting}}]`, `formattedLocations[0].${key}`],
    ];
    const before = await api.get(id);
    for (const [fields, field] of shared) {
      problemAt(await send('PATCH', `{${fields}}`), field);
      problemAt(await send('POST', `{"name":"x",${fields}}`), field);
    }
    problemAt(
      await send('PATCH', `{"agendaOperations":[{"op":"add","session":{${newSession},${polluting}}}]}`),
      `agendaOperations[0].session.${key}`,
    );
    problemAt(await send('POST', `{"name":"x","agenda":[{${newSession},${polluting}}]}`), `agenda[0].${key}`);
    expect((await api.get(id)).body).toBe(before.body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });
});

describe('routes and request ids', () => {
  it('answers an unknown route with a 404 problem, with or without a key', async () => {
    for (const url of ['/nope', '/v1/nope', '/v2/events', '/v1/events/x/y']) {
      expectProblem(await api.raw({ method: 'GET', url }), 404, 'not_found');
      expectProblem(await clientFor(t, null).raw({ method: 'GET', url }), 404, 'not_found');
    }
  });

  it('answers a method the path does not offer with a 404 problem', async () => {
    expectProblem(await api.raw({ method: 'DELETE', url: `/v1/events/${id}` }), 404, 'not_found');
    expectProblem(await api.raw({ method: 'PUT', url: '/v1/events' }), 404, 'not_found');
  });

  it('echoes a given x-request-id in the header and in problems', async () => {
    const ok = await api.raw({
      method: 'GET',
      url: '/v1/events',
      headers: { 'x-request-id': 'trace-42.a:b' },
    });
    expect(ok.headers['x-request-id']).toBe('trace-42.a:b');
    const failed = await api.raw({
      method: 'GET',
      url: '/v1/events/nope',
      headers: { 'x-request-id': 'trace-43' },
    });
    expect(failed.headers['x-request-id']).toBe('trace-43');
    expect(failed.json().requestId).toBe('trace-43');
  });

  it('generates a fresh x-request-id when none is given or the given one is unsafe', async () => {
    const first = await api.list();
    const second = await api.list();
    const uuid = /^[0-9a-f-]{36}$/;
    expect(first.headers['x-request-id']).toMatch(uuid);
    expect(second.headers['x-request-id']).toMatch(uuid);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    const unsafe = await api.raw({
      method: 'GET',
      url: '/v1/events',
      headers: { 'x-request-id': 'has spaces <script>' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(uuid);
  });
});
