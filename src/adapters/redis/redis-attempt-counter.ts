/**
 * Attempt counts shared by every instance, in Redis: one counter per key that expires when its window
 * ends (the window opens with the key's first attempt, on Redis's clock). Same connection options and
 * fail-open behaviour as the rate limiter (D13): when Redis is unreachable or slow, attempts go
 * uncounted and are let through at once, each failure counted (`storeErrors()`) and a warning logged
 * at most every few seconds.
 */
import { Redis } from 'ioredis';
import type { AttemptCounter, AttemptTally } from '../../ports/attempt-counter.js';

/** KEYS[1]: the counter. ARGV[1]: window ms. Returns {count, ms left in the window}. */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
`;

/** Takes one back, never below zero, and never creates a counter that does not exist. */
const DECREMENT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

export interface RedisAttemptCounterOptions {
  url: string;
  /** Prepended to every counter key; lets several deployments (or test runs) share one Redis. */
  keyPrefix?: string;
  /** Longest an attempt waits for Redis before it goes uncounted (default 500 ms). */
  commandTimeoutMs?: number;
  /** Longest a connection attempt may take (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Called with a warning when Redis fails, at most once per `warnEveryMs` (default 10 s). */
  warn?: (message: string, details: Record<string, unknown>) => void;
  warnEveryMs?: number;
}

export interface RedisAttemptCounter extends AttemptCounter {
  storeErrors(): number;
  /** Resolves true once connected, or false if not connected within the connect timeout. */
  ready(): Promise<boolean>;
}

interface ScriptedRedis extends Redis {
  incrementAttempts(key: string, windowMs: number): Promise<[count: number, leftMs: number]>;
  decrementAttempts(key: string): Promise<number>;
}

export const DEFAULT_ATTEMPT_KEY_PREFIX = 'eventplan:attempts:';

export function createRedisAttemptCounter(options: RedisAttemptCounterOptions): RedisAttemptCounter {
  const prefix = options.keyPrefix ?? DEFAULT_ATTEMPT_KEY_PREFIX;
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const warnEveryMs = options.warnEveryMs ?? 10_000;
  const redis = new Redis(options.url, {
    // Never queue a command while disconnected: fail at once, and let the attempt through.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs ?? 500,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  }) as ScriptedRedis;
  redis.defineCommand('incrementAttempts', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  redis.defineCommand('decrementAttempts', { numberOfKeys: 1, lua: DECREMENT_SCRIPT });

  let storeErrors = 0;
  let unreported = 0;
  let lastWarning = 0;
  const noteFailure = (error: unknown, counted: boolean) => {
    if (counted) storeErrors++;
    unreported++;
    const now = Date.now();
    if (now - lastWarning < warnEveryMs) return;
    lastWarning = now;
    options.warn?.('sign-in attempt store unavailable; attempts are let through uncounted (fail-open)', {
      error: error instanceof Error ? error.message : String(error),
      failuresSinceLastWarning: unreported,
      storeErrors,
    });
    unreported = 0;
  };
  redis.on('error', (error) => noteFailure(error, false));

  const readyOnce = new Promise<boolean>((resolve) => {
    if (redis.status === 'ready') resolve(true);
    redis.once('ready', () => resolve(true));
    setTimeout(() => resolve(redis.status === 'ready'), connectTimeoutMs).unref();
  });

  return {
    async increment(key, windowMs): Promise<AttemptTally> {
      try {
        const [count, leftMs] = await redis.incrementAttempts(prefix + key, windowMs);
        return { count, resetMs: leftMs };
      } catch (error) {
        noteFailure(error, true);
        return { count: 0, resetMs: 0 };
      }
    },
    async decrement(key) {
      try {
        await redis.decrementAttempts(prefix + key);
      } catch (error) {
        noteFailure(error, true);
      }
    },
    storeErrors: () => storeErrors,
    ready: () => readyOnce,
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
