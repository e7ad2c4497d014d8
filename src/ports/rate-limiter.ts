export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests that would be let in right now, after this one. */
  remaining: number;
  /** Seconds until the whole limit is available again (at most the window). */
  resetSeconds: number;
  /** When refused: whole seconds to wait before a retry succeeds (at most the window). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` and says whether it may proceed. */
  consume(key: string): Promise<RateLimitDecision>;
  /**
   * Optional: how many times the shared counter store failed since start (each such request was let
   * through, fail-open); exported as a metric.
   */
  storeErrors?(): number;
  close(): Promise<void>;
}
