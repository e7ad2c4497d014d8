/**
 * The in-process rate limit (D13) as GCRA, the generic cell rate algorithm: each key keeps one number,
 * the theoretical arrival time (TAT) of its next request. `limit` requests a minute are let through
 * at once and then one every minute ÷ limit; a refused request costs nothing.
 */

export interface RateLimitDecision {
  allowed: boolean;
  /** The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers, as text. */
  limit: string;
  remaining: string;
  reset: string;
  /** Whole seconds until a retry can succeed (refused requests only). */
  retryAfterSeconds: number;
}

const PERIOD_MS = 60_000;

export function createGcra(limitPerMinute: number, now: () => number = Date.now) {
  const interval = PERIOD_MS / limitPerMinute;
  const limit = String(limitPerMinute);
  const arrivals = new Map<string, number>();
  let nextSweep = 0;
  return function consume(key: string): RateLimitDecision {
    const time = now();
    if (time >= nextSweep) {
      // A key whose TAT has passed is back to a full allowance: forgetting it changes nothing.
      for (const [name, arrival] of arrivals) if (arrival <= time) arrivals.delete(name);
      nextSweep = time + PERIOD_MS;
    }
    const arrival = Math.max(arrivals.get(key) ?? time, time);
    const next = arrival + interval;
    const allowed = next - time <= PERIOD_MS;
    if (allowed) arrivals.set(key, next);
    const used = (allowed ? next : arrival) - time;
    return {
      allowed,
      limit,
      remaining: String(Math.max(0, Math.floor((PERIOD_MS - used) / interval + 1e-9))),
      reset: String(Math.max(1, Math.ceil(used / 1000))),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((next - PERIOD_MS - time) / 1000)),
    };
  };
}
