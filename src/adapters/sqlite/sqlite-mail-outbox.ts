import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { MailStatus, OutboxMail } from '../../domain/mail.js';
import type { ClaimedMail, MailOutbox } from '../../ports/mail-outbox.js';
import type { WriteQueue } from './write-queue.js';

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
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

const MAIL_COLUMNS =
  'organization_id, id, message_id, recipient, recipient_name, reply_to, reply_to_name, subject, text_body, html_body, status, attempts, next_attempt_at, last_attempt_at, last_error, created_at, sent_at';

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
  nextAttemptAt: row.next_attempt_at,
  lastAttemptAt: row.last_attempt_at,
  lastError: row.last_error,
  createdAt: row.created_at,
  sentAt: row.sent_at,
});

/**
 * Stores mails inside the caller's transaction (a write-queue job): the event repositories call it
 * so a mail commits, or rolls back, with the change it tells of.
 */
export function prepareMailInsert(db: Database): (mails: readonly OutboxMail[]) => void {
  const insert = db.prepare(`
    INSERT INTO mail_outbox (organization_id, id, message_id, recipient, recipient_name, reply_to, reply_to_name,
      subject, text_body, html_body, status, attempts, next_attempt_at, last_attempt_at, last_error, created_at, sent_at)
    VALUES (@organizationId, @id, @messageId, @recipient, @recipientName, @replyTo, @replyToName, @subject, @text,
      @html, @status, @attempts, @nextAttemptAt, @lastAttemptAt, @lastError, @createdAt, @sentAt)`);
  return (mails) => {
    for (const mail of mails) {
      insert.run({
        organizationId: mail.organizationId,
        id: mail.id,
        messageId: mail.messageId,
        recipient: mail.to.address,
        recipientName: mail.to.name,
        replyTo: mail.replyTo?.address ?? null,
        replyToName: mail.replyTo?.name ?? null,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        status: mail.status,
        attempts: mail.attempts,
        nextAttemptAt: mail.nextAttemptAt,
        lastAttemptAt: mail.lastAttemptAt,
        lastError: mail.lastError,
        createdAt: mail.createdAt,
        sentAt: mail.sentAt,
      });
    }
  };
}

/** One dispatcher per process on SQLite; leases still matter, so a crash mid-attempt is retried after a restart. */
export function createSqliteMailOutbox(db: Database, queue: WriteQueue): MailOutbox {
  const insertMails = prepareMailInsert(db);
  const selectNewest = db.prepare(
    `SELECT ${MAIL_COLUMNS} FROM mail_outbox ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const selectNewestTo = db.prepare(
    `SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE lower(recipient) = lower(?) ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const selectOne = db.prepare(
    `SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE organization_id = ? AND id = ?`,
  );
  const due = db.prepare(`
    SELECT organization_id, id FROM mail_outbox
    WHERE status = 'pending' AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
    ORDER BY next_attempt_at LIMIT ?`);
  const lease = db.prepare(
    'UPDATE mail_outbox SET locked_until = ?, lease_token = ? WHERE organization_id = ? AND id = ?',
  );
  const record = db.prepare(`
    UPDATE mail_outbox SET status = @status, attempts = attempts + 1, next_attempt_at = @nextAttemptAt,
      last_attempt_at = @at, last_error = @error, locked_until = NULL, lease_token = NULL,
      sent_at = CASE WHEN @status = 'sent' THEN @at ELSE sent_at END,
      text_body = CASE WHEN @status = 'sent' THEN NULL ELSE text_body END,
      html_body = CASE WHEN @status = 'sent' THEN NULL ELSE html_body END
    WHERE organization_id = @organizationId AND id = @id AND lease_token = @leaseToken`);
  const releaseLease = db.prepare(
    'UPDATE mail_outbox SET locked_until = NULL, lease_token = NULL WHERE organization_id = ? AND id = ? AND lease_token = ?',
  );
  const stats = db.prepare(
    "SELECT COUNT(*) AS pending, MIN(created_at) AS oldest FROM mail_outbox WHERE status = 'pending'",
  );

  return {
    enqueue(mails) {
      return queue.run(() => insertMails(mails));
    },
    async list({ to, limit }) {
      const rows = (to === undefined ? selectNewest.all(limit) : selectNewestTo.all(to, limit)) as MailRow[];
      return rows.map(toMail);
    },
    async find(organizationId, id) {
      const row = selectOne.get(organizationId, id) as MailRow | undefined;
      return row && toMail(row);
    },
    claimDue(now, leaseUntil, limit) {
      return queue.run(() => {
        const rows = due.all(now, now, limit) as Array<{ organization_id: string; id: string }>;
        return rows.map((row): ClaimedMail => {
          const leaseToken = randomUUID();
          lease.run(leaseUntil, leaseToken, row.organization_id, row.id);
          return { mail: toMail(selectOne.get(row.organization_id, row.id) as MailRow), leaseToken };
        });
      });
    },
    recordAttempt(claim, attempt) {
      return queue.run(
        () =>
          record.run({
            organizationId: claim.mail.organizationId,
            id: claim.mail.id,
            leaseToken: claim.leaseToken,
            status: attempt.status,
            nextAttemptAt: attempt.nextAttemptAt,
            at: attempt.at,
            error: attempt.error,
          }).changes > 0,
      );
    },
    release(claim) {
      return queue.run(() => {
        releaseLease.run(claim.mail.organizationId, claim.mail.id, claim.leaseToken);
      });
    },
    async stats() {
      const row = stats.get() as { pending: number; oldest: string | null };
      return { pending: row.pending, oldestPendingAt: row.oldest };
    },
  };
}
