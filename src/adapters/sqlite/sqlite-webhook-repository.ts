import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { ChangeType } from '../../domain/changes.js';
import {
  changePayload,
  mergeEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../domain/webhooks.js';
import type { ClaimedDelivery, WebhookRepository } from '../../ports/webhook-repository.js';
import { CHANGE_COLUMNS, changeFromRow } from './sqlite-event-repository.js';
import type { WriteQueue } from './write-queue.js';

interface EndpointRow {
  organization_id: string;
  id: string;
  url: string;
  enabled_events: string;
  status: WebhookEndpoint['status'];
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  cursor: number;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

interface DeliveryRow {
  organization_id: string;
  id: string;
  endpoint_id: string;
  message_id: string;
  type: string;
  sequence: number | null;
  payload: string;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_body: string | null;
  created_at: string;
}

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  organizationId: row.organization_id,
  url: row.url,
  enabledEvents: JSON.parse(row.enabled_events) as ChangeType[],
  status: row.status,
  disabledReason: row.disabled_reason,
  secrets: {
    current: row.secret,
    previous: row.previous_secret,
    previousExpiresAt: row.previous_secret_expires_at,
  },
  cursor: row.cursor,
  failingSince: row.failing_since,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  organizationId: row.organization_id,
  endpointId: row.endpoint_id,
  messageId: row.message_id,
  type: row.type,
  sequence: row.sequence,
  payload: row.payload,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastAttemptAt: row.last_attempt_at,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastResponseBody: row.last_response_body,
  createdAt: row.created_at,
});

const DELIVERY_COLUMNS =
  'organization_id, id, endpoint_id, message_id, type, sequence, payload, status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error, last_response_body, created_at';

