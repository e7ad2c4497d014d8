import type { Database } from 'better-sqlite3';
import { ConflictError } from '../../domain/errors.js';
import type { DataTransfer, EventRecord, RecordBatch, RecordKind } from '../../ports/data-transfer.js';
import { eventRow } from './sqlite-event-repository.js';

interface Table {
  kind: RecordKind;
  /** Columns selected, as the record's field names. */
  select: string;
  from: string;
  /** The key, in order: export pages through the table by it. */
  key: string[];
}

const TABLES: Table[] = [
  {
    kind: 'organizations',
    select: 'id, name, created_at AS createdAt, event_count AS eventCount, change_sequence AS changeSequence',
    from: 'organizations',
    key: ['id'],
  },
  {
    kind: 'users',
    select: 'id, organization_id AS organizationId, email, name, active, created_at AS createdAt',
    from: 'users',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'groups',
    select: 'id, organization_id AS organizationId, name, created_at AS createdAt',
    from: 'groups',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'memberships',
    select: 'organization_id AS organizationId, group_id AS groupId, user_id AS userId, role',
    from: 'group_members',
    key: ['organization_id', 'group_id', 'user_id'],
  },
  {
    kind: 'apiKeys',
    select: `key_id AS keyId, organization_id AS organizationId, user_id AS userId, secret_hash AS secretHash,
      created_at AS createdAt, revoked_at AS revokedAt, last_used_at AS lastUsedAt`,
    from: 'api_keys',
    key: ['organization_id', 'key_id'],
  },
  {
    kind: 'events',
    select: 'organization_id, id, created_by, previous_status, document, etag',
    from: 'events',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'grants',
    select: 'organization_id AS organizationId, event_id AS eventId, user_id AS userId',
    from: 'event_grants',
    key: ['organization_id', 'event_id', 'user_id'],
  },
  {
    kind: 'idempotencyKeys',
    select: `organization_id AS organizationId, idempotency_key AS key, request_hash AS requestHash,
      event_id AS eventId, granted_to AS grantedTo, created_at AS createdAt`,
    from: 'idempotency_keys',
    key: ['organization_id', 'idempotency_key'],
  },
  {
    kind: 'passwords',
    select:
      'organization_id AS organizationId, user_id AS userId, password_hash AS passwordHash, updated_at AS updatedAt',
    from: 'user_passwords',
    key: ['organization_id', 'user_id'],
  },
  {
    kind: 'invites',
    select: `organization_id AS organizationId, id, user_id AS userId, token_hash AS tokenHash,
      created_at AS createdAt, expires_at AS expiresAt, used_at AS usedAt`,
    from: 'user_invites',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'sessions',
    select: `id, token_hash AS tokenHash, organization_id AS organizationId, user_id AS userId,
      created_at AS createdAt, last_seen_at AS lastSeenAt, expires_at AS expiresAt, user_agent AS userAgent,
      client_address AS clientAddress`,
    from: 'user_sessions',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'notificationOptOuts',
    select: 'organization_id AS organizationId, user_id AS userId, kind',
    from: 'notification_opt_outs',
    key: ['organization_id', 'user_id', 'kind'],
  },
  {
    kind: 'changes',
    select: `organization_id AS organizationId, sequence, id, event_id AS eventId, revision, type,
      occurred_at AS occurredAt, actor, changed_fields AS changedFields, diff, data, snapshot`,
    from: 'event_changes',
    key: ['organization_id', 'sequence'],
  },
  {
    kind: 'venues',
    select: `organization_id AS organizationId, id, name_key AS nameKey, city_key AS cityKey,
      archived_at AS archivedAt, document, created_at AS createdAt, updated_at AS updatedAt`,
    from: 'venues',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'venueRequests',
    select: `organization_id AS organizationId, id, event_id AS eventId, venue_id AS venueId, status,
      response_due_date AS responseDueDate, sent_at AS sentAt, viewed_at AS viewedAt, responded_at AS respondedAt,
      turn_down AS turnDown, decision, token_hash AS tokenHash, reminded_at AS remindedAt,
      reminder_settled_at AS reminderSettledAt, due_date_told_at AS dueDateToldAt, created_at AS createdAt,
      updated_at AS updatedAt`,
    from: 'venue_requests',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'proposals',
    select: `organization_id AS organizationId, id, event_id AS eventId, request_id AS requestId, revision,
      submitted_at AS submittedAt, submitted_by AS submittedBy, terms`,
    from: 'proposals',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'requestVersions',
    select: `organization_id AS organizationId, event_id AS eventId, version, sent_at AS sentAt, sent_by AS sentBy,
      message, changes, snapshot`,
    from: 'request_versions',
    key: ['organization_id', 'event_id', 'version'],
  },
  {
    kind: 'venueRequestLinks',
    select:
      'token_hash AS tokenHash, organization_id AS organizationId, request_id AS requestId, created_at AS createdAt',
    from: 'venue_request_links',
    key: ['token_hash'],
  },
  {
    kind: 'venueQuestions',
    select: `organization_id AS organizationId, id, event_id AS eventId, request_id AS requestId, venue_id AS venueId,
      text, asked_at AS askedAt, answer`,
    from: 'venue_questions',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'webhookEndpoints',
    select: `organization_id AS organizationId, id, url, enabled_events AS enabledEvents, status,
      disabled_reason AS disabledReason, secret, previous_secret AS previousSecret,
      previous_secret_expires_at AS previousSecretExpiresAt, cursor, failing_since AS failingSince,
      created_at AS createdAt, updated_at AS updatedAt`,
    from: 'webhook_endpoints',
    key: ['organization_id', 'id'],
  },
  {
    // Leases (locked_until, lease_token) stay behind: a delivery being attempted is due again on the target.
    kind: 'webhookDeliveries',
    select: `organization_id AS organizationId, id, endpoint_id AS endpointId, message_id AS messageId, type,
      sequence, payload, status, attempts, next_attempt_at AS nextAttemptAt, last_attempt_at AS lastAttemptAt,
      last_status_code AS lastStatusCode, last_error AS lastError, last_response_body AS lastResponseBody,
      created_at AS createdAt`,
    from: 'webhook_deliveries',
    key: ['organization_id', 'id'],
  },
  {
    // Leases stay behind here too: a mail being attempted is due again on the target.
    kind: 'mails',
    select: `organization_id AS organizationId, id, message_id AS messageId, recipient, recipient_name AS recipientName,
      reply_to AS replyTo, reply_to_name AS replyToName, subject, text_body AS textBody, html_body AS htmlBody, status,
      attempts, next_attempt_at AS nextAttemptAt, last_attempt_at AS lastAttemptAt, last_error AS lastError,
      created_at AS createdAt, sent_at AS sentAt`,
    from: 'mail_outbox',
    key: ['organization_id', 'id'],
  },
  {
    kind: 'serverSecrets',
    select: 'name, value, created_at AS createdAt',
    from: 'server_secrets',
    key: ['name'],
  },
];

