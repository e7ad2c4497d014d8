/**
 * Counts attempts per key in fixed windows that start at a key's first counted attempt (sign-in
 * throttling, D15). With Redis, every instance shares the counts.
 */
export interface AttemptTally {
  /** Attempts counted in the key's current window, this one included. */
  count: number;
  /** Milliseconds until the key's window ends and its count starts again from zero. */
  resetMs: number;
}

export interface AttemptCounter {
  /**
   * Counts one attempt for `key` and resolves to the tally with it; the first attempt of a key opens
   * a window of `windowMs`. Counting before the check (rather than reading, then counting) means
   * concurrent attempts cannot all slip under a limit together.
   */
  increment(key: string, windowMs: number): Promise<AttemptTally>;
  /** Takes back one attempt counted by `increment` (one that turned out not to be a failure). */
  decrement(key: string): Promise<void>;
  /** Optional: how many times the shared store failed since start (each time, attempts went uncounted). */
  storeErrors?(): number;
  close(): Promise<void>;
}
