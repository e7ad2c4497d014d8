import type { Pool, PoolClient } from 'pg';
import { ConflictError } from '../../domain/errors.js';
import type { DataTransfer, RecordBatch, RecordKind } from '../../ports/data-transfer.js';
import { type EventRow, eventValues, fromEventRow } from './postgres-event-repository.js';
import {
  isoText,
  KEY_COLUMNS,
  type KeyRow,
  toKey,
  toUser,
  USER_COLUMNS,
  type UserRow,
} from './postgres-identity-repository.js';
import { translateError } from './postgres-transaction.js';

/** A row as the driver returns it (text, numbers, booleans, Dates); each table's toRecord reads its own. */
// biome-ignore lint/suspicious/noExplicitAny: driver rows are untyped; toRecord gives each its shape.
type Row = Record<string, any>;
type RecordOf<K extends RecordKind> = Extract<RecordBatch, { kind: K }>['records'][number];

interface Table<K extends RecordKind> {
  kind: K;
  name: string;
  /** Columns in insert order, with their types for unnest(). */
  columns: Array<[name: string, type: string]>;
  select: string;
  key: string[];
  /** What an insert does with a row already there (nothing special: the copy fails). */
  onConflict?: string;
  toRecord(row: Row): RecordOf<K>;
  toValues(record: RecordOf<K>): unknown[];
}

type AnyTable = { [K in RecordKind]: Table<K> }[RecordKind];
const iso = (value: Date) => value.toISOString();

