import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A 4xx with a complete problem-details body; returns the body. */
function expectProblem(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  const body = response.json();
  expect(body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    code: expect.any(String),
    message: expect.any(String),
    requestId: expect.any(String),
  });
  return body;
}

const deep = (depth: number, open: string, close: string, inner = '1') =>
  open.repeat(depth) + inner + close.repeat(depth);

describe('JSON hazards in request bodies', () => {
  let t: TestApp;
  let eventId: string;
  let eventBefore: string;
  const send = (options: InjectOptions) =>
    t.app.inject({
      ...options,
      headers: { 'x-api-key': t.key, ...(options.headers as Record<string, string>) },
    });
  const post = (payload: string, contentType = 'application/json') =>
    send({ method: 'POST', url: '/v1/events', headers: { 'content-type': contentType }, payload });
  const patch = (payload: string, contentType = 'application/json') =>
    send({
      method: 'PATCH',
      url: `/v1/events/${eventId}`,
      headers: { 'content-type': contentType },
      payload,
    });

  beforeAll(async () => {
    t = await startTestApp();
    const created = await post(
      JSON.stringify({ name: 'Hazard target', numPeople: 10, budgetBreakdown: { venue: 5 } }),
    );
    expect(created.statusCode).toBe(201);
    eventId = created.json().id;
    eventBefore = (await send({ method: 'GET', url: `/v1/events/${eventId}` })).body;
  });
  afterAll(() => t.close());

  // [what, body, field named, code]
  const refused: Array<[string, string, string, string]> = [
    ['a duplicate top-level key', '{"name":"a","name":"b"}', 'name', 'duplicate_key'],
    ['a duplicate key spelled with an escape', '{"name":"a","n\\u0061me":"b"}', 'name', 'duplicate_key'],
    [
      'a duplicate nested key',
      '{"budgetBreakdown":{"venue":1,"venue":2}}',
      'budgetBreakdown.venue',
      'duplicate_key',
    ],
    [
      'a duplicate key inside an agenda operation',
      '{"agendaOperations":[{"op":"add","op":"remove"}]}',
      'agendaOperations[0].op',
      'duplicate_key',
    ],
    ['1E400', '{"numPeople":1E400}', 'numPeople', 'out_of_range'],
    ['-1E400', '{"budgetBreakdown":{"venue":-1E400}}', 'budgetBreakdown.venue', 'out_of_range'],
    ['an integer beyond 2^53', '{"numPeople":9007199254740993}', 'numPeople', 'out_of_range'],
    [
      'an amount beyond 2^53',
      '{"budgetBreakdown":{"fb":90071992547409930}}',
      'budgetBreakdown.fb',
      'out_of_range',
    ],
    ['a lone high surrogate', '{"otherNotes":"abc\\ud800"}', 'otherNotes', 'invalid_characters'],
    ['a lone low surrogate', '{"name":"\\udc00x"}', 'name', 'invalid_characters'],
    ['a lone surrogate in a key', '{"\\ud800":1}', '\ud800', 'invalid_characters'],
    ['an escaped NUL', '{"otherNotes":"a\\u0000b"}', 'otherNotes', 'invalid_characters'],
    ['10,000-deep arrays', `{"otherNotes":${deep(10_000, '[', ']')}}`, 'otherNotes[0]', 'too_deep'],
    ['10,000-deep objects', `{"otherNotes":${deep(10_000, '{"a":', '}')}}`, 'otherNotes.a', 'too_deep'],
    ['a __proto__ key', '{"__proto__":{"polluted":true}}', '__proto__', 'unknown_field'],
    [
      'constructor.prototype',
      '{"constructor":{"prototype":{"polluted":true}}}',
      'constructor',
      'unknown_field',
    ],
    [
      'a nested __proto__ key',
      '{"budgetBreakdown":{"__proto__":{"polluted":1}}}',
      'budgetBreakdown.__proto__',
      'unknown_field',
    ],
    ['an empty body', '', 'body', 'required'],
  ];

  for (const [what, body, field, code] of refused) {
    it(`refuses ${what} with a 400 naming ${JSON.stringify(field)}, on create and on update`, async () => {
      for (const response of [await post(body), await patch(body)]) {
        const problem = expectProblem(response, 400);
        const match = problem.errors.find((error: { field: string }) => error.field.startsWith(field));
        expect(match, JSON.stringify(problem.errors).slice(0, 500)).toBeDefined();
        if (!['__proto__', 'constructor', 'budgetBreakdown.__proto__'].includes(field))
          expect(match.code).toBe(code);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  const malformed: Array<[string, string]> = [
    ['a raw control character inside a string', '{"name":"a\u0001b"}'],
    ['a raw newline inside a string', '{"name":"a\nb"}'],
    ['only whitespace', '   \n '],
    ['a byte-order mark before the JSON', '\uFEFF{"name":"x"}'],
    ['truncated JSON', '{"name":"x"'],
    ['a trailing comma', '{"name":"x",}'],
    ['NaN', '{"numPeople":NaN}'],
    ['single quotes', "{'name':'x'}"],
    ['JSON null', 'null'],
    ['a JSON array', '[{"name":"x"}]'],
    ['a JSON string', '"name"'],
    ['a JSON number', '42'],
    ['a 10,000-deep top-level array', deep(10_000, '[', ']')],
  ];

  for (const [what, body] of malformed) {
    it(`refuses ${what} with a 400 problem naming the body`, async () => {
      for (const response of [await post(body), await patch(body)]) {
        const problem = expectProblem(response, 400);
        expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
      }
    });
  }

  it('refuses a wrong or missing content type with 415', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      expectProblem(await post('{"name":"x"}', type), 415);
      expectProblem(await patch('{"name":"x"}', type), 415);
    }
    expectProblem(
      await send({ method: 'POST', url: '/v1/events', payload: Buffer.from('{"name":"x"}') }),
      415,
    );
    expectProblem(await post('{"name":"x"}', 'application/merge-patch+json'), 415);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = JSON.stringify({ name: 'x', otherNotes: 'a'.repeat(1024 * 1024) });
    expectProblem(await post(big), 413);
    expectProblem(await patch(big), 413);
  });

  it('accepts paired surrogates, escaped control characters and large exact numbers', async () => {
    const created = await post(
      '{"name":"Launch \\ud83d\\ude80","otherNotes":"bell\\u0007tab\\t","numPeople":9007199254740991}',
    );
    expect(created.statusCode, created.body).toBe(201);
    const read = await send({ method: 'GET', url: `/v1/events/${created.json().id}` });
    expect(read.json()).toMatchObject({
      name: 'Launch 🚀',
      otherNotes: 'bell\u0007tab\t',
      numPeople: 9007199254740991,
    });
  });

  it('does not let invalid UTF-8 bytes through as anything but text or a 400', async () => {
    const payload = Buffer.concat([
      Buffer.from('{"name":"bad '),
      Buffer.from([0xed, 0xa0, 0x80, 0xff]),
      Buffer.from('"}'),
    ]);
    const response = await send({
      method: 'POST',
      url: '/v1/events',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect([201, 400]).toContain(response.statusCode);
    if (response.statusCode === 201) {
      const read = await send({ method: 'GET', url: `/v1/events/${response.json().id}` });
      expect(read.json().name).toBe('bad \ufffd\ufffd\ufffd\ufffd');
    }
  });

  it('leaves the event untouched by every refused body, and keeps answering', async () => {
    const after = await send({ method: 'GET', url: `/v1/events/${eventId}` });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(eventBefore);
    const list = await send({ method: 'GET', url: '/v1/events' });
    expect(list.statusCode).toBe(200);
  });
});
