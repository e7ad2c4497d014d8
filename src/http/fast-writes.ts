/**
 * The two writes integrators make most, answered before Fastify's per-request machinery: `POST
 * /v1/events` and `PATCH /v1/events/{id}` with a JSON body. They take the same steps as the routes,
 * in the same order (key check, rate limit, body, the use case, one access line, metrics, the webhook
 * dispatcher's wake-up), through the same functions, and send the same status, headers and body.
 *
 * Only a request of the plainest shape that succeeds is answered here: a body of a declared length
 * under the limit, `application/json` (or merge-patch on PATCH), no query, no `Idempotency-Key`, no
 * `If-Match`. Anything else, and every refusal (a key, the rate limit, a body that is not a JSON
 * object, any problem the use case finds, a failing store), is handed to Fastify, with the access
 * check already made and the body already read replayed to it (fast-answers.ts), so the one error
 * handler answers. Every refusal of a write comes before its first statement, so a handed-over
 * request has written nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Principal } from '../app/deps.js';
import { createEvent, updateEvent } from '../app/events.js';
import { isPlainObject } from '../domain/values.js';
import { type Access, apiKeyOf, checkAccess } from './access.js';
import { type FastAnswer, type FastPathOptions, fastAnswers, type RequestListener } from './fast-answers.js';
import { BODY_LIMIT_BYTES, parseJsonBody } from './json-body.js';
import { JSON_TYPE } from './routes/events.js';

const LIST_PATH = '/v1/events';
const EVENT_PATH = '/v1/events/';
/** The id's shape is checked again by the use case; this only keeps other paths out. */
const ID_LENGTH = 36;
const DIGITS = /^[0-9]+$/;
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
const PATCH_TYPES = new Set([
  ...JSON_TYPES,
  'application/merge-patch+json',
  'application/merge-patch+json; charset=utf-8',
]);

/** Reads a body of `length` bytes; calls back with it once complete, never when the client went away. */
function readBody(request: IncomingMessage, length: number, complete: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  let received = 0;
  request.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  });
  request.on('end', () => {
    // Node's parser delivers exactly the declared length, or no `end` at all.
    if (received === length) complete(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
  });
}

/** Wraps a request listener: the plain writes are answered here, everything else goes on to it. */
export function fastWrites(options: FastPathOptions, next: RequestListener): RequestListener {
  const { deps } = options;
  const { answer, handOver, clientAddress } = fastAnswers(options, next);

  /** The body's length when the request has the plainest shape of a write with `types` of body. */
  function plainLength(request: IncomingMessage, types: Set<string>): number | undefined {
    const headers = request.headers;
    const declared = headers['content-length'];
    const type = headers['content-type'];
    if (
      declared === undefined ||
      type === undefined ||
      !types.has(type.toLowerCase()) ||
      headers['transfer-encoding'] !== undefined ||
      headers.expect !== undefined ||
      headers['idempotency-key'] !== undefined ||
      headers['if-match'] !== undefined ||
      headers['if-none-match'] !== undefined ||
      !DIGITS.test(declared) ||
      options.shuttingDown()
    )
      return undefined;
    const length = Number(declared);
    return length > 0 && length <= BODY_LIMIT_BYTES ? length : undefined;
  }

  /**
   * Checks access, reads and parses the body, then runs `write`; a success is answered, anything
   * else handed over. `write` resolves only once the change is durable.
   */
  async function serveWrite(
    request: IncomingMessage,
    response: ServerResponse,
    length: number,
    write: (access: Access & { principal: Principal }, body: Record<string, unknown>) => Promise<FastAnswer>,
  ) {
    const started = performance.now();
    let access: Access;
    try {
      access = await checkAccess(
        options.authenticate,
        options.limiter,
        apiKeyOf(request),
        clientAddress(request),
      );
    } catch {
      return handOver(request, response, undefined);
    }
    if (access.principal === undefined || !access.decision.allowed)
      return handOver(request, response, access);
    const checked = access as Access & { principal: Principal };
    readBody(request, length, (raw) => {
      // No function waits for the write holding the parsed body: it may go once the write has made its rows.
      let writing: Promise<FastAnswer>;
      try {
        const body = parseJsonBody(raw.toString('utf8'));
        if (!isPlainObject(body)) {
          handOver(request, response, checked, raw);
          return;
        }
        writing = write(checked, body);
      } catch {
        handOver(request, response, checked, raw);
        return;
      }
      writing.then(
        (answered) => {
          answer(request, response, started, checked, answered);
          options.changeCommitted?.();
        },
        () => handOver(request, response, checked, raw),
      );
    });
  }

  return function listener(request, response) {
    const url = request.url ?? '';
    if (request.method === 'POST' && url === LIST_PATH) {
      const length = plainLength(request, JSON_TYPES);
      if (length === undefined) return next(request, response);
      void serveWrite(request, response, length, ({ principal }, body) =>
        createEvent(deps, principal, body).then((created) => ({
          status: 201,
          route: LIST_PATH,
          headers: { location: `${EVENT_PATH}${created.id}`, 'content-type': JSON_TYPE },
          body: JSON.stringify({ id: created.id, grantedTo: created.grantedTo }),
        })),
      );
      return;
    }
    if (
      request.method === 'PATCH' &&
      url.length === EVENT_PATH.length + ID_LENGTH &&
      url.startsWith(EVENT_PATH)
    ) {
      const length = plainLength(request, PATCH_TYPES);
      if (length === undefined) return next(request, response);
      const id = url.slice(EVENT_PATH.length);
      void serveWrite(request, response, length, async ({ principal }, body) => {
        const { document } = await updateEvent(deps, principal, id, body);
        return {
          status: 200,
          route: `${EVENT_PATH}:id`,
          headers: { 'content-type': JSON_TYPE, etag: document.etag },
          body: document.text,
        };
      });
      return;
    }
    next(request, response);
  };
}
