/** Reading the change log (D17): an event's revisions, one revision, and the organization's feed. */
import type { Static, TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  feedCursorProblems,
  getRevisionDocument,
  listRevisions,
  readChanges,
  revisionsCursorProblems,
} from '../../app/change-feed.js';
import type { AppDeps } from '../../app/deps.js';
import { eventIdProblems } from '../../app/event-ids.js';
import { type Problem, ValidationError } from '../../domain/errors.js';
import { queryProblems } from '../query.js';
import {
  ChangesQuery,
  type EventIdParams,
  GetRevisionRoute,
  ListChangesRoute,
  ListRevisionsRoute,
  type RevisionParams,
  RevisionsQuery,
} from '../schemas.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const REVISION = /^[0-9]{1,10}$/;

function revisionProblems(raw: string): Problem[] {
  const value = REVISION.test(raw) ? Number(raw) : Number.NaN;
  if (value >= 1 && value <= 2_147_483_647) return [];
  return [{ field: 'revision', code: 'invalid_format', message: 'must be a whole number from 1, in digits' }];
}

function reject(problems: Problem[]) {
  if (problems.length > 0) throw new ValidationError(problems);
}

/** The `Link` header of a page that has a next one (RFC 8288), relative to this server. */
function linkNext(
  reply: FastifyReply,
  path: string,
  page: { hasMore: boolean; nextCursor: string | null },
  limit: number,
) {
  if (page.hasMore && page.nextCursor !== null) {
    reply.header('link', `<${path}?after=${encodeURIComponent(page.nextCursor)}&limit=${limit}>; rel="next"`);
  }
}

export function changeRoutes(deps: AppDeps) {
  return async function register(app: FastifyInstance) {
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));

    // The cursor is part of the query's shape: checked with the other parameters, reported in one 400.
    app.get<{ Querystring: Static<typeof ChangesQuery> }>(
      '/changes',
      {
        schema: ListChangesRoute,
        onRequest: async (request: FastifyRequest) => {
          const query = request.query as Record<string, unknown>;
          reject([
            ...queryProblems(ChangesQuery, request),
            ...(await feedCursorProblems(deps, request.principal, query.after)),
          ]);
        },
      },
      async (request, reply) => {
        const { after, limit } = request.query;
        const page = await readChanges(deps, request.principal, {
          ...(after === undefined ? {} : { after }),
          limit,
        });
        linkNext(reply, '/v1/changes', page, limit);
        return reply.type(JSON_TYPE).send(page);
      },
    );

    app.get<{ Params: Static<typeof EventIdParams>; Querystring: Static<typeof RevisionsQuery> }>(
      '/events/:id/revisions',
      {
        schema: ListRevisionsRoute,
        onRequest: async (request: FastifyRequest) => {
          const { id } = request.params as { id: string };
          const query = request.query as Record<string, unknown>;
          const idProblems = eventIdProblems(id);
          reject([
            ...idProblems,
            ...queryProblems(RevisionsQuery as TObject, request),
            ...(idProblems.length === 0
              ? await revisionsCursorProblems(deps, request.principal, id, query.after)
              : []),
          ]);
        },
      },
      async (request, reply) => {
        const { after, limit } = request.query;
        const page = await listRevisions(deps, request.principal, request.params.id, {
          ...(after === undefined ? {} : { after }),
          limit,
        });
        linkNext(reply, `/v1/events/${request.params.id.toLowerCase()}/revisions`, page, limit);
        return reply.type(JSON_TYPE).send(page);
      },
    );

    app.get<{ Params: Static<typeof RevisionParams> }>(
      '/events/:id/revisions/:revision',
      {
        schema: GetRevisionRoute,
        onRequest: async (request: FastifyRequest) => {
          const { id, revision } = request.params as { id: string; revision: string };
          reject([
            ...eventIdProblems(id),
            ...revisionProblems(revision),
            ...queryProblems(GetRevisionRoute.querystring, request),
          ]);
        },
      },
      async (request, reply) => {
        const { id, revision } = request.params;
        const document = await getRevisionDocument(deps, request.principal, id, Number(revision));
        return reply.type(JSON_TYPE).send(document);
      },
    );
  };
}
