/** Webhook endpoints and their deliveries (D18): the durable outbox, fed from the change log. */
import type {
  DeliveryStatus,
  EndpointChanges,
  WebhookDelivery,
  WebhookEndpoint,
} from '../domain/webhooks.js';

/** A delivery claimed for one attempt, with what the attempt needs of its endpoint. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  url: string;
  secrets: WebhookEndpoint['secrets'];
  /** Proves the claim when the attempt is recorded: a claim whose lease ran out and was taken again loses. */
  leaseToken: string;
}

/** What the dispatcher decided after an attempt. */
export interface AttemptRecord {
  at: string;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** The delivery's new status, and when to try again when it stays pending. */
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  /** The endpoint: healthy again, failing (from `at` unless already failing), or disabled with a reason. */
  endpoint:
    | { outcome: 'healthy' }
    | { outcome: 'failing'; disableIfFailingSince: string }
    | { outcome: 'disable'; reason: string };
}

export interface QueueStats {
  /** Deliveries waiting for an attempt (on enabled endpoints). */
  pending: number;
  /** When the oldest of them was created, or null. */
  oldestPendingAt: string | null;
}

export interface WebhookRepository {
  /** Creates an endpoint whose cursor is the organization's last change now: it gets the changes after it. */
  createEndpoint(endpoint: Omit<WebhookEndpoint, 'cursor'>): Promise<WebhookEndpoint>;
  listEndpoints(organizationId: string): Promise<WebhookEndpoint[]>;
  findEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Resolves to the endpoint as changed, or undefined when the organization has none of that id. Enabling clears failingSince. */
  updateEndpoint(
    organizationId: string,
    id: string,
    changes: EndpointChanges,
  ): Promise<WebhookEndpoint | undefined>;
  /** Deletes the endpoint and its deliveries; false when there was none. */
  deleteEndpoint(organizationId: string, id: string): Promise<boolean>;

  /**
   * Turns the change-log records after each enabled endpoint's cursor into deliveries (of the types it
   * enabled) and moves the cursor, in one transaction per endpoint, at most `limit` changes per endpoint.
   * Resolves to the number of deliveries created.
   */
  enqueueChanges(now: string, limit: number): Promise<number>;
  /** Adds one delivery (a test), due at once. */
  insertDelivery(delivery: WebhookDelivery): Promise<void>;
  /** Newest first, at most `limit`. */
  listDeliveries(organizationId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  findDelivery(organizationId: string, endpointId: string, id: string): Promise<WebhookDelivery | undefined>;
  /** Makes a delivery pending and due at `now` again; undefined when there is none. */
  retryDelivery(
    organizationId: string,
    endpointId: string,
    id: string,
    now: string,
  ): Promise<WebhookDelivery | undefined>;

  /**
   * Claims up to `limit` pending deliveries due at `now` on enabled endpoints, each for one attempt:
   * until `leaseUntil` no other claim (by any instance) takes them.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt of a claimed delivery; false (and nothing written) when the claim was lost. */
  recordAttempt(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean>;
  /** Hands a claimed delivery back without an attempt (shutdown before it was sent). */
  release(claim: ClaimedDelivery): Promise<void>;
  queueStats(): Promise<QueueStats>;
}
