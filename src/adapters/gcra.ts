/**
 * The rate limit's rule, shared by the in-process and Redis stores so both answer alike: GCRA, the
 * generic cell rate algorithm (a leaky bucket kept as one number per client). A limit of N per
 * window lets N requests through at once, then one every window / N: the stored value is the
 * "theoretical arrival time" (TAT), the moment the client's allowance would be whole again, and a
 * request is let in when that moment is at most the window (less one interval) away. A refused
 * client needs to wait at most one interval (never more than the window) and is let in when it has.
 * Times are whole microseconds, so the arithmetic is exact in JavaScript and in Redis's Lua alike.
 */
import type { RateLimitDecision } from '../ports/rate-limiter.js';

export interface GcraPolicy {
  limit: number;
  /** The time between two requests at the sustained rate: window / limit. */
  intervalUs: number;
  /** How far ahead of now the TAT may be for a request to be let in: (limit - 1) intervals. */
  toleranceUs: number;
  /** The window in whole seconds, the most RateLimit-Reset says. */
  windowSeconds: number;
}

export function gcraPolicy(limit: number, windowMs: number): GcraPolicy {
  // Whole microseconds: exact for every limit up to one per microsecond (60,000,000 a minute).
  const intervalUs = Math.max(1, Math.round((windowMs * 1000) / limit));
  return {
    limit,
    intervalUs,
    toleranceUs: intervalUs * (limit - 1),
    windowSeconds: Math.max(1, Math.ceil(windowMs / 1000)),
  };
}

/**
 * The answer for a client whose TAT is `aheadUs` ahead of now once the request was decided (counted
 * if `allowed`). Remaining: requests that would be let in right now; Reset: seconds until the whole
 * limit is available again; Retry-After: seconds until the next request would be let in.
 */
export function gcraDecision(policy: GcraPolicy, allowed: boolean, aheadUs: number): RateLimitDecision {
  const { limit, intervalUs, toleranceUs, windowSeconds } = policy;
  const remaining = Math.floor((toleranceUs - aheadUs) / intervalUs) + 1;
  return {
    allowed,
    limit,
    remaining: remaining > 0 ? Math.min(remaining, limit) : 0,
    resetSeconds: Math.min(windowSeconds, Math.max(1, Math.ceil(aheadUs / 1_000_000))),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((aheadUs - toleranceUs) / 1_000_000)),
  };
}
