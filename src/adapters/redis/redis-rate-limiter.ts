/**
 * Rate-limit counters shared by every instance, in Redis. One Lua script per request reads the
 * client's allowance, decides, counts and sets the expiry in a single atomic step, with Redis's own
 * clock, so instances whose clocks drift still share one allowance. The rule is the same GCRA as the
 * in-process store (../gcra.ts), operation for operation.
 *
 * Fail-open (D13): when Redis is unreachable or slow, requests are let through at once, each one
 * counted (`storeErrors()`, exported as a metric) and a warning logged at most every few seconds.
 */
import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { gcraDecision, gcraPolicy } from '../gcra.js';
import { type FailOpenRedisOptions, openFailOpenRedis } from './fail-open-redis.js';

/**
 * KEYS[1]: the client's hash; its field `tat` is the theoretical arrival time in microseconds.
 * ARGV: interval µs, tolerance µs, and optionally now in µs (a test's clock; otherwise Redis's TIME).
 * Returns {allowed (1 or 0), how far the TAT is ahead of now once decided, in µs}. The key expires
 * when the allowance is whole again, which is the same as never seen.
 */
const GCRA_SCRIPT = `
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end
local tat = tonumber(redis.call('HGET', KEYS[1], 'tat'))
if not tat or tat < now then tat = now end
if tat - now > tolerance then return {0, tat - now} end
tat = tat + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%d', tat))
redis.call('PEXPIRE', KEYS[1], math.ceil((tat - now) / 1000))
return {1, tat - now}
`;

export interface RedisRateLimiterOptions extends FailOpenRedisOptions {
  /** Requests per window and key. */
  limit: number;
  windowMs?: number;
  /** Milliseconds since the epoch, sent with each request instead of Redis's clock: a test's clock. */
  now?: () => number;
  /** Prepended to every counter key; lets several deployments (or test runs) share one Redis. */
  keyPrefix?: string;
}

export interface RedisRateLimiter extends RateLimiter {
  storeErrors(): number;
  /** Resolves true once connected, or false if not connected within the connect timeout. */
  ready(): Promise<boolean>;
}

type GcraReply = [allowed: number, aheadUs: number];

interface ScriptedRedis extends Redis {
  gcra(key: string, intervalUs: number, toleranceUs: number, nowUs?: number): Promise<GcraReply>;
}

export const DEFAULT_KEY_PREFIX = 'eventplan:ratelimit:';

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const policy = gcraPolicy(options.limit, windowMs);
  const { intervalUs, toleranceUs } = policy;
  const clock = options.now;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const connection = openFailOpenRedis<ScriptedRedis>(
    options,
    'rate-limit store unavailable; requests are let through uncounted (fail-open)',
  );
  const { redis, noteFailure } = connection;
  // EVALSHA, falling back to EVAL (which loads the script) when Redis does not know it yet.
  redis.defineCommand('gcra', { numberOfKeys: 1, lua: GCRA_SCRIPT });

  return {
    async consume(key): Promise<RateLimitDecision> {
      try {
        const [allowed, aheadUs] = clock
          ? await redis.gcra(prefix + key, intervalUs, toleranceUs, Math.round(clock() * 1000))
          : await redis.gcra(prefix + key, intervalUs, toleranceUs);
        return gcraDecision(policy, allowed === 1, aheadUs);
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
