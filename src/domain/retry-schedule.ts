/**
 * Retry schedules, shared by webhook deliveries (D18) and mail (D25): a list of delays between
 * attempts, each moved by a little jitter so that retries do not arrive in waves.
 */

/** Each delay of the schedule is moved by up to this fraction either way. */
export const RETRY_JITTER = 0.1;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `5s,5m,30m,2h` → delays in ms between attempts (the first is the wait after the first failure).
 * Returns undefined when the text is not such a list.
 */
export function parseRetrySchedule(text: string): number[] | undefined {
  const parts = text.split(',').map((part) => part.trim());
  const delays: number[] = [];
  for (const part of parts) {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(part);
    if (!match) return undefined;
    delays.push(Number(match[1]) * UNITS[match[2]!]!);
  }
  return delays.length > 0 && delays.length <= 50 ? delays : undefined;
}

/**
 * When the next attempt is due after `attempts` failed ones, or undefined when the schedule is spent.
 * `random` in [0, 1) sets the jitter.
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  attempts: number,
  random: number,
): number | undefined {
  const base = schedule[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + RETRY_JITTER * (2 * random - 1)));
}
