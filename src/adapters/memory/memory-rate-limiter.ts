import type { RateLimiter } from '../../ports/rate-limiter.js';
import { gcraDecision, gcraPolicy } from '../gcra.js';

/** A client's theoretical arrival time (see ../gcra.ts), updated in place: no allocation per request. */
interface Allowance {
  tatUs: number;
}

/** Per-process counters: right for one instance; several instances need the Redis store. */
export function createMemoryRateLimiter(options: {
  limit: number;
  windowMs?: number;
  /** Milliseconds since the epoch; a test's clock. */
  now?: () => number;
}): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const policy = gcraPolicy(options.limit, windowMs);
  const now = options.now ?? Date.now;
  const allowances = new Map<string, Allowance>();
  let sweptAt = 0;

  return {
    async consume(key) {
      const nowUs = Math.round(now() * 1000);
      if (nowUs - sweptAt >= windowMs * 1000) {
        // A client whose allowance is whole again is the same as one never seen.
        for (const [name, allowance] of allowances) {
          if (allowance.tatUs <= nowUs) allowances.delete(name);
        }
        sweptAt = nowUs;
      }
      let allowance = allowances.get(key);
      if (!allowance) {
        allowance = { tatUs: nowUs };
        allowances.set(key, allowance);
      }
      const tatUs = allowance.tatUs > nowUs ? allowance.tatUs : nowUs;
      if (tatUs - nowUs > policy.toleranceUs) return gcraDecision(policy, false, tatUs - nowUs);
      allowance.tatUs = tatUs + policy.intervalUs;
      return gcraDecision(policy, true, allowance.tatUs - nowUs);
    },
    async close() {
      allowances.clear();
    },
  };
}
