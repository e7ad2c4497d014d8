/** The webhook endpoint API (D18): endpoints of the caller's organization, their deliveries, tests. */

import type { ChangeType } from '../domain/changes.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import { isPlainObject } from '../domain/values.js';
import {
  type EndpointStatus,
  endpointInputProblems,
  PREVIOUS_SECRET_LIFETIME_MS,
  testPayload,
  WEBHOOK_TEST_TYPE,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../domain/webhooks.js';
import type { AppDeps, Principal } from './deps.js';
import { newWebhookSecret } from './webhook-signature.js';

/** What the endpoint API needs beyond the store: the network policy a URL must meet (the transport's). */
export interface WebhookDeps extends AppDeps {
  urlProblem(url: string): string | undefined;
}

export interface EndpointView {
  id: string;
  url: string;
  enabledEvents: ChangeType[];
  status: EndpointStatus;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: string;
  webhookId: string;
  type: string;
  sequence: number | null;
  status: WebhookDelivery['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseBody: string | null;
  createdAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function endpointView(endpoint: WebhookEndpoint): EndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    enabledEvents: endpoint.enabledEvents,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

export function deliveryView(delivery: WebhookDelivery): DeliveryView {
  return {
    id: delivery.id,
    webhookId: delivery.messageId,
    type: delivery.type,
    sequence: delivery.sequence,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt,
    lastAttemptAt: delivery.lastAttemptAt,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    lastResponseBody: delivery.lastResponseBody,
    createdAt: delivery.createdAt,
  };
}

/** Path ids that are not UUIDs are a 400 naming the parameter. */
export function idProblems(ids: Record<string, string>) {
  return Object.entries(ids)
    .filter(([, value]) => !UUID.test(value))
    .map(([field, value]) => ({
      field,
      code: 'invalid_format',
      message: `must be a UUID (got ${JSON.stringify(value.slice(0, 40))})`,
    }));
}

function checkBody(deps: WebhookDeps, body: unknown, mode: 'create' | 'update'): Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: 'body', code: 'invalid_type', message: 'The request body must be a JSON object.' },
    ]);
  }
  const problems = endpointInputProblems(body, mode);
  if (typeof body.url === 'string' && !problems.some((problem) => problem.field === 'url')) {
    const refusal = deps.urlProblem(body.url);
    if (refusal) problems.push({ field: 'url', code: 'url_not_allowed', message: refusal });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return body;
}

async function endpointOf(deps: WebhookDeps, principal: Principal, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.store.webhooks.findEndpoint(principal.organizationId, id);
  if (!endpoint) throw new NotFoundError('No webhook endpoint with this id in your organization.');
  return endpoint;
}

export async function createEndpoint(
  deps: WebhookDeps,
  principal: Principal,
  body: unknown,
): Promise<EndpointView & { secret: string }> {
  const input = checkBody(deps, body, 'create');
  const now = deps.clock.now().toISOString();
  const secret = newWebhookSecret();
  const endpoint = await deps.store.webhooks.createEndpoint({
    id: deps.ids.uuid(),
    organizationId: principal.organizationId,
    url: input.url as string,
    enabledEvents: input.enabledEvents as ChangeType[],
    status: 'enabled',
    disabledReason: null,
    secrets: { current: secret, previous: null, previousExpiresAt: null },
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  });
  return { ...endpointView(endpoint), secret };
}

export async function listEndpoints(deps: WebhookDeps, principal: Principal): Promise<EndpointView[]> {
  return (await deps.store.webhooks.listEndpoints(principal.organizationId)).map(endpointView);
}

export async function getEndpoint(
  deps: WebhookDeps,
  principal: Principal,
  id: string,
): Promise<EndpointView> {
  return endpointView(await endpointOf(deps, principal, id));
}

export async function updateEndpoint(
  deps: WebhookDeps,
  principal: Principal,
  id: string,
  body: unknown,
): Promise<EndpointView> {
  await endpointOf(deps, principal, id);
  const input = checkBody(deps, body, 'update');
  const updated = await deps.store.webhooks.updateEndpoint(principal.organizationId, id, {
    url: input.url as string | undefined,
    enabledEvents: input.enabledEvents as ChangeType[] | undefined,
    status: input.status as EndpointStatus | undefined,
    // Disabled by its owner: no reason to show beyond the status itself.
    ...(input.status === 'disabled' ? { disabledReason: 'Disabled through the API.' } : {}),
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!updated) throw new NotFoundError('No webhook endpoint with this id in your organization.');
  return endpointView(updated);
}

export async function deleteEndpoint(deps: WebhookDeps, principal: Principal, id: string): Promise<void> {
  if (!(await deps.store.webhooks.deleteEndpoint(principal.organizationId, id))) {
    throw new NotFoundError('No webhook endpoint with this id in your organization.');
  }
}

/** A new secret; the one it replaces keeps signing, beside it, for 24 hours. */
export async function rotateSecret(
  deps: WebhookDeps,
  principal: Principal,
  id: string,
): Promise<EndpointView & { secret: string; previousSecretExpiresAt: string }> {
  const endpoint = await endpointOf(deps, principal, id);
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_LIFETIME_MS).toISOString();
  const updated = await deps.store.webhooks.updateEndpoint(principal.organizationId, id, {
    secrets: {
      current: secret,
      previous: endpoint.secrets.current,
      previousExpiresAt: previousSecretExpiresAt,
    },
    updatedAt: now.toISOString(),
  });
  if (!updated) throw new NotFoundError('No webhook endpoint with this id in your organization.');
  return { ...endpointView(updated), secret, previousSecretExpiresAt };
}

export async function listDeliveries(
  deps: WebhookDeps,
  principal: Principal,
  id: string,
  limit: number,
): Promise<DeliveryView[]> {
  await endpointOf(deps, principal, id);
  return (await deps.store.webhooks.listDeliveries(principal.organizationId, id, limit)).map(deliveryView);
}

/** Makes a delivery due again now (whatever its status), for one more round of the retry schedule. */
export async function retryDelivery(
  deps: WebhookDeps,
  principal: Principal,
  id: string,
  deliveryId: string,
): Promise<DeliveryView> {
  await endpointOf(deps, principal, id);
  const delivery = await deps.store.webhooks.retryDelivery(
    principal.organizationId,
    id,
    deliveryId,
    deps.clock.now().toISOString(),
  );
  if (!delivery) throw new NotFoundError('No delivery with this id for this webhook endpoint.');
  return deliveryView(delivery);
}

/** Queues a `webhook.test` delivery, due at once, whatever event types the endpoint enabled. */
export async function sendTest(deps: WebhookDeps, principal: Principal, id: string): Promise<DeliveryView> {
  const endpoint = await endpointOf(deps, principal, id);
  const now = deps.clock.now().toISOString();
  const deliveryId = deps.ids.uuid();
  const delivery: WebhookDelivery = {
    id: deliveryId,
    organizationId: principal.organizationId,
    endpointId: endpoint.id,
    messageId: `test_${deliveryId}`,
    type: WEBHOOK_TEST_TYPE,
    sequence: null,
    payload: testPayload(endpoint.id, now),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    lastResponseBody: null,
    createdAt: now,
  };
  await deps.store.webhooks.insertDelivery(delivery);
  return deliveryView(delivery);
}
