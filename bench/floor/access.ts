/**
 * Who is calling and whether they may (D11, D13): the API key checked against its stored hash on
 * every request, then the request counted against the key's rate limit (or the client address's, for
 * a key that does not work).
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { Exchange } from './exchange.js';
import type { RateLimitDecision } from './gcra.js';
import { Refusal } from './refusal.js';

const KEY = /^evp_([0-9A-Za-z]{16})_([0-9A-Za-z]{32,128})$/;
/** Compared against when no key has the id, so an unknown id costs what a wrong secret costs. */
const NO_KEY_HASH = Buffer.alloc(32);
/** lastUsedAt is written at most this often per key. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Principal {
  organizationId: string;
  userId: string;
  keyId: string;
}

/** A key's row as every read of it selects it, with its user's state. */
export interface Credentials {
  organizationId: string;
  userId: string;
  secretHash: string;
  revoked: boolean;
  userActive: boolean;
}

export interface ApiKey {
  header: string | undefined;
  keyId: string | undefined;
  secret: string;
}

/** The key a request sends; `keyId` is undefined when there is none or it is not shaped like one. */
export function apiKeyOf(exchange: Exchange): ApiKey {
  const header = exchange.request.headers['x-api-key'];
  const text = typeof header === 'string' ? header : undefined;
  const match = text === undefined ? null : KEY.exec(text);
  return { header: text, keyId: match?.[1], secret: match?.[2] ?? '' };
}

export type Limiter = (key: string) => RateLimitDecision;

/**
 * The caller, once the key matched its stored hash, neither it nor its user is switched off, and the
 * rate limit let the request through; otherwise throws the 401 or 429 (D5's order: a 429 first).
 */
export function admit(
  exchange: Exchange,
  limiter: Limiter,
  key: ApiKey,
  credentials: Credentials | undefined,
): Principal {
  let principal: Principal | undefined;
  if (key.keyId !== undefined) {
    const expected = credentials ? Buffer.from(credentials.secretHash, 'hex') : NO_KEY_HASH;
    const actual = hash('sha256', key.secret, 'buffer');
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
    if (credentials && matches && !credentials.revoked && credentials.userActive)
      principal = {
        organizationId: credentials.organizationId,
        userId: credentials.userId,
        keyId: key.keyId,
      };
  }
  const decision = limiter(
    principal ? `key:${principal.keyId}` : `addr:${exchange.request.socket.remoteAddress}`,
  );
  exchange.decision = decision;
  if (!decision.allowed)
    throw new Refusal(
      429,
      'rate_limited',
      `Rate limit exceeded; retry after ${decision.retryAfterSeconds} second(s).`,
    );
  if (!principal)
    throw new Refusal(
      401,
      'unauthorized',
      key.header ? 'The API key is not valid.' : 'A valid API key is required in the x-api-key header.',
    );
  return principal;
}

/** Whether a key's lastUsedAt is due to be written (at most once a minute per key, as the service does). */
export function createTouchSchedule() {
  const lastTouched = new Map<string, number>();
  return {
    due(keyId: string, now: number): boolean {
      if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return false;
      lastTouched.set(keyId, now);
      return true;
    },
    failed(keyId: string) {
      lastTouched.delete(keyId);
    },
  };
}
