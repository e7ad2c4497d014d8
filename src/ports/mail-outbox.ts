/**
 * The mail outbox (D25): every mail is stored here, in the transaction of the change it tells of
 * (`EventWrite.mails`) or on its own (`enqueue`), and sent from here by the mail dispatcher.
 */
import type { MailStatus, OutboxMail } from '../domain/mail.js';

/** A mail claimed for one attempt. */
export interface ClaimedMail {
  mail: OutboxMail;
  /** Proves the claim when the attempt is recorded: a claim whose lease ran out and was taken again loses. */
  leaseToken: string;
}

/** What the dispatcher decided after an attempt. */
export interface MailAttempt {
  at: string;
  /** `sent`: accepted by the SMTP server (text and HTML are erased); `pending`: retry at `nextAttemptAt`; `failed`: given up. */
  status: MailStatus;
  nextAttemptAt: string | null;
  /** Why the attempt failed, or null when it succeeded. */
  error: string | null;
}

export interface MailQueueStats {
  /** Mails waiting for an attempt, all organizations and instances together. */
  pending: number;
  /** When the oldest of them was created, or null. */
  oldestPendingAt: string | null;
}

export interface MailListQuery {
  /** Only mails to this address, compared case-insensitively. */
  to?: string;
  limit: number;
}

export interface MailOutbox {
  /** Stores mails not tied to an event's change (an invitation), in one transaction of their own. */
  enqueue(mails: readonly OutboxMail[]): Promise<void>;
  /** Every organization's mails, newest first (the operator's `eventplan mail list`). */
  list(query: MailListQuery): Promise<OutboxMail[]>;
  find(organizationId: string, id: string): Promise<OutboxMail | undefined>;
  /**
   * Claims up to `limit` pending mails due at `now`, oldest due first, each for one attempt: until
   * `leaseUntil` no other claim, by any instance, takes them.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedMail[]>;
  /**
   * Records an attempt of a claimed mail and ends the claim; false (and nothing written) when the
   * claim was lost. A mail recorded `sent` keeps its recipient, subject and times, and loses its text
   * and HTML, which may hold links that grant access.
   */
  recordAttempt(claim: ClaimedMail, attempt: MailAttempt): Promise<boolean>;
  /** Hands a claimed mail back without an attempt (shutdown before it was sent). */
  release(claim: ClaimedMail): Promise<void>;
  stats(): Promise<MailQueueStats>;
}
