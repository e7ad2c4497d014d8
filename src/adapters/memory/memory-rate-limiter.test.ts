import { describe, expect, it } from 'vitest';
import { rateLimiterContract, testClock } from '../../../test/helpers/rate-limiter-contract.js';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

describe('in-process rate limiter', () => {
  rateLimiterContract(async (options) => createMemoryRateLimiter(options));

  it('forgets a client once its whole allowance is back, and counts it afresh afterwards', async () => {
    const clock = testClock();
    const limiter = createMemoryRateLimiter({ limit: 2, now: clock.now });
    await limiter.consume('returning');
    await limiter.consume('returning');
    expect((await limiter.consume('returning')).allowed).toBe(false);
    clock.advance(120_000);
    // The sweep runs on the next request; the client is then as new.
    const decisions = [await limiter.consume('other'), await limiter.consume('returning')];
    expect(decisions.map((decision) => decision.remaining)).toEqual([1, 1]);
  });
});