type Row = Record<string, unknown>;

function toRecords(kind: RecordKind, rows: Row[]): RecordBatch {
  switch (kind) {
    case 'users':
      return { kind, records: rows.map((row) => ({ ...row, active: row.active === 1 })) as never };
    case 'events':
      return {
        kind,
        records: rows.map((row) => ({
          organizationId: row.organization_id as string,
          createdBy: row.created_by as string,
          previousStatus: row.previous_status as never,
          details: JSON.parse(row.document as string),
          etag: row.etag as string | null,
        })),
      };
    default:
      return { kind, records: rows as never };
  }
}

export function createSqliteDataTransfer(db: Database): DataTransfer {
  return {
    async *exportRecords(batchSize = 500) {
      // One read transaction: a consistent snapshot even while the service keeps writing (WAL).
      db.exec('BEGIN');
      try {
        for (const table of TABLES) {
          const order = table.key.join(', ');
          // The key is selected again under names of its own, to page by; they are dropped from the records.
          const keys = table.key.map((column, index) => `${column} AS k${index}`).join(', ');
          const head = `SELECT ${table.select}, ${keys} FROM ${table.from}`;
          const first = db.prepare(`${head} ORDER BY ${order} LIMIT ?`);
          const next = db.prepare(
            `${head} WHERE (${order}) > (${table.key.map(() => '?').join(', ')}) ORDER BY ${order} LIMIT ?`,
          );
          let after: unknown[] | undefined;
          for (;;) {
            const rows = (after ? next.all(...after, batchSize) : first.all(batchSize)) as Row[];
            if (rows.length === 0) break;
            const last = rows[rows.length - 1]!;
            after = table.key.map((_, index) => last[`k${index}`]);
            for (const row of rows) {
              for (let index = 0; index < table.key.length; index++) delete row[`k${index}`];
            }
            yield toRecords(table.kind, rows);
            if (rows.length < batchSize) break;
          }
        }
      } finally {
        if (db.inTransaction) db.exec('COMMIT');
      }
    },

    async importRecords(batches) {
      const statements = {
        organizations: db.prepare(
          `INSERT INTO organizations (id, name, created_at, event_count, change_sequence)
          VALUES (@id, @name, @createdAt, @eventCount, @changeSequence)`,
        ),
        users: db.prepare(`INSERT INTO users (organization_id, id, email, name, active, created_at)
          VALUES (@organizationId, @id, @email, @name, @active, @createdAt)`),
        groups: db.prepare(
          'INSERT INTO groups (organization_id, id, name, created_at) VALUES (@organizationId, @id, @name, @createdAt)',
        ),
        memberships: db.prepare(`INSERT INTO group_members (organization_id, group_id, user_id, role)
          VALUES (@organizationId, @groupId, @userId, @role)`),
        apiKeys: db.prepare(`INSERT INTO api_keys
          (organization_id, key_id, user_id, secret_hash, created_at, revoked_at, last_used_at)
          VALUES (@organizationId, @keyId, @userId, @secretHash, @createdAt, @revokedAt, @lastUsedAt)`),
        events: db.prepare(`INSERT INTO events
          (organization_id, id, created_by, created_at, updated_at, status, previous_status, document, etag, summary)
          VALUES (@organization_id, @id, @created_by, @created_at, @updated_at, @status, @previous_status, @document, @etag, @summary)`),
        grants: db.prepare(
          'INSERT INTO event_grants (organization_id, event_id, user_id) VALUES (@organizationId, @eventId, @userId)',
        ),
        idempotencyKeys: db.prepare(`INSERT INTO idempotency_keys
          (organization_id, idempotency_key, request_hash, event_id, granted_to, created_at)
          VALUES (@organizationId, @key, @requestHash, @eventId, @grantedTo, @createdAt)`),
        passwords:
          db.prepare(`INSERT INTO user_passwords (organization_id, user_id, password_hash, updated_at)
          VALUES (@organizationId, @userId, @passwordHash, @updatedAt)`),
        invites: db.prepare(`INSERT INTO user_invites
          (organization_id, id, user_id, token_hash, created_at, expires_at, used_at)
          VALUES (@organizationId, @id, @userId, @tokenHash, @createdAt, @expiresAt, @usedAt)`),
        sessions: db.prepare(`INSERT INTO user_sessions
          (organization_id, id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, client_address)
          VALUES (@organizationId, @id, @userId, @tokenHash, @createdAt, @lastSeenAt, @expiresAt, @userAgent, @clientAddress)`),
        notificationOptOuts: db.prepare(
          'INSERT INTO notification_opt_outs (organization_id, user_id, kind) VALUES (@organizationId, @userId, @kind)',
        ),
        changes: db.prepare(`INSERT INTO event_changes
          (organization_id, sequence, id, event_id, revision, type, occurred_at, actor, changed_fields, diff, data, snapshot)
          VALUES (@organizationId, @sequence, @id, @eventId, @revision, @type, @occurredAt, @actor, @changedFields,
            @diff, @data, @snapshot)`),
        venues: db.prepare(`INSERT INTO venues
          (organization_id, id, name_key, city_key, archived_at, document, created_at, updated_at)
          VALUES (@organizationId, @id, @nameKey, @cityKey, @archivedAt, @document, @createdAt, @updatedAt)`),
        venueRequests: db.prepare(`INSERT INTO venue_requests
          (organization_id, id, event_id, venue_id, status, response_due_date, sent_at, viewed_at, responded_at,
            turn_down, decision, token_hash, reminded_at, reminder_settled_at, due_date_told_at, created_at,
            updated_at)
          VALUES (@organizationId, @id, @eventId, @venueId, @status, @responseDueDate, @sentAt, @viewedAt,
            @respondedAt, @turnDown, @decision, @tokenHash, @remindedAt, @reminderSettledAt, @dueDateToldAt,
            @createdAt, @updatedAt)`),
        proposals: db.prepare(`INSERT INTO proposals
          (organization_id, id, event_id, request_id, revision, submitted_at, submitted_by, terms)
          VALUES (@organizationId, @id, @eventId, @requestId, @revision, @submittedAt, @submittedBy, @terms)`),
        requestVersions: db.prepare(`INSERT INTO request_versions
          (organization_id, event_id, version, sent_at, sent_by, message, changes, snapshot)
          VALUES (@organizationId, @eventId, @version, @sentAt, @sentBy, @message, @changes, @snapshot)`),
        venueRequestLinks:
          db.prepare(`INSERT INTO venue_request_links (token_hash, organization_id, request_id, created_at)
          VALUES (@tokenHash, @organizationId, @requestId, @createdAt)`),
        venueQuestions: db.prepare(`INSERT INTO venue_questions
          (organization_id, id, event_id, request_id, venue_id, text, asked_at, answer)
          VALUES (@organizationId, @id, @eventId, @requestId, @venueId, @text, @askedAt, @answer)`),
        webhookEndpoints: db.prepare(`INSERT INTO webhook_endpoints
          (organization_id, id, url, enabled_events, status, disabled_reason, secret, previous_secret,
            previous_secret_expires_at, cursor, failing_since, created_at, updated_at)
          VALUES (@organizationId, @id, @url, @enabledEvents, @status, @disabledReason, @secret, @previousSecret,
            @previousSecretExpiresAt, @cursor, @failingSince, @createdAt, @updatedAt)`),
        // No lease: whatever the source was attempting is due again here.
        webhookDeliveries: db.prepare(`INSERT INTO webhook_deliveries
          (organization_id, id, endpoint_id, message_id, type, sequence, payload, status, attempts, next_attempt_at,
            last_attempt_at, last_status_code, last_error, last_response_body, created_at)
          VALUES (@organizationId, @id, @endpointId, @messageId, @type, @sequence, @payload, @status, @attempts,
            @nextAttemptAt, @lastAttemptAt, @lastStatusCode, @lastError, @lastResponseBody, @createdAt)`),
        mails: db.prepare(`INSERT INTO mail_outbox
          (organization_id, id, message_id, recipient, recipient_name, reply_to, reply_to_name, subject, text_body,
            html_body, status, attempts, next_attempt_at, last_attempt_at, last_error, created_at, sent_at)
          VALUES (@organizationId, @id, @messageId, @recipient, @recipientName, @replyTo, @replyToName, @subject,
            @textBody, @htmlBody, @status, @attempts, @nextAttemptAt, @lastAttemptAt, @lastError, @createdAt, @sentAt)`),
        // A target that made its own secret before the copy takes the source's: tokens already handed out stay valid.
        serverSecrets:
          db.prepare(`INSERT INTO server_secrets (name, value, created_at) VALUES (@name, @value, @createdAt)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`),
      };
      // The copy is the only writer while it runs, so its transaction can span the awaits of the source.
      db.exec('BEGIN IMMEDIATE');
      try {
        if ((db.prepare('SELECT COUNT(*) FROM organizations').pluck().get() as number) > 0) {
          throw new ConflictError(
            'The target database already holds data; copy-data fills an empty one only.',
          );
        }
        for await (const batch of batches) {
          for (const record of batch.records) {
            if (batch.kind === 'events') {
              const event = record as EventRecord;
              statements.events.run(
                eventRow(event, { text: JSON.stringify(event.details), etag: event.etag }),
              );
            } else if (batch.kind === 'users') {
              const user = record as { active: boolean };
              statements.users.run({ ...user, active: user.active ? 1 : 0 });
            } else statements[batch.kind].run(record);
          }
        }
        db.exec('COMMIT');
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
  };
}
