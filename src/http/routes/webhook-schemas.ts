/** Webhook endpoints (D18): their schemas, the payload they receive, and their operations. */
import { Type } from '@sinclair/typebox';
import { CHANGE_TYPES } from '../../domain/changes.js';
import { API_HEADERS } from '../schemas/headers.js';
import { JSON_MEDIA_TYPE, jsonResponse, operation } from '../schemas/operation.js';
import { Count, orNull, ref, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';
import { CHANGE_TYPES_DESCRIPTION } from './change-schemas.js';

const EVENT_TYPES_DESCRIPTION = CHANGE_TYPES_DESCRIPTION;
const WebhookEventType = Type.Union(
  CHANGE_TYPES.map((type) => Type.Literal(type)),
  { description: `A change type: ${EVENT_TYPES_DESCRIPTION}` },
);

const EXAMPLE_ENDPOINT = {
  id: '3d6f1c2a-8b4e-4f0a-9c1d-2e7f5a6b8c90',
  url: 'https://hooks.example.com/eventplan',
  enabledEvents: ['event.created', 'event.status_changed'],
  status: 'enabled',
  disabledReason: null,
  failingSince: null,
  createdAt: '2027-01-10T09:00:00.000Z',
  updatedAt: '2027-01-10T09:00:00.000Z',
};

const endpointFields = {
  id: Uuid('The endpoint id.'),
  url: Type.String({ description: 'Where deliveries are POSTed.' }),
  enabledEvents: Type.Array(WebhookEventType, {
    minItems: 1,
    description: 'The change types delivered here.',
  }),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description:
      '`disabled` by you (PATCH), or by the service after a `410 Gone` or 3 days of failures (see `disabledReason`). PATCH `status: "enabled"` to resume: changes made while disabled are delivered then.',
  }),
  disabledReason: orNull(Type.String(), { description: 'Why the endpoint is disabled, or null.' }),
  failingSince: orNull(Timestamp('When the current run of failed attempts began; null while healthy.')),
  createdAt: Timestamp('When the endpoint was created.'),
  updatedAt: Timestamp('When the endpoint last changed.'),
};

export const WebhookEndpoint = Type.Object(endpointFields, {
  $id: 'WebhookEndpoint',
  additionalProperties: false,
  description: 'A URL that receives signed webhooks (Standard Webhooks 1.0) for the changes of your events.',
  examples: [EXAMPLE_ENDPOINT],
});

const SECRET_DESCRIPTION =
  'The signing secret, `whsec_` + base64 of 32 random bytes. Shown only now: keep it to verify `webhook-signature`.';

export const CreatedWebhookEndpoint = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{32,}$', description: SECRET_DESCRIPTION }),
  },
  {
    $id: 'CreatedWebhookEndpoint',
    additionalProperties: false,
    description: 'The new endpoint with its secret, which is never shown again.',
    examples: [{ ...EXAMPLE_ENDPOINT, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Cp2dgaFaeU=' }],
  },
);

export const RotatedWebhookSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{32,}$', description: SECRET_DESCRIPTION }),
    previousSecretExpiresAt: Timestamp(
      'Until then the previous secret signs too: each delivery carries both signatures, space-separated.',
    ),
  },
  {
    $id: 'RotatedWebhookSecret',
    additionalProperties: false,
    description: 'The endpoint with its new secret (shown only now).',
  },
);

export const WebhookEndpointList = Type.Object(
  { data: Type.Array(ref(WebhookEndpoint)) },
  { $id: 'WebhookEndpointList', additionalProperties: false, description: 'Your endpoints, oldest first.' },
);

export const CreateWebhookEndpointRequest = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      description:
        'An `https` URL to a public address. Private, loopback, link-local, unique-local, multicast, CGNAT and reserved addresses are refused (a 400 naming `url`), and checked again on every connection.',
    }),
    enabledEvents: Type.Array(WebhookEventType, { minItems: 1, uniqueItems: true }),
  },
  {
    $id: 'CreateWebhookEndpointRequest',
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/eventplan', enabledEvents: ['event.created'] }],
  },
);

export const UpdateWebhookEndpointRequest = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    enabledEvents: Type.Optional(Type.Array(WebhookEventType, { minItems: 1, uniqueItems: true })),
    status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
  },
  {
    $id: 'UpdateWebhookEndpointRequest',
    additionalProperties: false,
    examples: [{ status: 'enabled' }],
  },
);

/** The body of the actions on an endpoint (rotate its secret, test it, retry a delivery): nothing is read from it. */
export const EndpointActionRequest = Type.Object(
  {},
  {
    $id: 'EndpointActionRequest',
    description:
      'Nothing is read from the body: send none, or `{}` if your client always sends a JSON body. Any member is ignored.',
    examples: [{}],
  },
);

