import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ChangeType } from '../../domain/changes.js';
import {
  changePayload,
  mergeEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../domain/webhooks.js';
import type { ClaimedDelivery, WebhookRepository } from '../../ports/webhook-repository.js';
import { CHANGE_COLUMNS, changeFromRow } from './postgres-event-repository.js';
import { inTransaction, query } from './postgres-transaction.js';

interface EndpointRow {
  organization_id: string;
  id: string;
  url: string;
  enabled_events: string;
  status: WebhookEndpoint['status'];
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  cursor: string;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface DeliveryRow {
  organization_id: string;
  id: string;
  endpoint_id: string;
  message_id: string;
  type: string;
  sequence: string | null;
  payload: string;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_body: string | null;
  created_at: Date;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

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
    previousExpiresAt: iso(row.previous_secret_expires_at),
  },
  cursor: Number(row.cursor),
  failingSince: iso(row.failing_since),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  organizationId: row.organization_id,
  endpointId: row.endpoint_id,
  messageId: row.message_id,
  type: row.type,
  sequence: row.sequence === null ? null : Number(row.sequence),
  payload: row.payload,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: iso(row.next_attempt_at),
  lastAttemptAt: iso(row.last_attempt_at),
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastResponseBody: row.last_response_body,
  createdAt: row.created_at.toISOString(),
});

const DELIVERY_COLUMNS =
  'd.organization_id, d.id, d.endpoint_id, d.message_id, d.type, d.sequence, d.payload, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_status_code, d.last_error, d.last_response_body, d.created_at';

const INSERT_DELIVERY = `
  INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, type, sequence, payload, status,
    attempts, next_attempt_at, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  ON CONFLICT (organization_id, endpoint_id, message_id) DO NOTHING`;

/**
 * Several instances share the queue. Moving an endpoint's cursor locks its row (SKIP LOCKED: another
 * instance busy with it is left alone), so each change becomes one delivery. A claim leases deliveries
 * (`locked_until`, `lease_token`), taken with FOR UPDATE SKIP LOCKED, so each attempt is made by one
 * instance; a lease that runs out (its instance died) makes the delivery due again.
 */
