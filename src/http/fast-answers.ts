/**
 * What the fast reads and the fast writes share (fast-reads.ts, fast-writes.ts): both answer a
 * request of the plainest shape before Fastify's request handling, with the same status, headers,
 * body, access line and metrics as the routes, and hand anything else to Fastify.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PassThrough, type Readable } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Authenticate } from '../app/api-keys.js';
import type { AppDeps } from '../app/deps.js';
import type { TrustProxy } from '../config.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import { type Access, attachAccess, setRateLimitHeaders } from './access.js';
import type { RecordRequest } from './metrics.js';
import { requestIdFrom } from './request-id.js';

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

export interface FastPathOptions {
  deps: AppDeps;
  authenticate: Authenticate;
  limiter: RateLimiter;
  log: FastifyBaseLogger;
  recordRequest: RecordRequest;
  trustProxy: TrustProxy;
  /** True once the server is shutting down: every response must then close its connection (ops.ts). */
  shuttingDown: () => boolean;
  /** Called after an event was created or changed (the webhook dispatcher's wake-up), as the routes do. */
  changeCommitted?: () => void;
}

/** pino's number for `info`, the access line's level (logging.ts). */
const INFO_LEVEL = 30;

/** Fastify's own reading of the client address (`request.ip`), for the same trust settings. */
export function clientAddressReader(trust: TrustProxy): (request: IncomingMessage) => string | undefined {
  if (trust === false) return (request) => request.socket.remoteAddress;
  const trusted =
    typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : proxyAddr.compile(trust);
  return (request) => {
    const addresses = proxyAddr.all(request, trusted);
    return addresses[addresses.length - 1];
  };
}

interface AccessLine {
  requestId: string;
  method: string;
  path: string;
  remoteAddress: string | undefined;
  status: number;
  responseTime: number;
}

/**
 * Writes the access line of an answered request straight to the app logger's destination, from the
 * logger's own level prefix, timestamp and bindings: byte for byte the line the routes' logger writes
 * for the same values (`test/http/fast-reads.test.ts` compares them), without pino walking an object
 * through its serializers and redaction for every request. Undefined when the app does not log
 * access lines.
 */
function accessLineWriter(log: FastifyBaseLogger): ((line: AccessLine) => void) | undefined {
  const logger = log as unknown as Record<symbol, unknown>;
  const stream = logger[pino.symbols.streamSym] as DestinationStream | undefined;
  const time = logger[pino.symbols.timeSym] as (() => string) | undefined;
  const bindings = logger[pino.symbols.chindingsSym] as string | undefined;
  const prefix = (logger[pino.symbols.lsCacheSym] as Record<number, string> | undefined)?.[INFO_LEVEL];
  if (
    !stream ||
    !time ||
    bindings === undefined ||
    !prefix ||
    !(log as unknown as Logger).isLevelEnabled('info')
  )
    return undefined;
  return ({ requestId, method, path, remoteAddress, status, responseTime }) => {
    stream.write(
      `${prefix}${time()}${bindings},"reqId":${JSON.stringify(requestId)},"req":{"method":"${method}","path":${JSON.stringify(path)}${
        remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(remoteAddress)}`
      }},"res":{"statusCode":${status}},"responseTime":${responseTime},"msg":"request completed"}\n`,
    );
  };
}

/** A successful answer: its status, the route pattern it is counted under, its own headers and body. */
export interface FastAnswer {
  status: number;
  route: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

const REPLAYED_BODY = Symbol('eventplan.replayedBody');

/**
 * The answers of the fast paths, and their hand-over to Fastify: `answer` sends a success and then
 * writes the access line and the metrics, as Fastify's onResponse would; `handOver` passes a request
 * on with its access check (so it is counted once) and, when the fast path already read it, its body
 * (replayed by `replayBody`, below).
 */
export function fastAnswers(options: FastPathOptions, fastify: RequestListener) {
  const writeAccessLine = accessLineWriter(options.log);
  const clientAddress = clientAddressReader(options.trustProxy);

  /** Outside the fast paths' try blocks: once the response has begun, nothing may hand it to Fastify. */
  function answer(
    request: IncomingMessage,
    response: ServerResponse,
    started: number,
    access: Access,
    { status, route, headers, body }: FastAnswer,
  ) {
    const id = requestIdFrom(request);
    // Set one by one, in the order Fastify sends them: no copies of the header objects.
    const sent = setRateLimitHeaders({ 'x-request-id': id }, access.decision);
    for (const name in headers) sent[name] = headers[name]!;
    sent['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    response.writeHead(status, sent);
    response.end(body);
    const elapsedMs = performance.now() - started;
    const method = request.method ?? '';
    // The path without its query string, like every access line (logging.ts).
    writeAccessLine?.({
      requestId: id,
      method,
      path: request.url?.split('?')[0] ?? '',
      remoteAddress: clientAddress(request),
      status,
      responseTime: elapsedMs,
    });
    options.recordRequest(method, route, status, elapsedMs / 1000);
  }

  /** Refused, not found, or the store failed: Fastify answers with the problem, as for any request. */
  function handOver(
    request: IncomingMessage,
    response: ServerResponse,
    access: Access | undefined,
    body?: Buffer,
  ) {
    if (access) attachAccess(request, access);
    if (body) (request as IncomingMessage & { [REPLAYED_BODY]?: Buffer })[REPLAYED_BODY] = body;
    fastify(request, response);
  }

  return { answer, handOver, clientAddress };
}

/**
 * A preParsing hook: a request handed over after the fast writes read its body gets that body back
 * as its payload, byte for byte, so Fastify parses and checks it as if it came from the socket.
 */
export function replayBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Readable,
  done: (error: Error | null, payload?: Readable) => void,
) {
  const body = (request.raw as IncomingMessage & { [REPLAYED_BODY]?: Buffer })[REPLAYED_BODY];
  if (body === undefined) return done(null, payload);
  const replay = new PassThrough();
  replay.end(body);
  done(null, replay);
}
