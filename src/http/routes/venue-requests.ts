/** Requests for proposals, proposals, awards and declines (D21, D23, D24): thin handlers over app/venue-requests. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { eventIdProblems } from '../../app/event-ids.js';
import { apiKeyRequester } from '../../app/events.js';
import { answerVenueQuestion, listQuestions } from '../../app/questions.js';
import {
  getRequestVersion,
  listRequestVersions,
  requestRevision,
  sendRequestVersion,
} from '../../app/request-versions.js';
import {
  addVenueRequest,
  awardVenueRequest,
  declineVenueRequest,
  getVenueRequest,
  listProposals,
  listVenueRequests,
  moveReplyDate,
  submitProposalFor,
  withdrawVenueRequest,
} from '../../app/venue-requests.js';
import { ValidationError } from '../../domain/errors.js';
import { documentedBody } from '../openapi.js';
import { queryProblems } from '../query.js';
import { checkRequestShape, requireObjectBody } from '../request-shape.js';
import { AnswerQuestion, AnswerQuestionRoute, ListQuestionsRoute } from './question-schemas.js';
import {
  GetRequestVersionRoute,
  ListRequestVersionsRoute,
  SendRequestVersion,
  SendRequestVersionRoute,
} from './request-version-schemas.js';
import {
  AwardVenueRequest,
  AwardVenueRequestRoute,
  CreateVenueRequestRoute,
  DeclineVenueRequest,
  DeclineVenueRequestRoute,
  DeleteVenueRequestRoute,
  GetVenueRequestRoute,
  ListProposalsRoute,
  ListVenueRequestsRoute,
  MoveReplyDate,
  MoveReplyDateRoute,
  NewVenueRequest,
  RequestRevision,
  RequestRevisionRoute,
  SubmitProposalRequest,
  SubmitProposalRoute,
} from './venue-request-schemas.js';

const VERSION_NUMBER = /^[1-9][0-9]{0,9}$/;

/** A version's number from its path: plain digits from 1, else a 400 naming `version` (with the id's problems). */
function checkVersionPath(request: FastifyRequest) {
  const { id, version } = request.params as { id: string; version: string };
  const number = VERSION_NUMBER.test(version) ? Number(version) : Number.NaN;
  const problems = [
    ...eventIdProblems(id),
    ...(number >= 1 && number <= 2_147_483_647
      ? []
      : [{ field: 'version', code: 'invalid_format', message: 'must be a whole number from 1, in digits' }]),
    ...queryProblems(GetRequestVersionRoute.querystring, request),
  ];
  if (problems.length > 0) throw new ValidationError(problems);
}

type Params = { id: string; requestId: string };

