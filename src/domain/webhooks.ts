/** Webhooks (D18, Standard Webhooks 1.0): endpoints, deliveries, the retry schedule and the payload. Plain data. */
import { CHANGE_TYPES, type ChangeRecord, type ChangeType } from './changes.js';
import type { Problem } from './errors.js';

export type EndpointStatus = 'enabled' | 'disabled';
/** `pending`: waiting for its next attempt; `succeeded`: a 2xx came back; `failed`: no attempt is left. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** The secrets an endpoint signs with: the current one, and the one it replaced until `previousExpiresAt`. */
export interface EndpointSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: string | null;
}

export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  enabledEvents: ChangeType[];
  status: EndpointStatus;
  /** Why the service disabled it (`410`, failing for 3 days), or null. */
  disabledReason: string | null;
  secrets: EndpointSecrets;
  /** The last change sequence of the organization turned into deliveries for this endpoint. */
  cursor: number;
  /** When the first of the failures since the last success happened; null while healthy. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A change to an endpoint, by its owner (url, events, status, secrets) or by the dispatcher (status and reason). */
export interface EndpointChanges {
  url?: string;
  enabledEvents?: ChangeType[];
  status?: EndpointStatus;
  disabledReason?: string | null;
  secrets?: WebhookEndpoint['secrets'];
  updatedAt: string;
}

export interface WebhookDelivery {
  id: string;
  organizationId: string;
  endpointId: string;
  /** The `webhook-id` header: the change id (the same on every retry), or the delivery id for a test. */
  messageId: string;
  type: string;
  /** The change's sequence, or null for a test. */
  sequence: number | null;
  /** The exact body sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The start of the last response body, at most RESPONSE_BODY_LIMIT bytes. */
  lastResponseBody: string | null;
  createdAt: string;
}

/** What one attempt came to, as the transport saw it. */
export type AttemptOutcome =
  | { kind: 'response'; statusCode: number; body: string }
  | { kind: 'error'; error: string };

export const WEBHOOK_TEST_TYPE = 'webhook.test';
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,24h';
/** An endpoint whose deliveries have failed, without a success, for this long is disabled. */
export const FAILING_LIMIT_MS = 3 * 24 * 60 * 60 * 1000;
/** How long a rotated-out secret keeps signing. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The part of a response body kept with the delivery. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;
/** The body of a change's delivery (Standard Webhooks: `type`, `timestamp`, `data`). */
export function changePayload(change: ChangeRecord): string {
  return JSON.stringify({
    type: change.type,
    timestamp: change.occurredAt,
    data: {
      id: change.id,
      eventId: change.eventId,
      revision: change.revision,
      sequence: change.sequence,
      changedFields: change.changedFields,
      actor: change.actor,
      ...(change.data ?? {}),
    },
  });
}

/** The body of a test delivery. */
export function testPayload(endpointId: string, at: string): string {
  return JSON.stringify({ type: WEBHOOK_TEST_TYPE, timestamp: at, data: { endpointId } });
}

/** What an attempt means for the delivery and its endpoint. */
export interface AttemptVerdict {
  succeeded: boolean;
  /** The endpoint answered 410 Gone: disable it. */
  gone: boolean;
}

export function judgeAttempt(outcome: AttemptOutcome): AttemptVerdict {
  if (outcome.kind === 'error') return { succeeded: false, gone: false };
  return {
    succeeded: outcome.statusCode >= 200 && outcome.statusCode < 300,
    gone: outcome.statusCode === 410,
  };
}

export interface EndpointInput {
  url?: unknown;
  enabledEvents?: unknown;
  status?: unknown;
}

/** The shape of an endpoint body: every problem at once. The network policy of the URL is checked apart. */
export function endpointInputProblems(body: Record<string, unknown>, mode: 'create' | 'update'): Problem[] {
  const problems: Problem[] = [];
  const allowed = mode === 'create' ? ['url', 'enabledEvents'] : ['url', 'enabledEvents', 'status'];
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      problems.push({
        field: key,
        code: 'unknown_field',
        message: `is not a field; use ${allowed.join(', ')}`,
      });
    }
  }
  if (mode === 'create' || body.url !== undefined) {
    if (body.url === undefined) problems.push({ field: 'url', code: 'required', message: 'is required' });
    else if (typeof body.url !== 'string')
      problems.push({ field: 'url', code: 'invalid_type', message: 'must be a string' });
    else if (body.url.length > 2048)
      problems.push({ field: 'url', code: 'too_long', message: 'must be at most 2048 characters' });
  }
  if (mode === 'create' || body.enabledEvents !== undefined) {
    const events = body.enabledEvents;
    if (events === undefined)
      problems.push({ field: 'enabledEvents', code: 'required', message: 'is required' });
    else if (!Array.isArray(events)) {
      problems.push({
        field: 'enabledEvents',
        code: 'invalid_type',
        message: 'must be an array of event types',
      });
    } else if (events.length === 0) {
      problems.push({
        field: 'enabledEvents',
        code: 'too_short',
        message: 'must name at least one event type',
      });
    } else {
      events.forEach((type, index) => {
        if (!CHANGE_TYPES.includes(type as ChangeType)) {
          problems.push({
            field: `enabledEvents[${index}]`,
            code: 'invalid_value',
            message: `must be one of ${CHANGE_TYPES.join(', ')}`,
          });
        }
      });
      if (new Set(events).size !== events.length) {
        problems.push({ field: 'enabledEvents', code: 'duplicate', message: 'names an event type twice' });
      }
    }
  }
  if (body.status !== undefined && body.status !== 'enabled' && body.status !== 'disabled') {
    problems.push({ field: 'status', code: 'invalid_value', message: 'must be enabled or disabled' });
  }
  return problems;
}

/** The endpoint after `changes`: enabling it again clears its failure record and the reason it was disabled. */
export function mergeEndpoint(current: WebhookEndpoint, changes: EndpointChanges): WebhookEndpoint {
  const enabling = changes.status === 'enabled';
  return {
    ...current,
    url: changes.url ?? current.url,
    enabledEvents: changes.enabledEvents ?? current.enabledEvents,
    status: changes.status ?? current.status,
    disabledReason: enabling
      ? null
      : changes.disabledReason !== undefined
        ? changes.disabledReason
        : current.disabledReason,
    failingSince: enabling ? null : current.failingSince,
    secrets: changes.secrets ?? current.secrets,
    updatedAt: changes.updatedAt,
  };
}
