/**
 * The sliding-window counter (as popularised by Cloudflare): two fixed one-minute windows, the
 * previous one weighted by how much of it still overlaps the sliding window. O(1) state per key,
 * smooth at window edges, and never more than the limit within the first window. Shared by the
 * in-process and Redis stores so both answer the same.
 */
import type { RateLimitDecision } from '../ports/rate-limiter.js';

export interface WindowCounts {
  /** Requests counted in the previous and current fixed windows. */
  previous: number;
  current: number;
  /** Milliseconds elapsed in the current window. */
  elapsedMs: number;
}

export function decide(counts: WindowCounts, limit: number, windowMs: number): RateLimitDecision {
  const { previous, current, elapsedMs } = counts;
  const estimate = previous * (1 - elapsedMs / windowMs) + current;
  const allowed = estimate + 1 <= limit;
  const resetSeconds = Math.max(1, Math.ceil((windowMs - elapsedMs) / 1000));
  const remaining = Math.max(0, Math.floor(limit - estimate - (allowed ? 1 : 0)));
  return {
    allowed,
    limit,
    remaining,
    resetSeconds,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(waitMs(counts, limit, windowMs) / 1000)),
  };
}

/** How long until one more request fits under the limit. */
function waitMs({ previous, current, elapsedMs }: WindowCounts, limit: number, windowMs: number): number {
  if (current + 1 <= limit && previous > 0) {
    // Within this window, as the previous window's weight decays.
    const t = windowMs * (1 - (limit - 1 - current) / previous) - elapsedMs;
    return Math.max(0, t);
  }
  // Only after this window ends, once the current count itself has decayed enough.
  const untilNext = windowMs - elapsedMs;
  const intoNext = current > 0 ? windowMs * Math.max(0, 1 - (limit - 1) / current) : 0;
  return untilNext + intoNext;
}
