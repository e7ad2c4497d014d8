/**
 * The mail dispatcher (D25). Each round it claims due mails under a lease and sends them through the
 * transport, at most `concurrency` at a time; a failure is retried on the schedule, with jitter, and
 * after the last delay the mail is marked failed. Every instance may run one: claims never overlap,
 * and a lease that runs out (its instance died mid-attempt) makes the mail due again, with the same
 * Message-ID, so delivery is at least once and a receiver can drop a duplicate.
 */
import type { MailAddress, MailStatus, OutboxMail } from '../domain/mail.js';
import { outgoingMail } from '../domain/mail.js';
import { nextAttemptDelay } from '../domain/retry-schedule.js';
import type { EventRepository } from '../ports/event-repository.js';
import type { ClaimedMail, MailOutbox } from '../ports/mail-outbox.js';
import type { MailTransport } from '../ports/mail-transport.js';
import type { Store } from '../ports/store.js';
import { type ClaimLoop, createClaimLoop } from './claim-loop.js';
import type { AppDeps } from './deps.js';

/** What one attempt came to: `retry` (failed, another attempt is scheduled) or `failed` (given up). */
export type MailAttemptResult = 'sent' | 'retry' | 'failed';

export interface MailAttemptReport {
  result: MailAttemptResult;
  mail: OutboxMail;
  /** Attempts made so far, this one included. */
  attempts: number;
  /** The transport's short code for a failure (never the server's full answer, which may name people). */
  reason: string | null;
}

export interface MailDispatcherOptions {
  transport: MailTransport;
  /** MAIL_FROM. */
  from: MailAddress;
  /** Delays between attempts, in ms (MAIL_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
  /** How long one attempt may take (default 60 s); its lease outlasts it. */
  attemptTimeoutMs?: number;
  /** How often to look for work when there was none (default 1 s): mail queued by other instances. */
  pollIntervalMs?: number;
  /** Attempts in flight at once, and so SMTP connections (default 4). */
  concurrency?: number;
  /** Jitter source, [0, 1) (default Math.random). */
  random?: () => number;
  /** Called after each recorded attempt (metrics, the log). */
  onAttempt?: (report: MailAttemptReport) => void;
  /** Called when a round fails (the database is down, …); the dispatcher keeps going. */
  onError?: (error: unknown) => void;
}

/** start, wake (this instance just committed mail), round, idle, stop: see claim-loop.ts. */
export type MailDispatcher = ClaimLoop;

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;
/** A lease outlasts the attempt's timeout by this much, so a slow database cannot let two instances send. */
const LEASE_MARGIN_MS = 10_000;

export function createMailDispatcher(deps: AppDeps, options: MailDispatcherOptions): MailDispatcher {
  const concurrency = options.concurrency ?? 4;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const random = options.random ?? Math.random;

  async function attempt(claim: ClaimedMail): Promise<void> {
    const outcome = await options.transport.send(outgoingMail(claim.mail, options.from), attemptTimeoutMs);
    const at = deps.clock.now();
    const attempts = claim.mail.attempts + 1;
    let status: MailStatus = 'sent';
    let nextAttemptAt: string | null = null;
    let result: MailAttemptResult = 'sent';
    if (outcome.kind === 'failed') {
      const delay = nextAttemptDelay(options.retrySchedule, attempts, random());
      status = delay === undefined ? 'failed' : 'pending';
      result = delay === undefined ? 'failed' : 'retry';
      nextAttemptAt = delay === undefined ? null : new Date(at.getTime() + delay).toISOString();
    }
    const recorded = await deps.store.mail.recordAttempt(claim, {
      at: at.toISOString(),
      status,
      nextAttemptAt,
      error: outcome.kind === 'failed' ? outcome.error : null,
    });
    if (recorded) {
      options.onAttempt?.({
        result,
        mail: claim.mail,
        attempts,
        reason: outcome.kind === 'failed' ? outcome.reason : null,
      });
    }
  }

  return createClaimLoop({
    concurrency,
    pollIntervalMs,
    claim(room) {
      const now = deps.clock.now();
      const leaseUntil = new Date(now.getTime() + attemptTimeoutMs + LEASE_MARGIN_MS).toISOString();
      return deps.store.mail.claimDue(now.toISOString(), leaseUntil, room);
    },
    attempt,
    onError: options.onError,
  });
}

/**
 * The store as the use cases should get it when a dispatcher runs in this process: every commit that
 * queued mail (an event write carrying mails, or an enqueue) wakes the dispatcher at once, instead of
 * at its next poll. Nothing else changes.
 */
export function wakingOnQueuedMail(store: Store, wake: () => void): Store {
  let events: EventRepository | undefined;
  let mail: MailOutbox | undefined;
  const wrapEvents = (inner: EventRepository): EventRepository => ({
    ...inner,
    async insert(write, idempotency) {
      const result = await inner.insert(write, idempotency);
      if (write.mails && write.mails.length > 0) wake();
      return result;
    },
    async update(organizationId, id, change) {
      let queued = false;
      const result = await inner.update(organizationId, id, (current, stored) => {
        const write = change(current, stored);
        queued = write?.mails !== undefined && write.mails.length > 0;
        return write;
      });
      if (queued) wake();
      return result;
    },
    async updateSourcing(organizationId, id, change) {
      let queued = false;
      const result = await inner.updateSourcing(organizationId, id, (current, stored, sourcing) => {
        const write = change(current, stored, sourcing);
        queued = write !== undefined && write.mails.length > 0;
        return write;
      });
      if (queued) wake();
      return result;
    },
  });
  const wrapMail = (inner: MailOutbox): MailOutbox => ({
    ...inner,
    async enqueue(mails) {
      await inner.enqueue(mails);
      if (mails.length > 0) wake();
    },
  });
  // Wrapped on first use: the store's repositories may exist only once it is migrated.
  return Object.create(store, {
    events: {
      enumerable: true,
      get() {
        events ??= wrapEvents(store.events);
        return events;
      },
    },
    mail: {
      enumerable: true,
      get() {
        mail ??= wrapMail(store.mail);
        return mail;
      },
    },
  }) as Store;
}
