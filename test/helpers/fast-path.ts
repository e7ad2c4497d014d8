/**
 * Two apps over one store, listening: one with the fast paths (src/http/fast-reads.ts,
 * fast-writes.ts) and one without, so tests can send both the same raw request and compare the
 * answers, access lines and metrics; the routes' own hook shows which requests reached Fastify.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import type { TrustProxy } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { loggerOptions } from '../../src/http/logging.js';
import { createReadiness } from '../../src/http/routes/ops.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import type { TestApp } from './test-app.js';

export interface RawResponse {
  status: number;
  /** Header names and values in the order the server wrote them. */
  headers: [string, string][];
  body: Buffer;
}

/** Sends one request on a connection of its own; `body` is sent as it is, with its length. */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  // A body is sent with its length, unless the headers ask for chunks.
  const allHeaders =
    body === undefined || headers['transfer-encoding'] !== undefined
      ? headers
      : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: '127.0.0.1', port, path, method, headers: allHeaders, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const pairs: [string, string][] = [];
          for (let index = 0; index < response.rawHeaders.length; index += 2) {
            pairs.push([response.rawHeaders[index]!.toLowerCase(), response.rawHeaders[index + 1]!]);
          }
          resolve({ status: response.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Headers that differ between any two responses: the date, the request id and the limit's countdown. */
export const VARYING = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);
export const stable = (response: RawResponse) => response.headers.filter(([name]) => !VARYING.has(name));
export const headerNames = (response: RawResponse) => response.headers.map(([name]) => name);
export const header = (response: RawResponse, name: string) =>
  response.headers.find(([key]) => key === name)?.[1];

export function captureLines() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

export interface Listening {
  app: FastifyInstance;
  port: number;
  /** Requests Fastify answered (its onResponse hook ran): the ones the fast reads left to the routes. */
  routed: string[];
  logs: ReturnType<typeof captureLines>;
  limiter: RateLimiter;
  readiness: ReturnType<typeof createReadiness>;
}

export async function listen(
  t: TestApp,
  fastReads: boolean,
  rateLimitPerMinute = 1_000_000,
  trustProxy: TrustProxy = false,
  /** Called as the webhook dispatcher's wake-up after each committed write. */
  changeCommitted?: () => void,
): Promise<Listening> {
  const logs = captureLines();
  const limiter = createMemoryRateLimiter({ limit: rateLimitPerMinute });
  const readiness = createReadiness();
  const app = await buildApp({
    deps: t.deps,
    rateLimiter: limiter,
    readiness,
    fastReads,
    trustProxy,
    logger: loggerOptions({ level: 'info', stream: logs.stream }),
    ...(changeCommitted ? { webhooks: { urlProblem: () => undefined, changeCommitted } } : {}),
  });
  const routed: string[] = [];
  app.addHook('onResponse', (request, _reply, done) => {
    routed.push(`${request.method} ${request.url}`);
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port, routed, logs, limiter, readiness };
}
