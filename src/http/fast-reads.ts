/**
 * The two reads integrators make most, answered before Fastify's per-request machinery: `GET
 * /v1/events/{id}` and `GET /v1/events` with at most `page` and `limit`. They take the same steps as
 * the routes, in the same order (request id, key check, rate limit, read, one access line, metrics),
 * through the same functions, and send the same status, headers and body.
 *
 * Only a request of the plainest shape with a 200 to send is answered here: any other header that
 * changes the answer (If-None-Match, a body, Expect), any other query, a refused key, a refused rate
 * limit, an unknown event, a failing store, or a server shutting down is handed to Fastify. A request
 * whose access was already checked is handed over with that result attached, so it is counted once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { getEventDocumentWithKey, listEvents } from '../app/events.js';
import type { EventPage } from '../ports/event-repository.js';
import { type Access, apiKeyOf, checkAccess, limitAccess } from './access.js';
import { type FastPathOptions, fastAnswers, type RequestListener } from './fast-answers.js';
import { DIGITS } from './query.js';
import { ListQuery } from './routes/event-schemas.js';
import { eventListBody, JSON_TYPE } from './routes/events.js';

const EVENT_PATH = '/v1/events/';
const LIST_PATH = '/v1/events';
/** The id's shape is checked again by the use case; this only keeps other paths out. */
const ID_LENGTH = 36;
/** The list route's own bounds and defaults, from its schema. */
const bounds = (schema: { minimum?: number; maximum?: number; default?: unknown }) => ({
  minimum: schema.minimum ?? 1,
  maximum: schema.maximum ?? Number.MAX_SAFE_INTEGER,
  default: schema.default as number,
});
const PAGE = bounds(ListQuery.properties.page);
const LIMIT = bounds(ListQuery.properties.limit);

interface ListPage {
  page: number;
  limit: number;
}

/**
 * `page` and `limit` from a query string holding nothing else, each at most once, in range and
 * written in plain digits; `undefined` for anything the list route would treat differently.
 */
export function plainListQuery(query: string): ListPage | undefined {
  let page: number | undefined;
  let limit: number | undefined;
  if (query !== '') {
    for (const pair of query.split('&')) {
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals);
      const raw = pair.slice(equals + 1);
      if (equals < 0 || !DIGITS.test(raw)) return undefined;
      const value = Number(raw);
      if (name === 'page' && page === undefined && value >= PAGE.minimum && value <= PAGE.maximum)
        page = value;
      else if (name === 'limit' && limit === undefined && value >= LIMIT.minimum && value <= LIMIT.maximum)
        limit = value;
      else return undefined;
    }
  }
  return { page: page ?? PAGE.default, limit: limit ?? LIMIT.default };
}

/** Wraps Fastify's request listener: the plain reads are answered here, everything else goes on to it. */
export function fastReads(options: FastPathOptions, fastify: RequestListener): RequestListener {
  const { deps } = options;
  const { answer: send, handOver, clientAddress } = fastAnswers(options, fastify);

  function plainShape(request: IncomingMessage): boolean {
    const headers = request.headers;
    return (
      request.method === 'GET' &&
      headers['if-none-match'] === undefined &&
      headers['content-length'] === undefined &&
      headers['transfer-encoding'] === undefined &&
      headers.expect === undefined &&
      !options.shuttingDown()
    );
  }

  function answer(
    request: IncomingMessage,
    response: ServerResponse,
    started: number,
    access: Access,
    route: string,
    body: string | Buffer,
    etag?: string,
  ) {
    const headers: Record<string, string> =
      etag === undefined ? { 'content-type': JSON_TYPE } : { 'content-type': JSON_TYPE, etag };
    send(request, response, started, access, { status: 200, route, headers, body });
  }

  /** The key and the event come from one store read; the request is counted once the key is known. */
  async function serveEvent(request: IncomingMessage, response: ServerResponse, started: number, id: string) {
    let access: Access | undefined;
    let document: { body: Buffer; etag: string } | undefined;
    try {
      const read = await getEventDocumentWithKey(deps, options.authenticate, apiKeyOf(request), id);
      access = await limitAccess(options.limiter, { principal: read.principal }, clientAddress(request));
      document = read.document;
    } catch {
      return handOver(request, response, access);
    }
    if (!access.decision.allowed || document === undefined) return handOver(request, response, access);
    answer(request, response, started, access, '/v1/events/:id', document.body, document.etag);
  }

  async function serveList(
    request: IncomingMessage,
    response: ServerResponse,
    started: number,
    list: ListPage,
  ) {
    let access: Access | undefined;
    let page: EventPage;
    try {
      access = await checkAccess(
        options.authenticate,
        options.limiter,
        apiKeyOf(request),
        clientAddress(request),
      );
      if (access.principal === undefined || !access.decision.allowed)
        return handOver(request, response, access);
      page = await listEvents(deps, access.principal, list);
    } catch {
      return handOver(request, response, access);
    }
    answer(request, response, started, access, '/v1/events', eventListBody(page, list.page, list.limit));
  }

  return function listener(request, response) {
    const url = request.url ?? '';
    if (!url.startsWith(LIST_PATH) || !plainShape(request)) return fastify(request, response);
    const started = performance.now();
    if (url.length === EVENT_PATH.length + ID_LENGTH && url.startsWith(EVENT_PATH)) {
      void serveEvent(request, response, started, url.slice(EVENT_PATH.length));
      return;
    }
    const list =
      url === LIST_PATH
        ? plainListQuery('')
        : url[LIST_PATH.length] === '?'
          ? plainListQuery(url.slice(LIST_PATH.length + 1))
          : undefined;
    if (list === undefined) return fastify(request, response);
    void serveList(request, response, started, list);
  };
}
