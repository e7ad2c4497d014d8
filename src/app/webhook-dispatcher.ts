/**
 * The webhook dispatcher (D18). Each round it turns new change-log records into deliveries (the
 * endpoints' cursors move in the same transactions), claims due deliveries under a lease and sends
 * them, at most `concurrency` at a time. Every instance may run one: claims never overlap, and a
 * lease that runs out (its instance died mid-attempt) makes the delivery due again.
 */
import { nextAttemptDelay } from '../domain/retry-schedule.js';
import { FAILING_LIMIT_MS, judgeAttempt, RESPONSE_BODY_LIMIT } from '../domain/webhooks.js';
import type { AttemptRecord, ClaimedDelivery } from '../ports/webhook-repository.js';
import type { WebhookTransport } from '../ports/webhook-transport.js';
import { type ClaimLoop, createClaimLoop } from './claim-loop.js';
import type { AppDeps } from './deps.js';
import { webhookHeaders } from './webhook-signature.js';

export type AttemptResult = 'succeeded' | 'failed' | 'gone';

export interface DispatcherOptions {
  transport: WebhookTransport;
  /** Delays between attempts, in ms (WEBHOOK_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
  /** WEBHOOK_TIMEOUT_MS: an attempt's lease outlasts it. */
  timeoutMs: number;
  /** How often to look for work when there was none (default 200 ms). */
  pollIntervalMs?: number;
  /** Attempts in flight at once (default 16). */
  concurrency?: number;
  /** Jitter source, [0, 1) (default Math.random). */
  random?: () => number;
  /** Called after each recorded attempt (metrics). */
  onAttempt?: (result: AttemptResult, delivery: ClaimedDelivery['delivery']) => void;
  /** Called when a round fails (the database is down, …); the dispatcher keeps going. */
  onError?: (error: unknown) => void;
}

/** start, wake (a change was just committed by this instance), round, idle, stop: see claim-loop.ts. */
export type Dispatcher = ClaimLoop;

/** Changes turned into deliveries per endpoint per round. */
const ENQUEUE_BATCH = 500;
/** A lease outlasts the attempt's timeout by this much, so a slow database cannot let two instances send. */
const LEASE_MARGIN_MS = 10_000;

export function createDispatcher(deps: AppDeps, options: DispatcherOptions): Dispatcher {
  const concurrency = options.concurrency ?? 16;
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  const random = options.random ?? Math.random;

  async function attempt(claim: ClaimedDelivery): Promise<void> {
    const { delivery } = claim;
    const sentAt = deps.clock.now();
    const outcome = await options.transport.send({
      url: claim.url,
      headers: {
        'user-agent': 'eventplan-webhooks/1.0',
        ...webhookHeaders(claim.secrets, delivery.messageId, delivery.payload, sentAt),
      },
      body: delivery.payload,
    });
    const at = deps.clock.now();
    const verdict = judgeAttempt(outcome);
    const attempts = delivery.attempts + 1;
    const record: Omit<AttemptRecord, 'status' | 'nextAttemptAt' | 'endpoint'> = {
      at: at.toISOString(),
      statusCode: outcome.kind === 'response' ? outcome.statusCode : null,
      error: outcome.kind === 'error' ? outcome.error : null,
      responseBody: outcome.kind === 'response' ? outcome.body.slice(0, RESPONSE_BODY_LIMIT) : null,
    };
    let full: AttemptRecord;
    let result: AttemptResult;
    if (verdict.succeeded) {
      full = { ...record, status: 'succeeded', nextAttemptAt: null, endpoint: { outcome: 'healthy' } };
      result = 'succeeded';
    } else if (verdict.gone) {
      full = {
        ...record,
        status: 'failed',
        nextAttemptAt: null,
        endpoint: { outcome: 'disable', reason: 'The endpoint answered 410 Gone.' },
      };
      result = 'gone';
    } else {
      const delay = nextAttemptDelay(options.retrySchedule, attempts, random());
      full = {
        ...record,
        status: delay === undefined ? 'failed' : 'pending',
        nextAttemptAt: delay === undefined ? null : new Date(at.getTime() + delay).toISOString(),
        endpoint: {
          outcome: 'failing',
          disableIfFailingSince: new Date(at.getTime() - FAILING_LIMIT_MS).toISOString(),
        },
      };
      result = 'failed';
    }
    if (await deps.store.webhooks.recordAttempt(claim, full)) options.onAttempt?.(result, delivery);
  }

  return createClaimLoop({
    concurrency,
    pollIntervalMs,
    async beforeClaiming() {
      await deps.store.webhooks.enqueueChanges(deps.clock.now().toISOString(), ENQUEUE_BATCH);
    },
    claim(room) {
      const now = deps.clock.now();
      const leaseUntil = new Date(now.getTime() + options.timeoutMs + LEASE_MARGIN_MS).toISOString();
      return deps.store.webhooks.claimDue(now.toISOString(), leaseUntil, room);
    },
    attempt,
    onError: options.onError,
  });
}
