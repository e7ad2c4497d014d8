/** Redis for tests: a key prefix unique to this run, and a guard against window edges. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { requireServiceUrl } from './services.js';

/** Counter keys of this run only, so runs sharing one Redis never collide. */
export const uniqueKeyPrefix = (): string =>
  `eventplan-test:${process.pid}:${randomBytes(6).toString('hex')}:`;

export async function withRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(requireServiceUrl('redis'), { maxRetriesPerRequest: 1 });
  try {
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits, if need be, until at least `marginMs` of the current window remain on Redis's clock, so a
 * burst of requests falls inside one fixed window and its counts are exact.
 */
export async function awayFromWindowEdge(windowMs: number, marginMs: number): Promise<void> {
  const [seconds, micros] = await withRedis((redis) => redis.time());
  const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  const left = windowMs - (now % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 20));
}

/** Removes every key under a prefix. */
export async function deleteKeys(prefix: string): Promise<void> {
  await withRedis(async (redis) => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });
}
