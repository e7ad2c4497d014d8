/** Requests for proposals, proposals, awards and declines (D21, D23, D24): thin handlers over app/venue-requests. */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { apiKeyRequester } from '../../app/events.js';
import {
  addVenueRequest,
  awardVenueRequest,
  declineVenueRequest,
  getVenueRequest,
  listProposals,
  listVenueRequests,
  submitProposalFor,
  withdrawVenueRequest,
} from '../../app/venue-requests.js';
import { documentedBody } from '../openapi.js';
import { checkRequestShape, requireObjectBody } from '../request-shape.js';
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
  NewVenueRequest,
  SubmitProposalRequest,
  SubmitProposalRoute,
} from './venue-request-schemas.js';

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
