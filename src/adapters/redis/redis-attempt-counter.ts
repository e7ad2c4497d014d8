/**
 * Attempt counts shared by every instance, in Redis: one counter per key that expires when its window
 * ends (the window opens with the key's first attempt, on Redis's clock). Same connection options and
 * fail-open behaviour as the rate limiter (D13): when Redis is unreachable or slow, attempts go
 * uncounted and are let through at once, each failure counted (`storeErrors()`) and a warning logged
 * at most every few seconds.
 */
import type { Redis } from 'ioredis';
import type { AttemptCounter, AttemptTally } from '../../ports/attempt-counter.js';
import { type FailOpenRedisOptions, openFailOpenRedis } from './fail-open-redis.js';

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

export interface RedisAttemptCounterOptions extends FailOpenRedisOptions {
  /** Prepended to every counter key; lets several deployments (or test runs) share one Redis. */
  keyPrefix?: string;
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
  const connection = openFailOpenRedis<ScriptedRedis>(
    options,
    'sign-in attempt store unavailable; attempts are let through uncounted (fail-open)',
  );
  const { redis, noteFailure } = connection;
  redis.defineCommand('incrementAttempts', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  redis.defineCommand('decrementAttempts', { numberOfKeys: 1, lua: DECREMENT_SCRIPT });

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
    storeErrors: connection.storeErrors,
    ready: connection.ready,
    close: connection.close,
  };
}
