/**
 * Rate-limit counters shared by every instance, in Redis. One Lua script per request reads the
 * counters, decides, counts and sets the expiry in a single atomic step, with Redis's own clock,
 * so instances whose clocks drift still share one window. The decision is the same sliding-window
 * counter as the in-process store (../sliding-window.ts): two fixed windows, the previous weighted.
 *
 * Fail-open (D13): when Redis is unreachable or slow, requests are let through at once, each one
 * counted (`storeErrors()`, exported as a metric) and a warning logged at most every few seconds.
 */
import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { decide } from '../sliding-window.js';
import { type FailOpenRedisOptions, openFailOpenRedis } from './fail-open-redis.js';

/**
 * KEYS[1]: the client's counter, a hash {start, current, previous}. ARGV: window ms, limit.
 * Returns {allowed, previous, current before this request, ms elapsed in the window}. The test
 * below is the one in decide(), operation for operation, so both give the same answer.
 */
const SLIDING_WINDOW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local windowStart = now - (now % window)
local state = redis.call('HMGET', KEYS[1], 'start', 'current', 'previous')
local start = tonumber(state[1])
local current = tonumber(state[2]) or 0
local previous = tonumber(state[3]) or 0
if start ~= windowStart then
  if start == windowStart - window then previous = current else previous = 0 end
  current = 0
end
local elapsed = now - windowStart
local allowed = 0
if previous * (1 - elapsed / window) + current + 1 <= limit then allowed = 1 end
redis.call('HSET', KEYS[1], 'start', string.format('%d', windowStart),
  'current', current + allowed, 'previous', previous)
redis.call('PEXPIRE', KEYS[1], 2 * window)
return {allowed, previous, current, elapsed}
`;

export interface RedisRateLimiterOptions extends FailOpenRedisOptions {
  /** Requests per window and key. */
  limit: number;
  windowMs?: number;
  /** Prepended to every counter key; lets several deployments (or test runs) share one Redis. */
  keyPrefix?: string;
}

export interface RedisRateLimiter extends RateLimiter {
  storeErrors(): number;
  /** Resolves true once connected, or false if not connected within the connect timeout. */
  ready(): Promise<boolean>;
}

type SlidingWindowReply = [allowed: number, previous: number, current: number, elapsedMs: number];

interface ScriptedRedis extends Redis {
  slidingWindow(key: string, windowMs: number, limit: number): Promise<SlidingWindowReply>;
}

export const DEFAULT_KEY_PREFIX = 'eventplan:ratelimit:';

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const connection = openFailOpenRedis<ScriptedRedis>(
    options,
    'rate-limit store unavailable; requests are let through uncounted (fail-open)',
  );
  const { redis, noteFailure } = connection;
  // EVALSHA, falling back to EVAL (which loads the script) when Redis does not know it yet.
  redis.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });

  return {
    async consume(key): Promise<RateLimitDecision> {
      try {
        const [allowed, previous, current, elapsedMs] = await redis.slidingWindow(
          prefix + key,
          windowMs,
          options.limit,
        );
        const decision = decide({ previous, current, elapsedMs }, options.limit, windowMs);
        // The script's answer is the one that was counted; decide() supplies the headers' figures.
        return { ...decision, allowed: allowed === 1 };
      } catch (error) {
        noteFailure(error, true);
        // Nothing was counted, so nothing is known to be used up.
        return {
          allowed: true,
          limit: options.limit,
          remaining: options.limit,
          resetSeconds: Math.ceil(windowMs / 1000),
          retryAfterSeconds: 0,
        };
      }
    },
    storeErrors: connection.storeErrors,
    ready: connection.ready,
    close: connection.close,
  };
}
