/** The webhook endpoint API (D18): thin handlers over the use cases of app/webhook-endpoints. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  idProblems,
  listDeliveries,
  listEndpoints,
  retryDelivery,
  rotateSecret,
  sendTest,
  updateEndpoint,
  type WebhookDeps,
} from '../../app/webhook-endpoints.js';
import { ValidationError } from '../../domain/errors.js';
import { documentedBody } from '../openapi.js';
import { queryProblems } from '../query.js';
import {
  CreateWebhookEndpointRequest,
  CreateWebhookEndpointRoute,
  DeleteWebhookEndpointRoute,
  EndpointActionRequest,
  GetWebhookEndpointRoute,
  ListWebhookDeliveriesRoute,
  ListWebhookEndpointsRoute,
  RetryWebhookDeliveryRoute,
  RotateWebhookSecretRoute,
  TestWebhookEndpointRoute,
  UpdateWebhookEndpointRequest,
  UpdateWebhookEndpointRoute,
} from './webhook-schemas.js';

type Params = { id: string; deliveryId?: string };

/** Ids and the query string are checked together, before anything is read (one 400 naming each). */
function checkRequestShape(route: { querystring: Parameters<typeof queryProblems>[0] }) {
  return async function check(request: FastifyRequest) {
    const params = request.params as Record<string, string>;
    const problems = [...idProblems(params), ...queryProblems(route.querystring, request)];
    if (problems.length > 0) throw new ValidationError(problems);
  };
}

export function webhookRoutes(deps: WebhookDeps) {
  return async function register(app: FastifyInstance) {
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    const base = '/webhook-endpoints';

    app.post(
      base,
      {
        schema: CreateWebhookEndpointRoute,
        config: documentedBody(CreateWebhookEndpointRequest),
        onRequest: checkRequestShape(CreateWebhookEndpointRoute),
      },
      async (request, reply) =>
        reply.code(201).send(await createEndpoint(deps, request.principal, request.body)),
    );
    app.get(
      base,
      { schema: ListWebhookEndpointsRoute, onRequest: checkRequestShape(ListWebhookEndpointsRoute) },
      async (request) => ({
        data: await listEndpoints(deps, request.principal),
      }),
    );
    app.get<{ Params: Params }>(
      `${base}/:id`,
      { schema: GetWebhookEndpointRoute, onRequest: checkRequestShape(GetWebhookEndpointRoute) },
      async (request) => getEndpoint(deps, request.principal, request.params.id),
    );
    app.patch<{ Params: Params }>(
      `${base}/:id`,
      {
        schema: UpdateWebhookEndpointRoute,
        config: documentedBody(UpdateWebhookEndpointRequest),
        onRequest: checkRequestShape(UpdateWebhookEndpointRoute),
      },
      async (request) => updateEndpoint(deps, request.principal, request.params.id, request.body),
    );
    app.delete<{ Params: Params }>(
      `${base}/:id`,
      { schema: DeleteWebhookEndpointRoute, onRequest: checkRequestShape(DeleteWebhookEndpointRoute) },
      async (request, reply) => {
        await deleteEndpoint(deps, request.principal, request.params.id);
        return reply.code(204).send();
      },
    );
    app.post<{ Params: Params }>(
      `${base}/:id/rotate-secret`,
      {
        schema: RotateWebhookSecretRoute,
        config: documentedBody(EndpointActionRequest, { optional: true }),
        onRequest: checkRequestShape(RotateWebhookSecretRoute),
      },
      async (request) => rotateSecret(deps, request.principal, request.params.id),
    );
    app.get<{ Params: Params; Querystring: { limit: number } }>(
      `${base}/:id/deliveries`,
      { schema: ListWebhookDeliveriesRoute, onRequest: checkRequestShape(ListWebhookDeliveriesRoute) },
      async (request) => ({
        data: await listDeliveries(deps, request.principal, request.params.id, request.query.limit),
      }),
    );
    app.post<{ Params: Params }>(
      `${base}/:id/deliveries/:deliveryId/retry`,
      {
        schema: RetryWebhookDeliveryRoute,
        config: documentedBody(EndpointActionRequest, { optional: true }),
        onRequest: checkRequestShape(RetryWebhookDeliveryRoute),
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await retryDelivery(deps, request.principal, request.params.id, request.params.deliveryId!)),
    );
    app.post<{ Params: Params }>(
      `${base}/:id/test`,
      {
        schema: TestWebhookEndpointRoute,
        config: documentedBody(EndpointActionRequest, { optional: true }),
        onRequest: checkRequestShape(TestWebhookEndpointRoute),
      },
      async (request, reply) =>
        reply.code(202).send(await sendTest(deps, request.principal, request.params.id)),
    );
  };
}