export const WebhookDelivery = Type.Object(
  {
    id: Uuid('The delivery id (for a manual retry).'),
    webhookId: Type.String({
      description: 'The `webhook-id` header: the change id, the same on every attempt.',
    }),
    type: Type.String({ description: `${EVENT_TYPES_DESCRIPTION} or \`webhook.test\`.` }),
    sequence: orNull(Count('The change sequence; null for a test.')),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description:
        '`pending` (an attempt is due at `nextAttemptAt`), `succeeded` (a 2xx came back) or `failed` (no attempt left).',
    }),
    attempts: Count('Attempts made.'),
    nextAttemptAt: orNull(Timestamp('When the next attempt is due.')),
    lastAttemptAt: orNull(Timestamp('When the last attempt was made.')),
    lastStatusCode: orNull(
      Type.Integer({ minimum: 100, maximum: 599, description: 'The last HTTP status received.' }),
    ),
    lastError: orNull(
      Type.String({ description: 'Why the last attempt got no response (timeout, refused address, …).' }),
    ),
    lastResponseBody: orNull(
      Type.String({ description: 'The start of the last response body (at most 64 KiB).' }),
    ),
    createdAt: Timestamp('When the delivery was queued.'),
  },
  {
    $id: 'WebhookDelivery',
    additionalProperties: false,
    description: 'One change on its way to one endpoint.',
  },
);

export const WebhookDeliveryList = Type.Object(
  { data: Type.Array(ref(WebhookDelivery)) },
  { $id: 'WebhookDeliveryList', additionalProperties: false, description: 'Deliveries, newest first.' },
);

export const WebhookPayload = Type.Object(
  {
    type: Type.Union([...CHANGE_TYPES.map((type) => Type.Literal(type)), Type.Literal('webhook.test')]),
    timestamp: Timestamp('When the change was committed (for a test: when it was queued).'),
    data: Type.Object(
      {
        id: Type.Optional(Uuid('The change id (also the `webhook-id` header).')),
        eventId: Type.Optional(Uuid('The event that changed.')),
        revision: Type.Optional(
          Type.Integer({ minimum: 1, description: "The change's number among the event's changes." }),
        ),
        sequence: Type.Optional(Count("The change's number among the organization's, in commit order.")),
        changedFields: Type.Optional(
          Type.Array(Type.String(), { description: 'The top-level fields that changed.' }),
        ),
        actor: Type.Optional(Type.Object({ type: Type.String() }, { description: 'Who made the change.' })),
        from: Type.Optional(Type.String({ description: '`event.status_changed`: the status before.' })),
        to: Type.Optional(Type.String({ description: '`event.status_changed`: the status after.' })),
        requestId: Type.Optional(Uuid("A request's step: the venue request.")),
        venueId: Type.Optional(Uuid("A request's step: its venue.")),
        proposalRevision: Type.Optional(
          Type.Integer({ minimum: 1, description: '`proposal.submitted`: the revision submitted.' }),
        ),
        endpointId: Type.Optional(Uuid('`webhook.test`: the endpoint tested.')),
      },
      { description: 'What changed. Fetch the event (or its revision) for the details.' },
    ),
  },
  {
    $id: 'WebhookPayload',
    description:
      'The body of every delivery. Headers: `webhook-id` (dedupe on it), `webhook-timestamp` (Unix seconds of the attempt), `webhook-signature` (`v1,<base64 HMAC-SHA256>`, several space-separated during a secret rotation). Verify with any Standard Webhooks library.',
    examples: [
      {
        type: 'event.status_changed',
        timestamp: '2027-01-12T10:15:00.000Z',
        data: {
          id: '9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
          eventId: '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1',
          revision: 4,
          sequence: 118,
          changedFields: ['status'],
          actor: { type: 'operator' },
          from: 'draft',
          to: 'wait_for_proposals',
        },
      },
    ],
  },
);

export const WebhookEndpointParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The endpoint's id. A malformed id is a 400 naming `id`." }),
});

export const WebhookDeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The endpoint's id." }),
  deliveryId: Type.String({ format: 'uuid', description: "The delivery's id." }),
});

export const DeliveryListQuery = Type.Object(
  {
    limit: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 20,
      description: 'Deliveries to return, 1 to 100.',
    }),
  },
  { additionalProperties: false },
);

const WEBHOOK_404 = problemResponse(
  'No webhook endpoint (or delivery) with this id in your organization (one of another organization is a 404 too).',
  problemOf(404, ['not_found']),
);

