export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window has fully rolled over. */
  resetSeconds: number;
  /** When refused: whole seconds to wait before a retry can succeed. */
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
