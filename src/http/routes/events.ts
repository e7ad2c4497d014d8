import type { Static, TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { ifNoneMatchHits } from '../../app/etag.js';
import { eventIdProblems } from '../../app/event-ids.js';
import { createEvent, getEventDocument, listEvents, updateEvent } from '../../app/events.js';
import { createEventIdempotently } from '../../app/idempotent-create.js';
import { ValidationError } from '../../domain/errors.js';
import { hasEventFilter, readEventFilter } from '../../domain/event-filter.js';
import { isPlainObject } from '../../domain/values.js';
import type { EventPage } from '../../ports/event-repository.js';
import { documentedBody } from '../openapi.js';
import { queryProblems, strictQuery } from '../query.js';
import {
  CreateEventRequest,
  CreateEventRoute,
  type EventIdParams,
  GetEventRoute,
  ListEventsRoute,
  type ListQuery,
  UpdateEventRequest,
  UpdateEventRoute,
} from '../schemas.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A page of the event list as sent: the stored summaries joined, without parsing them. */
export const eventListBody = (result: EventPage, page: number, limit: number): string =>
  `{"data":[${result.items.join(',')}],"page":${page},"limit":${limit},"total":${result.total}}`;

/**
 * The id and the query string are the request's shape: both are checked before the body is read (D5: id
 * format comes before body problems), and their problems are reported together in one 400.
 */
function checkIdAndQuery(query: TObject) {
  // Callback style, not async: no promise per request (a throw still becomes the error response).
  return function checkRequestShape(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    const idProblems = eventIdProblems((request.params as { id: string }).id);
    const problems = queryProblems(query, request);
    if (idProblems.length > 0 || problems.length > 0) throw new ValidationError([...idProblems, ...problems]);
    done();
  };
}

/** The body must be a JSON object before the event is even looked up (D5). */
function requireObjectBody(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
  if (!isPlainObject(request.body)) {
    const message =
      request.body === undefined
        ? 'A JSON object body is required.'
        : 'The request body must be a JSON object.';
    throw new ValidationError([{ field: 'body', code: 'invalid_type', message }]);
  }
  done();
}

/** `page` and `limit` as numbers, `status` of known statuses, `updatedAfter` in RFC 3339: one 400 for all. */
async function checkListQuery(request: FastifyRequest) {
  const problems = [
    ...queryProblems(ListEventsRoute.querystring, request),
    ...readEventFilter(request.query as Record<string, unknown>).problems,
  ];
  if (problems.length > 0) throw new ValidationError(problems);
}

function sendDocument(reply: FastifyReply, body: string | Buffer, etag: string) {
  return reply.type(JSON_TYPE).header('etag', etag).send(body);
}

export function eventRoutes(deps: AppDeps) {
  return async function register(app: FastifyInstance) {
    // Response schemas document the API; bodies are sent as prepared JSON text or plain objects, and the
    // HTTP tests check every response against the document instead of a serializer filtering them.
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));

    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/events',
      { schema: ListEventsRoute, onRequest: checkListQuery },
      async (request, reply) => {
        const { page, limit } = request.query;
        const query = request.query as Record<string, unknown>;
        const filter = hasEventFilter(query) ? readEventFilter(query).filter : undefined;
        const result = await listEvents(deps, request.principal, {
          page,
          limit,
          ...(filter ? { filter } : {}),
        });
        return reply.type(JSON_TYPE).send(eventListBody(result, page, limit));
      },
    );

    app.post(
      '/events',
      {
        schema: CreateEventRoute,
        config: documentedBody(CreateEventRequest),
        // The query, like the id of the other routes, is checked before anything about the body.
        onRequest: [strictQuery(CreateEventRoute.querystring), rejectMergePatch],
        preValidation: requireObjectBody,
      },
      async (request, reply) => {
        // The header's format was checked by the route schema (1-255 printable ASCII characters).
        const key = request.headers['idempotency-key'] as string | undefined;
        const created =
          key === undefined
            ? await createEvent(deps, request.principal, request.body)
            : await createEventIdempotently(deps, request.principal, request.body, key);
        if ('replayed' in created && created.replayed) reply.header('idempotent-replayed', 'true');
        return reply
          .code(201)
          .header('location', `/v1/events/${created.id}`)
          .send({ id: created.id, grantedTo: created.grantedTo });
      },
    );

    app.get<{ Params: Static<typeof EventIdParams> }>(
      '/events/:id',
      { schema: GetEventRoute, onRequest: checkIdAndQuery(GetEventRoute.querystring) },
      async (request, reply) => {
        const document = await getEventDocument(deps, request.principal, request.params.id);
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined && ifNoneMatchHits(ifNoneMatch, document.etag)) {
          return reply.code(304).header('etag', document.etag).send();
        }
        return sendDocument(reply, document.body, document.etag);
      },
    );

    app.patch<{ Params: Static<typeof EventIdParams> }>(
      '/events/:id',
      {
        schema: UpdateEventRoute,
        config: documentedBody(UpdateEventRequest),
        onRequest: checkIdAndQuery(UpdateEventRoute.querystring),
        preValidation: requireObjectBody,
      },
      async (request, reply) => {
        const { id } = request.params;
        const ifMatch = request.headers['if-match'];
        const { document } = await updateEvent(deps, request.principal, id, request.body, ifMatch);
        return sendDocument(reply, document.text, document.etag);
      },
    );
  };
}

function rejectMergePatch(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
  if ((request.headers['content-type'] ?? '').toLowerCase().startsWith('application/merge-patch+json')) {
    const error = Object.assign(new Error('merge-patch is for PATCH'), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    });
    throw error;
  }
  done();
}