export const CreateWebhookEndpointRoute = operation({
  operationId: 'createWebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Create a webhook endpoint',
  description:
    'Starts delivering the changes of the enabled types committed from now on. The answer holds the signing `secret`, shown only this once.',
  responses: {
    201: jsonResponse('Created, with its secret.', ref(CreatedWebhookEndpoint)),
    400: ERRORS[400]('The body was refused: `url` (not https, not public, malformed) or `enabledEvents`.'),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const ListWebhookEndpointsRoute = operation({
  operationId: 'listWebhookEndpoints',
  tag: 'Webhooks',
  summary: 'List webhook endpoints',
  description: "The organization's endpoints, oldest first, without their secrets.",
  responses: {
    200: jsonResponse('The endpoints.', ref(WebhookEndpointList)),
    400: ERRORS[400]('A query parameter was sent.'),
  },
});

export const GetWebhookEndpointRoute = operation({
  operationId: 'getWebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Read a webhook endpoint',
  description: 'One endpoint, with its status and, when disabled, why.',
  params: WebhookEndpointParams,
  responses: {
    200: jsonResponse('The endpoint.', ref(WebhookEndpoint)),
    400: ERRORS[400]('The id is not a UUID.'),
    404: WEBHOOK_404,
  },
});

export const UpdateWebhookEndpointRoute = operation({
  operationId: 'updateWebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Update a webhook endpoint',
  description:
    'Changes `url`, `enabledEvents` or `status`. Enabling a disabled endpoint clears its failure record; the changes committed while it was disabled are delivered then.',
  params: WebhookEndpointParams,
  consumes: [JSON_MEDIA_TYPE, 'application/merge-patch+json'],
  responses: {
    200: jsonResponse('The endpoint as changed.', ref(WebhookEndpoint)),
    400: ERRORS[400]('The id or the body was refused.'),
    404: WEBHOOK_404,
    413: ERRORS[413],
    415: ERRORS[415]('`application/json` or `application/merge-patch+json`'),
  },
});

export const DeleteWebhookEndpointRoute = operation({
  operationId: 'deleteWebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Delete a webhook endpoint',
  description: 'Deletes the endpoint and its deliveries; nothing more is sent to it.',
  params: WebhookEndpointParams,
  responses: {
    204: { type: 'null', description: 'Deleted.', headers: API_HEADERS },
    400: ERRORS[400]('The id is not a UUID.'),
    404: WEBHOOK_404,
  },
});

export const RotateWebhookSecretRoute = operation({
  operationId: 'rotateWebhookSecret',
  tag: 'Webhooks',
  summary: 'Rotate the signing secret',
  description:
    'Makes a new secret (shown only in this answer). For 24 hours the previous one signs too: every delivery carries both signatures, so receivers can switch without missing one.',
  params: WebhookEndpointParams,
  responses: {
    200: jsonResponse('The endpoint and its new secret.', ref(RotatedWebhookSecret)),
    400: ERRORS[400]('The id is not a UUID, or the body is not JSON.'),
    404: WEBHOOK_404,
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const ListWebhookDeliveriesRoute = operation({
  operationId: 'listWebhookDeliveries',
  tag: 'Webhooks',
  summary: 'List deliveries',
  description:
    "The endpoint's deliveries, newest first, with the outcome of the last attempt and the start of its response body.",
  params: WebhookEndpointParams,
  querystring: DeliveryListQuery,
  responses: {
    200: jsonResponse('The deliveries.', ref(WebhookDeliveryList)),
    400: ERRORS[400]('The id or `limit` was refused.'),
    404: WEBHOOK_404,
  },
});

export const RetryWebhookDeliveryRoute = operation({
  operationId: 'retryWebhookDelivery',
  tag: 'Webhooks',
  summary: 'Retry a delivery',
  description:
    'Makes the delivery due now, whatever its status; failures then follow the retry schedule again. The `webhook-id` stays the same.',
  params: WebhookDeliveryParams,
  responses: {
    202: jsonResponse('Queued.', ref(WebhookDelivery)),
    400: ERRORS[400]('An id is not a UUID, or the body is not JSON.'),
    404: WEBHOOK_404,
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const TestWebhookEndpointRoute = operation({
  operationId: 'testWebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Send a test delivery',
  description:
    'Queues a `webhook.test` delivery to the endpoint, due now, whatever types it enabled. Follow it in the delivery list.',
  params: WebhookEndpointParams,
  responses: {
    202: jsonResponse('Queued.', ref(WebhookDelivery)),
    400: ERRORS[400]('The id is not a UUID, or the body is not JSON.'),
    404: WEBHOOK_404,
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});
