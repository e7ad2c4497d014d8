/**
 * Says, in every run, whether the PostgreSQL and Redis suites ran: without their URLs this file shows
 * a skipped test naming the missing variable (and the `postgres` project of vitest.config.ts is off);
 * with EVENTPLAN_REQUIRE_SERVICES=1 a missing URL fails here instead.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeWithService, requireServiceUrl } from '../helpers/services.js';

describeWithService(
  'postgres',
  'PostgreSQL suites (contract and HTTP suites on PostgreSQL, scale-out)',
  () => {
    it('reach the server at TEST_DATABASE_URL', async () => {
      const client = new pg.Client({ connectionString: requireServiceUrl('postgres') });
      await client.connect();
      try {
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await client.end();
      }
    });
  },
);

describeWithService('redis', 'Redis suites (shared rate limits)', () => {
  it('reach the server at TEST_REDIS_URL', async () => {
    const redis = new Redis(requireServiceUrl('redis'), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      expect(await redis.ping()).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });
});
