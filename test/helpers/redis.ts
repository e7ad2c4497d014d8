/** Redis for tests: a key prefix unique to this run. */
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

/** Removes every key under a prefix. */
export async function deleteKeys(prefix: string): Promise<void> {
  await withRedis(async (redis) => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });
}