const TABLES: AnyTable[] = [
  {
    kind: 'organizations',
    name: 'organizations',
    columns: [
      ['id', 'text'],
      ['name', 'text'],
      ['created_at', 'timestamptz'],
      ['event_count', 'integer'],
      ['change_sequence', 'bigint'],
    ],
    select: 'id, name, created_at, event_count, change_sequence',
    key: ['id'],
    toRecord: (row) => ({
      id: row.id,
      name: row.name,
      createdAt: iso(row.created_at),
      eventCount: row.event_count,
      changeSequence: Number(row.change_sequence),
    }),
    toValues: (record) => [
      record.id,
      record.name,
      record.createdAt,
      record.eventCount,
      record.changeSequence,
    ],
  },
  {
    kind: 'users',
    name: 'users',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['email', 'text'],
      ['name', 'text'],
      ['active', 'boolean'],
      ['created_at', 'timestamptz'],
    ],
    select: USER_COLUMNS,
    key: ['organization_id', 'id'],
    toRecord: (row) => toUser(row as UserRow),
    toValues: (user) => [user.organizationId, user.id, user.email, user.name, user.active, user.createdAt],
  },
  {
    kind: 'groups',
    name: 'groups',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['name', 'text'],
      ['created_at', 'timestamptz'],
    ],
    select: 'id, organization_id, name, created_at',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      createdAt: iso(row.created_at),
    }),
    toValues: (group) => [group.organizationId, group.id, group.name, group.createdAt],
  },
  {
    kind: 'memberships',
    name: 'group_members',
    columns: [
      ['organization_id', 'text'],
      ['group_id', 'text'],
      ['user_id', 'text'],
      ['role', 'text'],
    ],
    select: 'organization_id, group_id, user_id, role',
    key: ['organization_id', 'group_id', 'user_id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      groupId: row.group_id,
      userId: row.user_id,
      role: row.role,
    }),
    toValues: (member) => [member.organizationId, member.groupId, member.userId, member.role],
  },
  {
    kind: 'apiKeys',
    name: 'api_keys',
    columns: [
      ['organization_id', 'text'],
      ['key_id', 'text'],
      ['user_id', 'text'],
      ['secret_hash', 'text'],
      ['created_at', 'timestamptz'],
      ['revoked_at', 'timestamptz'],
      ['last_used_at', 'timestamptz'],
    ],
    select: KEY_COLUMNS,
    key: ['organization_id', 'key_id'],
    toRecord: (row) => toKey(row as KeyRow),
    toValues: (key) => [
      key.organizationId,
      key.keyId,
      key.userId,
      key.secretHash,
      key.createdAt,
      key.revokedAt,
      key.lastUsedAt,
    ],
  },
  {
    kind: 'events',
    name: 'events',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['created_by', 'text'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
      ['status', 'text'],
      ['previous_status', 'text'],
      ['document', 'text'],
      ['summary', 'text'],
      ['etag', 'text'],
    ],
    select: 'organization_id, id, created_by, previous_status, document, etag',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({ ...fromEventRow(row as EventRow), etag: (row as EventRow).etag }),
    toValues: (event) => eventValues(event, { text: JSON.stringify(event.details), etag: event.etag }),
  },
  {
    kind: 'grants',
    name: 'event_grants',
    columns: [
      ['organization_id', 'text'],
      ['event_id', 'text'],
      ['user_id', 'text'],
    ],
    select: 'organization_id, event_id, user_id',
    key: ['organization_id', 'event_id', 'user_id'],
    toRecord: (row) => ({ organizationId: row.organization_id, eventId: row.event_id, userId: row.user_id }),
    toValues: (grant) => [grant.organizationId, grant.eventId, grant.userId],
  },
  {
    kind: 'idempotencyKeys',
    name: 'idempotency_keys',
    columns: [
      ['organization_id', 'text'],
      ['idempotency_key', 'text'],
      ['request_hash', 'text'],
      ['event_id', 'text'],
      ['granted_to', 'integer'],
      ['created_at', 'timestamptz'],
    ],
    select: 'organization_id, idempotency_key, request_hash, event_id, granted_to, created_at',
    key: ['organization_id', 'idempotency_key'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      key: row.idempotency_key,
      requestHash: row.request_hash,
      eventId: row.event_id,
      grantedTo: row.granted_to,
      createdAt: iso(row.created_at),
    }),
    toValues: (record) => [
      record.organizationId,
      record.key,
      record.requestHash,
      record.eventId,
      record.grantedTo,
      record.createdAt,
    ],
  },
  {
    kind: 'passwords',
    name: 'user_passwords',
    columns: [
      ['organization_id', 'text'],
      ['user_id', 'text'],
      ['password_hash', 'text'],
      ['updated_at', 'timestamptz'],
    ],
    select: 'organization_id, user_id, password_hash, updated_at',
    key: ['organization_id', 'user_id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      userId: row.user_id,
      passwordHash: row.password_hash,
      updatedAt: iso(row.updated_at),
    }),
    toValues: (record) => [record.organizationId, record.userId, record.passwordHash, record.updatedAt],
  },
  {
    kind: 'invites',
    name: 'user_invites',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['user_id', 'text'],
      ['token_hash', 'text'],
      ['created_at', 'timestamptz'],
      ['expires_at', 'timestamptz'],
      ['used_at', 'timestamptz'],
    ],
    select: 'organization_id, id, user_id, token_hash, created_at, expires_at, used_at',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      userId: row.user_id,
      tokenHash: row.token_hash,
      createdAt: iso(row.created_at),
      expiresAt: iso(row.expires_at),
      usedAt: isoText(row.used_at),
    }),
    toValues: (invite) => [
      invite.organizationId,
      invite.id,
      invite.userId,
      invite.tokenHash,
      invite.createdAt,
      invite.expiresAt,
      invite.usedAt,
    ],
  },
  {
    kind: 'sessions',
    name: 'user_sessions',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['user_id', 'text'],
      ['token_hash', 'text'],
      ['created_at', 'timestamptz'],
      ['last_seen_at', 'timestamptz'],
      ['expires_at', 'timestamptz'],
      ['user_agent', 'text'],
      ['client_address', 'text'],
    ],
    select:
      'organization_id, id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, client_address',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      id: row.id,
      tokenHash: row.token_hash,
      organizationId: row.organization_id,
      userId: row.user_id,
      createdAt: iso(row.created_at),
      lastSeenAt: iso(row.last_seen_at),
      expiresAt: iso(row.expires_at),
      userAgent: row.user_agent,
      clientAddress: row.client_address,
    }),
    toValues: (session) => [
      session.organizationId,
      session.id,
      session.userId,
      session.tokenHash,
      session.createdAt,
      session.lastSeenAt,
      session.expiresAt,
      session.userAgent,
      session.clientAddress,
    ],
  },
  {
    kind: 'notificationOptOuts',
    name: 'notification_opt_outs',
    columns: [
      ['organization_id', 'text'],
      ['user_id', 'text'],
      ['kind', 'text'],
    ],
    select: 'organization_id, user_id, kind',
    key: ['organization_id', 'user_id', 'kind'],
    toRecord: (row) => ({ organizationId: row.organization_id, userId: row.user_id, kind: row.kind }),
    toValues: (optOut) => [optOut.organizationId, optOut.userId, optOut.kind],
  },
  {
    kind: 'changes',
    name: 'event_changes',
    columns: [
      ['organization_id', 'text'],
      ['sequence', 'bigint'],
      ['id', 'text'],
      ['event_id', 'text'],
      ['revision', 'integer'],
      ['type', 'text'],
      ['occurred_at', 'timestamptz'],
      ['actor', 'text'],
      ['changed_fields', 'text'],
      ['diff', 'text'],
      ['data', 'text'],
      ['snapshot', 'text'],
    ],
    select:
      'organization_id, sequence, id, event_id, revision, type, occurred_at, actor, changed_fields, diff, data, snapshot',
    key: ['organization_id', 'sequence'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      sequence: Number(row.sequence),
      id: row.id,
      eventId: row.event_id,
      revision: row.revision,
      type: row.type,
      occurredAt: iso(row.occurred_at),
      actor: row.actor,
      changedFields: row.changed_fields,
      diff: row.diff,
      data: row.data,
      snapshot: row.snapshot,
    }),
    toValues: (change) => [
      change.organizationId,
      change.sequence,
      change.id,
      change.eventId,
      change.revision,
      change.type,
      change.occurredAt,
      change.actor,
      change.changedFields,
      change.diff,
      change.data,
      change.snapshot,
    ],
  },
  {
    kind: 'venues',
    name: 'venues',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['name_key', 'text'],
      ['city_key', 'text'],
      ['archived_at', 'timestamptz'],
      ['document', 'text'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    select: 'organization_id, id, name_key, city_key, archived_at, document, created_at, updated_at',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      nameKey: row.name_key,
      cityKey: row.city_key,
      archivedAt: isoText(row.archived_at),
      document: row.document,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }),
    toValues: (venue) => [
      venue.organizationId,
      venue.id,
      venue.nameKey,
      venue.cityKey,
      venue.archivedAt,
      venue.document,
      venue.createdAt,
      venue.updatedAt,
    ],
  },
  {
    kind: 'venueRequests',
    name: 'venue_requests',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['event_id', 'text'],
      ['venue_id', 'text'],
      ['status', 'text'],
      ['response_due_date', 'text'],
      ['sent_at', 'timestamptz'],
      ['viewed_at', 'timestamptz'],
      ['responded_at', 'timestamptz'],
      ['turn_down', 'text'],
      ['decision', 'text'],
      ['token_hash', 'text'],
      ['reminded_at', 'timestamptz'],
      ['reminder_settled_at', 'timestamptz'],
      ['due_date_told_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    select: `organization_id, id, event_id, venue_id, status, response_due_date, sent_at, viewed_at, responded_at,
      turn_down, decision, token_hash, reminded_at, reminder_settled_at, due_date_told_at, created_at, updated_at`,
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      eventId: row.event_id,
      venueId: row.venue_id,
      status: row.status,
      responseDueDate: row.response_due_date,
      sentAt: isoText(row.sent_at),
      viewedAt: isoText(row.viewed_at),
      respondedAt: isoText(row.responded_at),
      turnDown: row.turn_down,
      decision: row.decision,
      tokenHash: row.token_hash,
      remindedAt: isoText(row.reminded_at),
      reminderSettledAt: isoText(row.reminder_settled_at),
      dueDateToldAt: isoText(row.due_date_told_at),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }),
    toValues: (request) => [
      request.organizationId,
      request.id,
      request.eventId,
      request.venueId,
      request.status,
      request.responseDueDate,
      request.sentAt,
      request.viewedAt,
      request.respondedAt,
      request.turnDown,
      request.decision,
      request.tokenHash,
      request.remindedAt,
      request.reminderSettledAt,
      request.dueDateToldAt,
      request.createdAt,
      request.updatedAt,
    ],
  },
  {
    kind: 'proposals',
    name: 'proposals',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['event_id', 'text'],
      ['request_id', 'text'],
      ['revision', 'integer'],
      ['submitted_at', 'timestamptz'],
      ['submitted_by', 'text'],
      ['terms', 'text'],
    ],
    select: 'organization_id, id, event_id, request_id, revision, submitted_at, submitted_by, terms',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      eventId: row.event_id,
      requestId: row.request_id,
      revision: row.revision,
      submittedAt: iso(row.submitted_at),
      submittedBy: row.submitted_by,
      terms: row.terms,
    }),
    toValues: (proposal) => [
      proposal.organizationId,
      proposal.id,
      proposal.eventId,
      proposal.requestId,
      proposal.revision,
      proposal.submittedAt,
      proposal.submittedBy,
      proposal.terms,
    ],
  },
  {
    kind: 'requestVersions',
    name: 'request_versions',
    columns: [
      ['organization_id', 'text'],
      ['event_id', 'text'],
      ['version', 'integer'],
      ['sent_at', 'timestamptz'],
      ['sent_by', 'text'],
      ['message', 'text'],
      ['changes', 'text'],
      ['snapshot', 'text'],
    ],
    select: 'organization_id, event_id, version, sent_at, sent_by, message, changes, snapshot',
    key: ['organization_id', 'event_id', 'version'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      eventId: row.event_id,
      version: row.version,
      sentAt: iso(row.sent_at),
      sentBy: row.sent_by,
      message: row.message,
      changes: row.changes,
      snapshot: row.snapshot,
    }),
    toValues: (version) => [
      version.organizationId,
      version.eventId,
      version.version,
      version.sentAt,
      version.sentBy,
      version.message,
      version.changes,
      version.snapshot,
    ],
  },
  {
    kind: 'venueRequestLinks',
    name: 'venue_request_links',
    columns: [
      ['token_hash', 'text'],
      ['organization_id', 'text'],
      ['request_id', 'text'],
      ['created_at', 'timestamptz'],
    ],
    select: 'token_hash, organization_id, request_id, created_at',
    key: ['token_hash'],
    toRecord: (row) => ({
      tokenHash: row.token_hash,
      organizationId: row.organization_id,
      requestId: row.request_id,
      createdAt: iso(row.created_at),
    }),
    toValues: (link) => [link.tokenHash, link.organizationId, link.requestId, link.createdAt],
  },
  {
    kind: 'venueQuestions',
    name: 'venue_questions',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['event_id', 'text'],
      ['request_id', 'text'],
      ['venue_id', 'text'],
      ['text', 'text'],
      ['asked_at', 'timestamptz'],
      ['answer', 'text'],
    ],
    select: 'organization_id, id, event_id, request_id, venue_id, text, asked_at, answer',
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      eventId: row.event_id,
      requestId: row.request_id,
      venueId: row.venue_id,
      text: row.text,
      askedAt: iso(row.asked_at),
      answer: row.answer,
    }),
    toValues: (question) => [
      question.organizationId,
      question.id,
      question.eventId,
      question.requestId,
      question.venueId,
      question.text,
      question.askedAt,
      question.answer,
    ],
  },
  {
    kind: 'webhookEndpoints',
    name: 'webhook_endpoints',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['url', 'text'],
      ['enabled_events', 'text'],
      ['status', 'text'],
      ['disabled_reason', 'text'],
      ['secret', 'text'],
      ['previous_secret', 'text'],
      ['previous_secret_expires_at', 'timestamptz'],
      ['cursor', 'bigint'],
      ['failing_since', 'timestamptz'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    select: `organization_id, id, url, enabled_events, status, disabled_reason, secret, previous_secret,
      previous_secret_expires_at, cursor, failing_since, created_at, updated_at`,
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      url: row.url,
      enabledEvents: row.enabled_events,
      status: row.status,
      disabledReason: row.disabled_reason,
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretExpiresAt: isoText(row.previous_secret_expires_at),
      cursor: Number(row.cursor),
      failingSince: isoText(row.failing_since),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }),
    toValues: (endpoint) => [
      endpoint.organizationId,
      endpoint.id,
      endpoint.url,
      endpoint.enabledEvents,
      endpoint.status,
      endpoint.disabledReason,
      endpoint.secret,
      endpoint.previousSecret,
      endpoint.previousSecretExpiresAt,
      endpoint.cursor,
      endpoint.failingSince,
      endpoint.createdAt,
      endpoint.updatedAt,
    ],
  },
  {
    // Leases (locked_until, lease_token) stay behind: a delivery being attempted is due again on the target.
    kind: 'webhookDeliveries',
    name: 'webhook_deliveries',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['endpoint_id', 'text'],
      ['message_id', 'text'],
      ['type', 'text'],
      ['sequence', 'bigint'],
      ['payload', 'text'],
      ['status', 'text'],
      ['attempts', 'integer'],
      ['next_attempt_at', 'timestamptz'],
      ['last_attempt_at', 'timestamptz'],
      ['last_status_code', 'integer'],
      ['last_error', 'text'],
      ['last_response_body', 'text'],
      ['created_at', 'timestamptz'],
    ],
    select: `organization_id, id, endpoint_id, message_id, type, sequence, payload, status, attempts,
      next_attempt_at, last_attempt_at, last_status_code, last_error, last_response_body, created_at`,
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      endpointId: row.endpoint_id,
      messageId: row.message_id,
      type: row.type,
      sequence: row.sequence === null ? null : Number(row.sequence),
      payload: row.payload,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: isoText(row.next_attempt_at),
      lastAttemptAt: isoText(row.last_attempt_at),
      lastStatusCode: row.last_status_code,
      lastError: row.last_error,
      lastResponseBody: row.last_response_body,
      createdAt: iso(row.created_at),
    }),
    toValues: (delivery) => [
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
      delivery.lastAttemptAt,
      delivery.lastStatusCode,
      delivery.lastError,
      delivery.lastResponseBody,
      delivery.createdAt,
    ],
  },
  {
    // Leases stay behind here too: a mail being attempted is due again on the target.
    kind: 'mails',
    name: 'mail_outbox',
    columns: [
      ['organization_id', 'text'],
      ['id', 'text'],
      ['message_id', 'text'],
      ['recipient', 'text'],
      ['recipient_name', 'text'],
      ['reply_to', 'text'],
      ['reply_to_name', 'text'],
      ['subject', 'text'],
      ['text_body', 'text'],
      ['html_body', 'text'],
      ['status', 'text'],
      ['attempts', 'integer'],
      ['next_attempt_at', 'timestamptz'],
      ['last_attempt_at', 'timestamptz'],
      ['last_error', 'text'],
      ['created_at', 'timestamptz'],
      ['sent_at', 'timestamptz'],
    ],
    select: `organization_id, id, message_id, recipient, recipient_name, reply_to, reply_to_name, subject, text_body,
      html_body, status, attempts, next_attempt_at, last_attempt_at, last_error, created_at, sent_at`,
    key: ['organization_id', 'id'],
    toRecord: (row) => ({
      organizationId: row.organization_id,
      id: row.id,
      messageId: row.message_id,
      recipient: row.recipient,
      recipientName: row.recipient_name,
      replyTo: row.reply_to,
      replyToName: row.reply_to_name,
      subject: row.subject,
      textBody: row.text_body,
      htmlBody: row.html_body,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: isoText(row.next_attempt_at),
      lastAttemptAt: isoText(row.last_attempt_at),
      lastError: row.last_error,
      createdAt: iso(row.created_at),
      sentAt: isoText(row.sent_at),
    }),
    toValues: (mail) => [
      mail.organizationId,
      mail.id,
      mail.messageId,
      mail.recipient,
      mail.recipientName,
      mail.replyTo,
      mail.replyToName,
      mail.subject,
      mail.textBody,
      mail.htmlBody,
      mail.status,
      mail.attempts,
      mail.nextAttemptAt,
      mail.lastAttemptAt,
      mail.lastError,
      mail.createdAt,
      mail.sentAt,
    ],
  },
  {
    kind: 'serverSecrets',
    name: 'server_secrets',
    columns: [
      ['name', 'text'],
      ['value', 'text'],
      ['created_at', 'timestamptz'],
    ],
    select: 'name, value, created_at',
    key: ['name'],
    // A target that made its own secret before the copy takes the source's: tokens already handed out stay valid.
    onConflict: 'ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at',
    toRecord: (row) => ({ name: row.name, value: row.value, createdAt: iso(row.created_at) }),
    toValues: (secret) => [secret.name, secret.value, secret.createdAt],
  },
];

const TABLE_OF = new Map(TABLES.map((table) => [table.kind, table]));

/** One INSERT per batch: each column travels as one array parameter and unnest() zips them into rows. */
async function insertBatch(client: PoolClient, table: AnyTable, records: unknown[]) {
  const columns = table.columns.map((): unknown[] => []);
  for (const record of records) {
    (table.toValues as (record: unknown) => unknown[])(record).forEach((value, index) => {
      columns[index]!.push(value);
    });
  }
  const names = table.columns.map(([name]) => name).join(', ');
  const arrays = table.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  await client.query(
    `INSERT INTO ${table.name} (${names}) SELECT * FROM unnest(${arrays}) ${table.onConflict ?? ''}`,
    columns,
  );
}

async function connect(pool: Pool): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw translateError(error);
  }
}

/** `pool` must have no client-side read timeout: an export or import runs as long as the data takes. */
export function createPostgresDataTransfer(pool: Pool): DataTransfer {
  return {
    async *exportRecords(batchSize = 500) {
      const client = await connect(pool);
      let finished = false;
      try {
        // One snapshot for the whole export, with no time limit on its statements.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query('SET LOCAL statement_timeout = 0');
        for (const table of TABLES) {
          const order = table.key.join(', ');
          const keys = table.key.map((column, index) => `${column} AS k${index}`).join(', ');
          const head = `SELECT ${table.select}, ${keys} FROM ${table.name}`;
          let after: unknown[] | undefined;
          for (;;) {
            const { rows } = after
              ? await client.query<Row>(
                  `${head} WHERE (${order}) > (${table.key.map((_, index) => `$${index + 1}`).join(', ')})
                   ORDER BY ${order} LIMIT $${table.key.length + 1}`,
                  [...after, batchSize],
                )
              : await client.query<Row>(`${head} ORDER BY ${order} LIMIT $1`, [batchSize]);
            if (rows.length === 0) break;
            const last = rows[rows.length - 1]!;
            after = table.key.map((_, index) => last[`k${index}`]);
            const toRecord = table.toRecord as (row: Row) => unknown;
            yield { kind: table.kind, records: rows.map((row) => toRecord(row)) } as RecordBatch;
            if (rows.length < batchSize) break;
          }
        }
        await client.query('COMMIT');
        finished = true;
      } catch (error) {
        throw translateError(error);
      } finally {
        // Also reached when the reader stops early: the snapshot is let go before the connection is.
        let broken: Error | undefined;
        if (!finished) {
          await client.query('ROLLBACK').catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        }
        client.release(broken);
      }
    },

    async importRecords(batches) {
      const client = await connect(pool);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL statement_timeout = 0');
        // Two copies into one empty database would otherwise both pass the emptiness check.
        await client.query('LOCK TABLE organizations IN EXCLUSIVE MODE');
        const { rows } = await client.query('SELECT 1 FROM organizations LIMIT 1');
        if (rows.length > 0) {
          throw new ConflictError(
            'The target database already holds data; copy-data fills an empty one only.',
          );
        }
        for await (const batch of batches) {
          if (batch.records.length > 0) await insertBatch(client, TABLE_OF.get(batch.kind)!, batch.records);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw translateError(error);
      } finally {
        client.release(broken);
      }
    },
  };
}