/** One dispatcher per process on SQLite; leases still matter, so a crash mid-attempt is retried after a restart. */
export function createSqliteWebhookRepository(db: Database, queue: WriteQueue): WebhookRepository {
  const insertEndpoint = db.prepare(`
    INSERT INTO webhook_endpoints (organization_id, id, url, enabled_events, status, disabled_reason, secret,
      previous_secret, previous_secret_expires_at, cursor, failing_since, created_at, updated_at)
    VALUES (@organization_id, @id, @url, @enabled_events, @status, @disabled_reason, @secret, @previous_secret,
      @previous_secret_expires_at, (SELECT change_sequence FROM organizations WHERE id = @organization_id),
      @failing_since, @created_at, @updated_at)`);
  const selectEndpoint = db.prepare('SELECT * FROM webhook_endpoints WHERE organization_id = ? AND id = ?');
  const selectEndpoints = db.prepare(
    'SELECT * FROM webhook_endpoints WHERE organization_id = ? ORDER BY created_at, id',
  );
  const writeEndpoint = db.prepare(`
    UPDATE webhook_endpoints SET url = @url, enabled_events = @enabled_events, status = @status,
      disabled_reason = @disabled_reason, secret = @secret, previous_secret = @previous_secret,
      previous_secret_expires_at = @previous_secret_expires_at, failing_since = @failing_since, updated_at = @updated_at
    WHERE organization_id = @organization_id AND id = @id`);
  const deleteEndpoint = db.prepare('DELETE FROM webhook_endpoints WHERE organization_id = ? AND id = ?');
  const behind = db.prepare(`
    SELECT e.organization_id, e.id FROM webhook_endpoints e JOIN organizations o ON o.id = e.organization_id
    WHERE e.status = 'enabled' AND o.change_sequence > e.cursor`);
  const changesAfter = db.prepare(`
    SELECT ${CHANGE_COLUMNS}
    FROM event_changes WHERE organization_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`);
  const insertDelivery = db.prepare(`
    INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, type, sequence, payload, status,
      attempts, next_attempt_at, created_at)
    VALUES (@organizationId, @id, @endpointId, @messageId, @type, @sequence, @payload, @status, @attempts,
      @nextAttemptAt, @createdAt)
    ON CONFLICT (organization_id, endpoint_id, message_id) DO NOTHING`);
  const moveCursor = db.prepare(
    'UPDATE webhook_endpoints SET cursor = ? WHERE organization_id = ? AND id = ?',
  );
  const selectDeliveries = db.prepare(`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE organization_id = ? AND endpoint_id = ?
    ORDER BY created_at DESC, sequence DESC, id DESC LIMIT ?`);
  const selectDelivery = db.prepare(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE organization_id = ? AND endpoint_id = ? AND id = ?`,
  );
  const retry = db.prepare(`
    UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, locked_until = NULL, lease_token = NULL
    WHERE organization_id = ? AND endpoint_id = ? AND id = ?`);
  const due = db.prepare(`
    SELECT d.organization_id, d.id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.locked_until IS NULL OR d.locked_until <= ?)
      AND e.status = 'enabled'
    ORDER BY d.next_attempt_at LIMIT ?`);
  // The same condition as `due`, read outside the write queue: most rounds find nothing to lease.
  const anyDue = db.prepare(`
    SELECT 1 FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.locked_until IS NULL OR d.locked_until <= ?)
      AND e.status = 'enabled'
    LIMIT 1`);
  const lease = db.prepare(
    'UPDATE webhook_deliveries SET locked_until = ?, lease_token = ? WHERE organization_id = ? AND id = ?',
  );
  const selectDeliveryById = db.prepare(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE organization_id = ? AND id = ?`,
  );
  const recordDelivery = db.prepare(`
    UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @nextAttemptAt,
      last_attempt_at = @at, last_status_code = @statusCode, last_error = @error, last_response_body = @responseBody,
      locked_until = NULL, lease_token = NULL
    WHERE organization_id = @organizationId AND id = @id AND lease_token = @leaseToken`);
  const endpointHealthy = db.prepare(
    'UPDATE webhook_endpoints SET failing_since = NULL WHERE organization_id = ? AND id = ?',
  );
  const endpointFailing = db.prepare(
    'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE organization_id = ? AND id = ?',
  );
  const disableIfFailingSince = db.prepare(`
    UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, updated_at = ?
    WHERE organization_id = ? AND id = ? AND status = 'enabled' AND failing_since <= ?`);
  const disable = db.prepare(`
    UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, updated_at = ?
    WHERE organization_id = ? AND id = ? AND status = 'enabled'`);
  const releaseLease = db.prepare(
    'UPDATE webhook_deliveries SET locked_until = NULL, lease_token = NULL WHERE organization_id = ? AND id = ? AND lease_token = ?',
  );
  const stats = db.prepare(`
    SELECT COUNT(*) AS pending, MIN(d.created_at) AS oldest FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id
    WHERE d.status = 'pending' AND e.status = 'enabled'`);

  const find = (organizationId: string, id: string) => {
    const row = selectEndpoint.get(organizationId, id) as EndpointRow | undefined;
    return row && toEndpoint(row);
  };

  return {
    createEndpoint(endpoint) {
      return queue.run(() => {
        insertEndpoint.run({
          organization_id: endpoint.organizationId,
          id: endpoint.id,
          url: endpoint.url,
          enabled_events: JSON.stringify(endpoint.enabledEvents),
          status: endpoint.status,
          disabled_reason: endpoint.disabledReason,
          secret: endpoint.secrets.current,
          previous_secret: endpoint.secrets.previous,
          previous_secret_expires_at: endpoint.secrets.previousExpiresAt,
          failing_since: endpoint.failingSince,
          created_at: endpoint.createdAt,
          updated_at: endpoint.updatedAt,
        });
        return find(endpoint.organizationId, endpoint.id)!;
      });
    },
    async listEndpoints(organizationId) {
      return (selectEndpoints.all(organizationId) as EndpointRow[]).map(toEndpoint);
    },
    async findEndpoint(organizationId, id) {
      return find(organizationId, id);
    },
    updateEndpoint(organizationId, id, changes) {
      return queue.run(() => {
        const current = find(organizationId, id);
        if (!current) return undefined;
        const next = mergeEndpoint(current, changes);
        writeEndpoint.run({
          organization_id: organizationId,
          id,
          url: next.url,
          enabled_events: JSON.stringify(next.enabledEvents),
          status: next.status,
          disabled_reason: next.disabledReason,
          secret: next.secrets.current,
          previous_secret: next.secrets.previous,
          previous_secret_expires_at: next.secrets.previousExpiresAt,
          failing_since: next.failingSince,
          updated_at: next.updatedAt,
        });
        return next;
      });
    },
    deleteEndpoint(organizationId, id) {
      return queue.run(() => deleteEndpoint.run(organizationId, id).changes > 0);
    },

    async enqueueChanges(now, limit) {
      const endpoints = behind.all() as Array<{ organization_id: string; id: string }>;
      let created = 0;
      for (const { organization_id: organizationId, id } of endpoints) {
        created += await queue.run(() => {
          // Read again inside the transaction: the cursor and the deliveries move together.
          const endpoint = find(organizationId, id);
          if (!endpoint || endpoint.status !== 'enabled') return 0;
          const changes = (
            changesAfter.all(organizationId, endpoint.cursor, limit) as Parameters<typeof changeFromRow>[0][]
          ).map(changeFromRow);
          let count = 0;
          for (const change of changes) {
            if (!endpoint.enabledEvents.includes(change.type)) continue;
            count += insertDelivery.run({
              organizationId,
              id: randomUUID(),
              endpointId: id,
              messageId: change.id,
              type: change.type,
              sequence: change.sequence,
              payload: changePayload(change),
              status: 'pending',
              attempts: 0,
              nextAttemptAt: now,
              createdAt: now,
            }).changes;
          }
          const last = changes[changes.length - 1];
          if (last) moveCursor.run(last.sequence, organizationId, id);
          return count;
        });
      }
      return created;
    },
    insertDelivery(delivery) {
      return queue.run(() => {
        insertDelivery.run({
          organizationId: delivery.organizationId,
          id: delivery.id,
          endpointId: delivery.endpointId,
          messageId: delivery.messageId,
          type: delivery.type,
          sequence: delivery.sequence,
          payload: delivery.payload,
          status: delivery.status,
          attempts: delivery.attempts,
          nextAttemptAt: delivery.nextAttemptAt,
          createdAt: delivery.createdAt,
        });
      });
    },
    async listDeliveries(organizationId, endpointId, limit) {
      return (selectDeliveries.all(organizationId, endpointId, limit) as DeliveryRow[]).map(toDelivery);
    },
    async findDelivery(organizationId, endpointId, id) {
      const row = selectDelivery.get(organizationId, endpointId, id) as DeliveryRow | undefined;
      return row && toDelivery(row);
    },
    retryDelivery(organizationId, endpointId, id, now) {
      return queue.run(() => {
        if (retry.run(now, organizationId, endpointId, id).changes === 0) return undefined;
        return toDelivery(selectDelivery.get(organizationId, endpointId, id) as DeliveryRow);
      });
    },

    claimDue(now, leaseUntil, limit) {
      // A round after every commit usually finds nothing due: it then takes no place in a group.
      if (anyDue.get(now, now) === undefined) return Promise.resolve([]);
      return queue.run(() => {
        const rows = due.all(now, now, limit) as Array<{
          organization_id: string;
          id: string;
          url: string;
          secret: string;
          previous_secret: string | null;
          previous_secret_expires_at: string | null;
        }>;
        return rows.map((row): ClaimedDelivery => {
          const leaseToken = randomUUID();
          lease.run(leaseUntil, leaseToken, row.organization_id, row.id);
          return {
            delivery: toDelivery(selectDeliveryById.get(row.organization_id, row.id) as DeliveryRow),
            url: row.url,
            secrets: {
              current: row.secret,
              previous: row.previous_secret,
              previousExpiresAt: row.previous_secret_expires_at,
            },
            leaseToken,
          };
        });
      });
    },
    recordAttempt(claim, attempt) {
      return queue.run(() => {
        const { organizationId, id, endpointId } = claim.delivery;
        const recorded = recordDelivery.run({
          organizationId,
          id,
          leaseToken: claim.leaseToken,
          status: attempt.status,
          nextAttemptAt: attempt.nextAttemptAt,
          at: attempt.at,
          statusCode: attempt.statusCode,
          error: attempt.error,
          responseBody: attempt.responseBody,
        });
        if (recorded.changes === 0) return false;
        const verdict = attempt.endpoint;
        if (verdict.outcome === 'healthy') endpointHealthy.run(organizationId, endpointId);
        else if (verdict.outcome === 'disable')
          disable.run(verdict.reason, attempt.at, organizationId, endpointId);
        else {
          endpointFailing.run(attempt.at, organizationId, endpointId);
          disableIfFailingSince.run(
            'Deliveries failed for 3 days without a success.',
            attempt.at,
            organizationId,
            endpointId,
            verdict.disableIfFailingSince,
          );
        }
        return true;
      });
    },
    release(claim) {
      return queue.run(() => {
        releaseLease.run(claim.delivery.organizationId, claim.delivery.id, claim.leaseToken);
      });
    },
    async queueStats() {
      const row = stats.get() as { pending: number; oldest: string | null };
      return { pending: row.pending, oldestPendingAt: row.oldest };
    },
  };
}
