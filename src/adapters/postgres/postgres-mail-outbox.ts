import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { MailStatus, OutboxMail } from '../../domain/mail.js';
import type { ClaimedMail, MailOutbox } from '../../ports/mail-outbox.js';
import { query } from './postgres-transaction.js';

interface MailRow {
  organization_id: string;
  id: string;
  message_id: string;
  recipient: string;
  recipient_name: string | null;
  reply_to: string | null;
  reply_to_name: string | null;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  status: MailStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

const MAIL_COLUMNS =
  'm.organization_id, m.id, m.message_id, m.recipient, m.recipient_name, m.reply_to, m.reply_to_name, m.subject, m.text_body, m.html_body, m.status, m.attempts, m.next_attempt_at, m.last_attempt_at, m.last_error, m.created_at, m.sent_at';

const toMail = (row: MailRow): OutboxMail => ({
  organizationId: row.organization_id,
  id: row.id,
  messageId: row.message_id,
  to: { address: row.recipient, name: row.recipient_name },
  replyTo: row.reply_to === null ? null : { address: row.reply_to, name: row.reply_to_name },
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: iso(row.next_attempt_at),
  lastAttemptAt: iso(row.last_attempt_at),
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
  sentAt: iso(row.sent_at),
});

/** Any number of mails in one statement: one array per column, unnested into rows. */
const INSERT_MAILS = `
  INSERT INTO mail_outbox (organization_id, id, message_id, recipient, recipient_name, reply_to, reply_to_name,
    subject, text_body, html_body, status, attempts, next_attempt_at, last_attempt_at, last_error, created_at, sent_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::timestamptz[], $14::timestamptz[], $15::text[],
    $16::timestamptz[], $17::timestamptz[])`;

/**
 * Stores mails on `db`: inside the caller's transaction when it is a transaction's client, so a mail
 * commits, or rolls back, with the change it tells of.
 */
export async function insertMails(db: Pool | PoolClient, mails: readonly OutboxMail[]): Promise<void> {
  if (mails.length === 0) return;
  const column = <T>(read: (mail: OutboxMail) => T) => mails.map(read);
  await query(db, INSERT_MAILS, [
    column((mail) => mail.organizationId),
    column((mail) => mail.id),
    column((mail) => mail.messageId),
    column((mail) => mail.to.address),
    column((mail) => mail.to.name),
    column((mail) => mail.replyTo?.address ?? null),
    column((mail) => mail.replyTo?.name ?? null),
    column((mail) => mail.subject),
    column((mail) => mail.text),
    column((mail) => mail.html),
    column((mail) => mail.status),
    column((mail) => mail.attempts),
    column((mail) => mail.nextAttemptAt),
    column((mail) => mail.lastAttemptAt),
    column((mail) => mail.lastError),
    column((mail) => mail.createdAt),
    column((mail) => mail.sentAt),
  ]);
}

/**
 * Several instances share the outbox. A claim leases mails (`locked_until`, `lease_token`), taken
 * with FOR UPDATE SKIP LOCKED, so each attempt is made by one instance; a lease that runs out (its
 * instance died mid-attempt) makes the mail due again.
 */
export function createPostgresMailOutbox(pool: Pool): MailOutbox {
  return {
    async enqueue(mails) {
      // One statement is one transaction: every mail or none.
      await insertMails(pool, mails);
    },
    async list({ to, limit }) {
      const { rows } = await query<MailRow>(
        pool,
        `SELECT ${MAIL_COLUMNS} FROM mail_outbox m
         WHERE ($1::text IS NULL OR lower(m.recipient) = lower($1))
         ORDER BY m.created_at DESC, m.id DESC LIMIT $2`,
        [to ?? null, limit],
      );
      return rows.map(toMail);
    },
    async find(organizationId, id) {
      const { rows } = await query<MailRow>(
        pool,
        `SELECT ${MAIL_COLUMNS} FROM mail_outbox m WHERE m.organization_id = $1 AND m.id = $2`,
        [organizationId, id],
      );
      return rows[0] && toMail(rows[0]);
    },
    async claimDue(now, leaseUntil, limit) {
      const leaseToken = randomUUID();
      const { rows } = await query<MailRow>(
        pool,
        `WITH due AS (
           SELECT organization_id, id FROM mail_outbox
           WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
           ORDER BY next_attempt_at LIMIT $3
           FOR UPDATE SKIP LOCKED
         )
         UPDATE mail_outbox m SET locked_until = $2, lease_token = $4
         FROM due WHERE m.organization_id = due.organization_id AND m.id = due.id
         RETURNING ${MAIL_COLUMNS}`,
        [now, leaseUntil, limit, leaseToken],
      );
      return rows.map((row): ClaimedMail => ({ mail: toMail(row), leaseToken }));
    },
    async recordAttempt(claim, attempt) {
      const { rowCount } = await query(
        pool,
        `UPDATE mail_outbox SET status = $4, attempts = attempts + 1, next_attempt_at = $5, last_attempt_at = $6,
           last_error = $7, locked_until = NULL, lease_token = NULL,
           sent_at = CASE WHEN $4 = 'sent' THEN $6 ELSE sent_at END,
           text_body = CASE WHEN $4 = 'sent' THEN NULL ELSE text_body END,
           html_body = CASE WHEN $4 = 'sent' THEN NULL ELSE html_body END
         WHERE organization_id = $1 AND id = $2 AND lease_token = $3`,
        [
          claim.mail.organizationId,
          claim.mail.id,
          claim.leaseToken,
          attempt.status,
          attempt.nextAttemptAt,
          attempt.at,
          attempt.error,
        ],
      );
      return rowCount > 0;
    },
    async release(claim) {
      await query(
        pool,
        'UPDATE mail_outbox SET locked_until = NULL, lease_token = NULL WHERE organization_id = $1 AND id = $2 AND lease_token = $3',
        [claim.mail.organizationId, claim.mail.id, claim.leaseToken],
      );
    },
    async stats() {
      const { rows } = await query<{ pending: string; oldest: Date | null }>(
        pool,
        "SELECT COUNT(*) AS pending, MIN(created_at) AS oldest FROM mail_outbox WHERE status = 'pending'",
      );
      return { pending: Number(rows[0]!.pending), oldestPendingAt: iso(rows[0]!.oldest) };
    },
  };
}
