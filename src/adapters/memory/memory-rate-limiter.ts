import type { RateLimiter } from '../../ports/rate-limiter.js';
import { decide } from '../sliding-window.js';

interface Counter {
  windowStart: number;
  previous: number;
  current: number;
}

/** Per-process counters: right for one instance; several instances need the Redis store. */
export function createMemoryRateLimiter(options: {
  limit: number;
  windowMs?: number;
  now?: () => number;
}): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  let sweptWindow = 0;

  return {
    async consume(key) {
      const time = now();
      const windowStart = time - (time % windowMs);
      if (windowStart !== sweptWindow) {
        // Counters older than the previous window can no longer matter.
        for (const [name, counter] of counters) {
          if (counter.windowStart < windowStart - windowMs) counters.delete(name);
        }
        sweptWindow = windowStart;
      }
      let counter = counters.get(key);
      if (!counter) {
        counter = { windowStart, previous: 0, current: 0 };
        counters.set(key, counter);
      } else if (counter.windowStart !== windowStart) {
        counter.previous = counter.windowStart === windowStart - windowMs ? counter.current : 0;
        counter.current = 0;
        counter.windowStart = windowStart;
      }
      const decision = decide(
        { previous: counter.previous, current: counter.current, elapsedMs: time - windowStart },
        options.limit,
        windowMs,
      );
      if (decision.allowed) counter.current++;
      return decision;
    },
    async close() {
      counters.clear();
    },
  };
}
