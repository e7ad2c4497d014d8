import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/http/logging.js';
import { type OpsApp, startOpsApp } from './ops-app.js';

/** Every log line the app writes, as text and parsed. */
function captureLogs() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return {
    stream,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('request logs', () => {
  const logs = captureLogs();
  let ops: OpsApp;
  const requestIds: string[] = [];
  const freeText: [string, string, string] = [
    'Quokka-Gala-Zanzibar',
    'vegan-only-canapes-7731',
    'secret-venue-memo-55',
  ];

  beforeAll(async () => {
    ops = await startOpsApp({ logger: loggerOptions({ level: 'trace', stream: logs.stream }) });
    const key = ops.key;
    const send = async (request: InjectOptions) => {
      const response = await ops.app.inject(request);
      requestIds.push(String(response.headers['x-request-id']));
      return response;
    };
    const created = await send({
      method: 'POST',
      url: '/v1/events',
      headers: { 'x-api-key': key },
      payload: { name: freeText[0], otherNotes: freeText[1] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(
      (
        await send({
          method: 'PATCH',
          url: `/v1/events/${id}`,
          headers: { 'x-api-key': key },
          payload: { notesForVenue: freeText[2], foodBeverageRequirements: freeText[1] },
        })
      ).statusCode,
    ).toBe(200);
    // Rejected bodies: a 400 must not echo free text into the logs either.
    expect(
      (
        await send({
          method: 'PATCH',
          url: `/v1/events/${id}`,
          headers: { 'x-api-key': key },
          payload: { notesForVenue: freeText[2], numPeople: freeText[0] },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await send({
          method: 'PATCH',
          url: `/v1/events/${id}`,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          payload: `{"otherNotes": "${freeText[1]}"`,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await send({
          method: 'GET',
          url: '/v1/events?limit=5&page=1',
          headers: { 'x-api-key': key },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await send({ method: 'GET', url: '/v1/events', headers: { 'x-api-key': `${key.slice(0, -3)}xyz` } }))
        .statusCode,
    ).toBe(401);
    ops.readiness.beginShutdown();
    expect((await send({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
  });
  afterAll(() => ops.close());

  it('writes one JSON object per line, and one access line per request', () => {
    const lines = logs.lines();
    const access = lines.filter((line) => line.msg === 'request completed');
    expect(access.map((line) => line.reqId)).toEqual(requestIds);
    expect(lines.map((line) => line.msg)).not.toContain('incoming request');
  });

  it('gives method, path, status, response time and request id in the access line', () => {
    const access = logs.lines().filter((line) => line.msg === 'request completed');
    const statuses = [201, 200, 400, 400, 200, 401, 503];
    expect(access.map((line) => (line.res as { statusCode: number }).statusCode)).toEqual(statuses);
    expect(access.map((line) => (line.req as { method: string }).method)).toEqual([
      'POST',
      'PATCH',
      'PATCH',
      'PATCH',
      'GET',
      'GET',
      'GET',
    ]);
    for (const line of access) {
      expect(line.level).toBe(30);
      expect(line.responseTime).toEqual(expect.any(Number));
      expect(line.reqId).toEqual(expect.any(String));
    }
    expect((access[6]!.req as { path: string }).path).toBe('/readyz');
  });

  it('carries the request id in every line, matching the x-request-id the client got', () => {
    const lines = logs.lines();
    for (const line of lines) expect(line.reqId, JSON.stringify(line)).toEqual(expect.any(String));
    expect(new Set(lines.map((line) => line.reqId))).toEqual(new Set(requestIds));
  });

  it('never writes the API key, neither whole nor its secret part', () => {
    const text = logs.text();
    expect(text).not.toContain(ops.key);
    expect(text).not.toContain(ops.key.split('_')[2]!);
  });

  it('never writes free text from request bodies, accepted or rejected', () => {
    const text = logs.text();
    for (const phrase of freeText) expect(text).not.toContain(phrase);
  });

  it('logs requests by method and path, without the query string', () => {
    const completed = logs.lines().filter((line) => line.msg === 'request completed');
    const paths = completed.map((line) => (line.req as { path: string }).path);
    expect(paths).toContain('/v1/events');
    expect(JSON.stringify(completed)).not.toContain('limit=5');
  });
});