export function createPostgresWebhookRepository(pool: Pool): WebhookRepository {
  const find = async (organizationId: string, id: string) => {
    const { rows } = await query<EndpointRow>(
      pool,
      'SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2',
      [organizationId, id],
    );
    return rows[0] && toEndpoint(rows[0]);
  };

  return {
    async createEndpoint(endpoint) {
      // The cursor is the last number handed out; a change numbered but not yet committed gets a
      // higher one, so it is still delivered once it commits.
      const { rows } = await query<EndpointRow>(
        pool,
        `INSERT INTO webhook_endpoints (organization_id, id, url, enabled_events, status, disabled_reason, secret,
           previous_secret, previous_secret_expires_at, cursor, failing_since, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, o.change_sequence, $10, $11, $12 FROM organizations o WHERE o.id = $1
         RETURNING *`,
        [
          endpoint.organizationId,
          endpoint.id,
          endpoint.url,
          JSON.stringify(endpoint.enabledEvents),
          endpoint.status,
          endpoint.disabledReason,
          endpoint.secrets.current,
          endpoint.secrets.previous,
          endpoint.secrets.previousExpiresAt,
          endpoint.failingSince,
          endpoint.createdAt,
          endpoint.updatedAt,
        ],
      );
      return toEndpoint(rows[0]!);
    },
    async listEndpoints(organizationId) {
      const { rows } = await query<EndpointRow>(
        pool,
        'SELECT * FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id',
        [organizationId],
      );
      return rows.map(toEndpoint);
    },
    findEndpoint: find,
    updateEndpoint(organizationId, id, changes) {
      return inTransaction(pool, async (client) => {
        const { rows } = await query<EndpointRow>(
          client,
          'SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 FOR UPDATE',
          [organizationId, id],
        );
        if (!rows[0]) return undefined;
        const next = mergeEndpoint(toEndpoint(rows[0]), changes);
        await query(
          client,
          `UPDATE webhook_endpoints SET url = $3, enabled_events = $4, status = $5, disabled_reason = $6, secret = $7,
             previous_secret = $8, previous_secret_expires_at = $9, failing_since = $10, updated_at = $11
           WHERE organization_id = $1 AND id = $2`,
          [
            organizationId,
            id,
            next.url,
            JSON.stringify(next.enabledEvents),
            next.status,
            next.disabledReason,
            next.secrets.current,
            next.secrets.previous,
            next.secrets.previousExpiresAt,
            next.failingSince,
            next.updatedAt,
          ],
        );
        return next;
      });
    },
    async deleteEndpoint(organizationId, id) {
      const { rowCount } = await query(
        pool,
        'DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2',
        [organizationId, id],
      );
      return rowCount > 0;
    },

    async enqueueChanges(now, limit) {
      const { rows: endpoints } = await query<{ organization_id: string; id: string }>(
        pool,
        `SELECT e.organization_id, e.id FROM webhook_endpoints e JOIN organizations o ON o.id = e.organization_id
         WHERE e.status = 'enabled' AND o.change_sequence > e.cursor`,
      );
      let created = 0;
      for (const { organization_id: organizationId, id } of endpoints) {
        created += await inTransaction(pool, async (client) => {
          const { rows } = await query<EndpointRow>(
            client,
            `SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 AND status = 'enabled'
             FOR UPDATE SKIP LOCKED`,
            [organizationId, id],
          );
          if (!rows[0]) return 0;
          const endpoint = toEndpoint(rows[0]);
          // Numbers are taken under the organization row's lock, held to commit: every change up to
          // the highest one visible has committed, so reading past the cursor never skips one.
          const { rows: changeRows } = await query<Parameters<typeof changeFromRow>[0]>(
            client,
            `SELECT ${CHANGE_COLUMNS}
             FROM event_changes WHERE organization_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`,
            [organizationId, endpoint.cursor, limit],
          );
          const changes = changeRows.map(changeFromRow);
          let count = 0;
          for (const change of changes) {
            if (!endpoint.enabledEvents.includes(change.type)) continue;
            const inserted = await query(client, INSERT_DELIVERY, [
              organizationId,
              randomUUID(),
              id,
              change.id,
              change.type,
              change.sequence,
              changePayload(change),
              'pending',
              0,
              now,
              now,
            ]);
            count += inserted.rowCount;
          }
          const last = changes[changes.length - 1];
          if (last) {
            await query(
              client,
              'UPDATE webhook_endpoints SET cursor = $3 WHERE organization_id = $1 AND id = $2',
              [organizationId, id, last.sequence],
            );
          }
          return count;
        });
      }
      return created;
    },
    async insertDelivery(delivery) {
      await query(pool, INSERT_DELIVERY, [
        delivery.organizationId,
        delivery.id,
        delivery.endpointId,
        delivery.messageId,
        delivery.type,
        delivery.sequence,
        delivery.payload,
        delivery.status,
        delivery.attempts,
        delivery.nextAttemptAt,
        delivery.createdAt,
      ]);
    },
    async listDeliveries(organizationId, endpointId, limit) {
      const { rows } = await query<DeliveryRow>(
        pool,
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.organization_id = $1 AND d.endpoint_id = $2
         ORDER BY d.created_at DESC, d.sequence DESC NULLS FIRST, d.id DESC LIMIT $3`,
        [organizationId, endpointId, limit],
      );
      return rows.map(toDelivery);
    },
    async findDelivery(organizationId, endpointId, id) {
      const { rows } = await query<DeliveryRow>(
        pool,
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
         WHERE d.organization_id = $1 AND d.endpoint_id = $2 AND d.id = $3`,
        [organizationId, endpointId, id],
      );
      return rows[0] && toDelivery(rows[0]);
    },
    async retryDelivery(organizationId, endpointId, id, now) {
      const { rows } = await query<DeliveryRow>(
        pool,
        `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $4, locked_until = NULL, lease_token = NULL
         WHERE d.organization_id = $1 AND d.endpoint_id = $2 AND d.id = $3 RETURNING ${DELIVERY_COLUMNS}`,
        [organizationId, endpointId, id, now],
      );
      return rows[0] && toDelivery(rows[0]);
    },

    async claimDue(now, leaseUntil, limit) {
      const leaseToken = randomUUID();
      const { rows } = await query<
        DeliveryRow & {
          url: string;
          secret: string;
          previous_secret: string | null;
          previous_secret_expires_at: Date | null;
        }
      >(
        pool,
        `WITH due AS (
           SELECT d.organization_id, d.id FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)
             AND e.status = 'enabled'
           ORDER BY d.next_attempt_at LIMIT $3
           FOR UPDATE OF d SKIP LOCKED
         )
         UPDATE webhook_deliveries d SET locked_until = $2, lease_token = $4
         FROM due, webhook_endpoints e
         WHERE d.organization_id = due.organization_id AND d.id = due.id
           AND e.organization_id = d.organization_id AND e.id = d.endpoint_id
         RETURNING ${DELIVERY_COLUMNS}, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`,
        [now, leaseUntil, limit, leaseToken],
      );
      return rows.map(
        (row): ClaimedDelivery => ({
          delivery: toDelivery(row),
          url: row.url,
          secrets: {
            current: row.secret,
            previous: row.previous_secret,
            previousExpiresAt: iso(row.previous_secret_expires_at),
          },
          leaseToken,
        }),
      );
    },
    recordAttempt(claim, attempt) {
      return inTransaction(pool, async (client) => {
        const { organizationId, id, endpointId } = claim.delivery;
        const recorded = await query(
          client,
          `UPDATE webhook_deliveries SET status = $4, attempts = attempts + 1, next_attempt_at = $5, last_attempt_at = $6,
             last_status_code = $7, last_error = $8, last_response_body = $9, locked_until = NULL, lease_token = NULL
           WHERE organization_id = $1 AND id = $2 AND lease_token = $3`,
          [
            organizationId,
            id,
            claim.leaseToken,
            attempt.status,
            attempt.nextAttemptAt,
            attempt.at,
            attempt.statusCode,
            attempt.error,
            attempt.responseBody,
          ],
        );
        if (recorded.rowCount === 0) return false;
        const verdict = attempt.endpoint;
        if (verdict.outcome === 'healthy') {
          await query(
            client,
            'UPDATE webhook_endpoints SET failing_since = NULL WHERE organization_id = $1 AND id = $2 AND failing_since IS NOT NULL',
            [organizationId, endpointId],
          );
        } else if (verdict.outcome === 'disable') {
          await query(
            client,
            `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $3, updated_at = $4
             WHERE organization_id = $1 AND id = $2 AND status = 'enabled'`,
            [organizationId, endpointId, verdict.reason, attempt.at],
          );
        } else {
          await query(
            client,
            `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $3),
               status = CASE WHEN COALESCE(failing_since, $3) <= $4 THEN 'disabled' ELSE status END,
               disabled_reason = CASE WHEN COALESCE(failing_since, $3) <= $4
                 THEN 'Deliveries failed for 3 days without a success.' ELSE disabled_reason END
             WHERE organization_id = $1 AND id = $2`,
            [organizationId, endpointId, attempt.at, verdict.disableIfFailingSince],
          );
        }
        return true;
      });
    },
    async release(claim) {
      await query(
        pool,
        'UPDATE webhook_deliveries SET locked_until = NULL, lease_token = NULL WHERE organization_id = $1 AND id = $2 AND lease_token = $3',
        [claim.delivery.organizationId, claim.delivery.id, claim.leaseToken],
      );
    },
    async queueStats() {
      const { rows } = await query<{ pending: string; oldest: Date | null }>(
        pool,
        `SELECT COUNT(*) AS pending, MIN(d.created_at) AS oldest FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id
         WHERE d.status = 'pending' AND e.status = 'enabled'`,
      );
      return { pending: Number(rows[0]!.pending), oldestPendingAt: iso(rows[0]!.oldest) };
    },
  };
}
