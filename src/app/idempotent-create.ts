/**
 * Idempotent create, with Stripe's semantics. Within 24 hours, the same Idempotency-Key (per
 * organization) with the same body replays the first answer, and no second event is made; with a
 * different body it is refused (422); while its first request is still running, 409. A request
 * refused with 400 leaves no record, because the record is written in the event's own transaction.
 */
import { createHash } from 'node:crypto';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../domain/errors.js';
import { IdempotencyKeyTakenError, type IdempotencyRecord } from '../ports/idempotency-repository.js';
import type { Store } from '../ports/store.js';
import { canonicalJson } from './canonical-json.js';
import type { AppDeps, Principal } from './deps.js';
import { createEvent } from './events.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Expired records are deleted at most this often per store, after a successful create. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Keys whose first request this process is still handling, per store. */
const inFlight = new WeakMap<Store, Set<string>>();
const lastPurge = new WeakMap<Store, number>();

export interface IdempotentCreation {
  id: string;
  grantedTo: number;
  /** True when this is the replay of an earlier create with the same key and body. */
  replayed: boolean;
}

export async function createEventIdempotently(
  deps: AppDeps,
  principal: Principal,
  body: unknown,
  key: string,
): Promise<IdempotentCreation> {
  let running = inFlight.get(deps.store);
  if (!running) {
    running = new Set();
    inFlight.set(deps.store, running);
  }
  const scope = `${principal.organizationId}\n${key}`;
  if (running.has(scope)) throw new IdempotencyKeyInUseError();
  running.add(scope);
  try {
    const requestHash = digest(body);
    const now = deps.clock.now().getTime();
    const notBefore = new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString();
    const earlier = await deps.store.idempotency.find(principal.organizationId, key, notBefore);
    if (earlier) return replay(earlier, requestHash);
    try {
      const created = await createEvent(deps, principal, body, {
        key,
        requestHash,
        expiredBefore: notBefore,
      });
      purgeExpired(deps.store, now, notBefore);
      return { ...created, replayed: false };
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError)) throw error;
      // Another instance recorded the same key first, between our look-up and our write.
      const winner = await deps.store.idempotency.find(principal.organizationId, key, notBefore);
      if (!winner) throw new IdempotencyKeyInUseError();
      return replay(winner, requestHash);
    }
  } finally {
    running.delete(scope);
  }
}

function replay(record: IdempotencyRecord, requestHash: string): IdempotentCreation {
  if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
  return { id: record.eventId, grantedTo: record.grantedTo, replayed: true };
}

/**
 * Housekeeping, off the request path: the event is committed by now, so a failed purge must not turn
 * its 201 into an error. Expired records are ignored by look-ups anyway; a failed purge is retried
 * after the next create.
 */
function purgeExpired(store: Store, now: number, before: string): void {
  const previous = lastPurge.get(store) ?? 0;
  if (now - previous < PURGE_INTERVAL_MS) return;
  lastPurge.set(store, now);
  Promise.resolve()
    .then(() => store.idempotency.deleteExpired(before))
    .catch(() => lastPurge.set(store, previous));
}

/** SHA-256 of the body as canonical JSON (object keys sorted), so key order does not matter. */
export function digest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}
