/**
 * One request and its response on node:http, with what every answer carries: the request id, the
 * rate-limit headers, the access line and the metrics. Which requests the floor answers at all is
 * decided here too (routeOf): the ones the benchmark sends, in the shapes it sends them.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimitDecision } from './gcra.js';
import type { Observers } from './observers.js';
import { problemBody, Refusal } from './refusal.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
export const BODY_LIMIT_BYTES = 1024 * 1024;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export class Exchange {
  readonly started = performance.now();
  readonly requestId: string;
  decision: RateLimitDecision | undefined;

  constructor(
    readonly request: IncomingMessage,
    readonly response: ServerResponse,
    private readonly observers: Observers,
  ) {
    const given = request.headers['x-request-id'];
    this.requestId = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  }

  /** Sends a response, then writes its access line and counts it under `route`. */
  send(route: string, status: number, contentType: string, body: Buffer, extra?: Record<string, string>) {
    const headers: Record<string, string> = { 'x-request-id': this.requestId };
    if (this.decision) {
      headers['ratelimit-limit'] = this.decision.limit;
      headers['ratelimit-remaining'] = this.decision.remaining;
      headers['ratelimit-reset'] = this.decision.reset;
    }
    if (extra) Object.assign(headers, extra);
    headers['content-type'] = contentType;
    headers['content-length'] = String(body.length);
    this.response.writeHead(status, headers);
    this.response.end(body);
    const { method = '', url = '' } = this.request;
    const query = url.indexOf('?');
    this.observers.record(
      method,
      query < 0 ? url : url.slice(0, query),
      this.request.socket.remoteAddress,
      this.requestId,
      route,
      status,
      this.started,
    );
  }

  sendJson(route: string, status: number, body: Buffer, extra?: Record<string, string>) {
    this.send(route, status, JSON_TYPE, body, extra);
  }

  /** Answers with the problem a Refusal describes (any other error: a 500 that says nothing more). */
  refuse(route: string, error: unknown) {
    const refusal =
      error instanceof Refusal
        ? error
        : new Refusal(
            500,
            'internal_error',
            'Something went wrong on our side; the request was not applied.',
          );
    if (!(error instanceof Refusal))
      process.stderr.write(`floor: ${(error as Error)?.stack ?? String(error)}\n`);
    const extra: Record<string, string> | undefined =
      refusal.status === 429
        ? { 'retry-after': String(this.decision?.retryAfterSeconds ?? 1) }
        : refusal.status === 413
          ? { connection: 'close' }
          : undefined;
    this.send(route, refusal.status, PROBLEM_TYPE, Buffer.from(problemBody(refusal, this.requestId)), extra);
  }
}

/** The requests the floor answers, by route pattern. */
export type Route =
  | { pattern: '/v1/events/:id'; method: 'GET' | 'PATCH'; id: string }
  | { pattern: '/v1/events'; method: 'GET'; page: number; limit: number }
  | { pattern: '/v1/events'; method: 'POST' }
  | { pattern: 'unmatched' };

const DIGITS = /^[0-9]{1,16}$/;

/** `page` and `limit`, each at most once, in plain digits and in range; undefined for any other query. */
function plainListQuery(query: string): { page: number; limit: number } | undefined {
  let page: number | undefined;
  let limit: number | undefined;
  if (query !== '') {
    for (const pair of query.split('&')) {
      const equals = pair.indexOf('=');
      const raw = pair.slice(equals + 1);
      if (equals < 0 || !DIGITS.test(raw)) return undefined;
      const name = pair.slice(0, equals);
      const value = Number(raw);
      if (name === 'page' && page === undefined && value >= 1 && value <= 2_147_483_647) page = value;
      else if (name === 'limit' && limit === undefined && value >= 1 && value <= 100) limit = value;
      else return undefined;
    }
  }
  return { page: page ?? 1, limit: limit ?? 20 };
}

/**
 * The route of a request the floor answers. Everything else (other paths, other queries, If-Match,
 * If-None-Match, Idempotency-Key, other methods) is not part of the floor: a 501.
 */
export function routeOf(request: IncomingMessage): Route {
  const { method, url = '', headers } = request;
  if (url.startsWith('/v1/events/')) {
    const id = url.slice('/v1/events/'.length);
    if (id.includes('/') || id.includes('?') || id === '') return { pattern: 'unmatched' };
    if (method === 'GET' && headers['if-none-match'] === undefined)
      return { pattern: '/v1/events/:id', method, id };
    if (method === 'PATCH' && headers['if-match'] === undefined)
      return { pattern: '/v1/events/:id', method, id };
    return { pattern: 'unmatched' };
  }
  if (method === 'POST' && url === '/v1/events' && headers['idempotency-key'] === undefined)
    return { pattern: '/v1/events', method };
  if (method === 'GET' && (url === '/v1/events' || url.startsWith('/v1/events?'))) {
    const query = plainListQuery(url.slice('/v1/events?'.length));
    if (query) return { pattern: '/v1/events', method, ...query };
  }
  return { pattern: 'unmatched' };
}

export const NOT_IMPLEMENTED = new Refusal(
  501,
  'not_implemented',
  'The floor answers only the requests the benchmark sends.',
);

/**
 * Reads the whole body (at most 1 MiB) and calls back with its text, or with a 413 Refusal once it
 * is too large (the rest is read and dropped; the answer closes the connection).
 */
export function readBody(request: IncomingMessage, done: (error: Refusal | undefined, text: string) => void) {
  let chunks: Buffer[] | undefined = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    if (chunks === undefined) return;
    size += chunk.length;
    if (size <= BODY_LIMIT_BYTES) {
      chunks.push(chunk);
      return;
    }
    chunks = undefined;
    done(new Refusal(413, 'payload_too_large', 'The request body is larger than 1 MiB.'), '');
  });
  request.on('end', () => {
    if (chunks)
      done(undefined, chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString());
  });
}

/** What a write's Content-Type allows: JSON, or merge-patch on PATCH (D14). */
export function contentTypeRefusal(request: IncomingMessage, method: 'PATCH' | 'POST', text: string) {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (type === '' && text === '')
    return new Refusal(400, 'validation_failed', 'body: A JSON object body is required.', {
      errors: [{ field: 'body', code: 'invalid_type', message: 'A JSON object body is required.' }],
    });
  if (
    type.startsWith('application/json') ||
    (method === 'PATCH' && type.startsWith('application/merge-patch+json'))
  )
    return undefined;
  return new Refusal(
    415,
    'unsupported_media_type',
    'Send the body as application/json (or application/merge-patch+json on PATCH).',
  );
}