export function venueRequestRoutes(deps: AppDeps) {
  return async function register(app: FastifyInstance) {
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    const base = '/events/:id/venue-requests';
    const one = `${base}/:requestId`;

    app.post<{ Params: Params }>(
      base,
      {
        schema: CreateVenueRequestRoute,
        config: documentedBody(NewVenueRequest),
        onRequest: checkRequestShape(CreateVenueRequestRoute),
        preValidation: requireObjectBody(),
      },
      async (request, reply) => {
        const created = await addVenueRequest(
          deps,
          apiKeyRequester(request.principal),
          request.params.id,
          request.body,
        );
        return reply
          .code(201)
          .header('location', `/v1/events/${created.eventId}/venue-requests/${created.id}`)
          .send(created);
      },
    );
    app.get<{ Params: Params }>(
      base,
      { schema: ListVenueRequestsRoute, onRequest: checkRequestShape(ListVenueRequestsRoute) },
      async (request) => listVenueRequests(deps, apiKeyRequester(request.principal), request.params.id),
    );
    app.get<{ Params: Params }>(
      one,
      { schema: GetVenueRequestRoute, onRequest: checkRequestShape(GetVenueRequestRoute) },
      async (request) =>
        getVenueRequest(
          deps,
          apiKeyRequester(request.principal),
          request.params.id,
          request.params.requestId,
        ),
    );
    app.patch<{ Params: Params }>(
      one,
      {
        schema: MoveReplyDateRoute,
        config: documentedBody(MoveReplyDate),
        onRequest: checkRequestShape(MoveReplyDateRoute),
        preValidation: requireObjectBody(),
      },
      async (request) => {
        const { id, requestId } = request.params;
        return moveReplyDate(deps, apiKeyRequester(request.principal), id, requestId, request.body);
      },
    );
    app.delete<{ Params: Params }>(
      one,
      { schema: DeleteVenueRequestRoute, onRequest: checkRequestShape(DeleteVenueRequestRoute) },
      async (request, reply) => {
        const { id, requestId } = request.params;
        const outcome = await withdrawVenueRequest(deps, apiKeyRequester(request.principal), id, requestId);
        return outcome.removed ? reply.code(204).send() : reply.send(outcome.request);
      },
    );
    app.post<{ Params: Params }>(
      `${one}/proposals`,
      {
        schema: SubmitProposalRoute,
        config: documentedBody(SubmitProposalRequest),
        onRequest: checkRequestShape(SubmitProposalRoute),
        preValidation: requireObjectBody(),
      },
      async (request, reply) => {
        const { id, requestId } = request.params;
        const proposal = await submitProposalFor(
          deps,
          apiKeyRequester(request.principal),
          id,
          requestId,
          request.body,
        );
        return reply.code(201).send(proposal);
      },
    );
    app.get<{ Params: Params }>(
      `${one}/proposals`,
      { schema: ListProposalsRoute, onRequest: checkRequestShape(ListProposalsRoute) },
      async (request) =>
        listProposals(deps, apiKeyRequester(request.principal), request.params.id, request.params.requestId),
    );
    app.get<{ Params: Params }>(
      '/events/:id/request-versions',
      { schema: ListRequestVersionsRoute, onRequest: checkRequestShape(ListRequestVersionsRoute) },
      async (request) => listRequestVersions(deps, apiKeyRequester(request.principal), request.params.id),
    );
    app.get<{ Params: { id: string; version: string } }>(
      '/events/:id/request-versions/:version',
      { schema: GetRequestVersionRoute, onRequest: async (request) => checkVersionPath(request) },
      async (request) =>
        getRequestVersion(
          deps,
          apiKeyRequester(request.principal),
          request.params.id,
          Number(request.params.version),
        ),
    );
    app.post<{ Params: Params }>(
      '/events/:id/request-versions',
      {
        schema: SendRequestVersionRoute,
        config: documentedBody(SendRequestVersion, { optional: true }),
        onRequest: checkRequestShape(SendRequestVersionRoute),
        preValidation: requireObjectBody({ optional: true }),
      },
      async (request, reply) => {
        const version = await sendRequestVersion(
          deps,
          apiKeyRequester(request.principal),
          request.params.id,
          request.body,
        );
        return reply
          .code(201)
          .header('location', `/v1/events/${request.params.id}/request-versions/${version.version}`)
          .send(version);
      },
    );
    app.get<{ Params: Params }>(
      '/events/:id/questions',
      { schema: ListQuestionsRoute, onRequest: checkRequestShape(ListQuestionsRoute) },
      async (request) => listQuestions(deps, apiKeyRequester(request.principal), request.params.id),
    );
    app.post<{ Params: { id: string; questionId: string } }>(
      '/events/:id/questions/:questionId/answer',
      {
        schema: AnswerQuestionRoute,
        config: documentedBody(AnswerQuestion),
        onRequest: checkRequestShape(AnswerQuestionRoute),
        preValidation: requireObjectBody(),
      },
      async (request) => {
        const { id, questionId } = request.params;
        return answerVenueQuestion(deps, apiKeyRequester(request.principal), id, questionId, request.body);
      },
    );
    app.post<{ Params: Params }>(
      `${one}/award`,
      {
        schema: AwardVenueRequestRoute,
        config: documentedBody(AwardVenueRequest, { optional: true }),
        onRequest: checkRequestShape(AwardVenueRequestRoute),
        preValidation: requireObjectBody({ optional: true }),
      },
      async (request) => {
        const { id, requestId } = request.params;
        return awardVenueRequest(deps, apiKeyRequester(request.principal), id, requestId, request.body);
      },
    );
    app.post<{ Params: Params }>(
      `${one}/revision-request`,
      {
        schema: RequestRevisionRoute,
        config: documentedBody(RequestRevision, { optional: true }),
        onRequest: checkRequestShape(RequestRevisionRoute),
        preValidation: requireObjectBody({ optional: true }),
      },
      async (request) => {
        const { id, requestId } = request.params;
        return requestRevision(deps, apiKeyRequester(request.principal), id, requestId, request.body);
      },
    );
    app.post<{ Params: Params }>(
      `${one}/decline`,
      {
        schema: DeclineVenueRequestRoute,
        config: documentedBody(DeclineVenueRequest),
        onRequest: checkRequestShape(DeclineVenueRequestRoute),
        preValidation: requireObjectBody(),
      },
      async (request) => {
        const { id, requestId } = request.params;
        return declineVenueRequest(deps, apiKeyRequester(request.principal), id, requestId, request.body);
      },
    );
  };
}
