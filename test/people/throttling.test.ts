/**
 * Sign-in throttling (D15): 5 failures per email, 50 per client address, within 15 minutes; then
 * every attempt is refused until the window ends, the right password included. Run with the
 * in-process counter and with the Redis one that several instances share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAttemptCounter } from '../../src/adapters/memory/memory-attempt-counter.js';
import {
  createRedisAttemptCounter,
  type RedisAttemptCounter,
} from '../../src/adapters/redis/redis-attempt-counter.js';
import { type PeopleDeps, setPassword, signIn } from '../../src/app/people.js';
import { SignInRefusedError, SignInThrottledError } from '../../src/domain/errors.js';
import type { AttemptCounter } from '../../src/ports/attempt-counter.js';
import type { Store } from '../../src/ports/store.js';
import { deleteKeys, uniqueKeyPrefix } from '../helpers/redis.js';
import { describeWithService, requireServiceUrl } from '../helpers/services.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';
import { MINUTE, newPerson, peopleDeps, type TestClock, testClock } from './people-deps.js';

const PASSWORD = 'throttle test password';

let opened: TestStore;
beforeAll(async () => {
  opened = await openTestStore('sqlite');
});
afterAll(() => opened?.destroy());

const attempt = (deps: PeopleDeps, email: string, password: string, clientAddress: string) =>
  signIn(deps, { email, password, clientAddress, userAgent: null }).then(
    () => 'signed in',
    (error) => {
      if (error instanceof SignInRefusedError) return 'refused';
      if (error instanceof SignInThrottledError) return 'throttled';
      throw error;
    },
  );

/** A fresh client address for each test, so tests do not share address counts. */
let addressCounter = 0;
const newAddress = () => `203.0.113.${++addressCounter}`;

function throttlingSuite(counterFor: (clock: TestClock) => AttemptCounter, store: () => Store) {
  const setUp = async () => {
    const clock = testClock();
    const deps = peopleDeps(store(), { clock, attempts: counterFor(clock) });
    const person = await newPerson(deps);
    await setPassword(deps, person.userId, PASSWORD);
    return { deps, person };
  };

  it('refuses every attempt for an email after 5 failures, the right password included', async () => {
    const { deps, person } = await setUp();
    const address = newAddress();
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await attempt(deps, person.email, 'wrong guess', address));
    expect(outcomes).toEqual(Array(5).fill('refused'));
    expect(await attempt(deps, person.email, PASSWORD, newAddress())).toBe('throttled');
    // The same email in another letter case is the same email.
    expect(await attempt(deps, person.email.toUpperCase(), PASSWORD, newAddress())).toBe('throttled');
  });

  it('says how long to wait, and never whether the email exists', async () => {
    const { deps, person } = await setUp();
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    const errors = [];
    for (const email of [person.email, unknown]) {
      for (let i = 0; i < 5; i++) await attempt(deps, email, 'wrong guess', newAddress());
      errors.push(
        await signIn(deps, { email, password: PASSWORD, clientAddress: newAddress(), userAgent: null }).catch(
          (error) => error,
        ),
      );
    }
    for (const error of errors) {
      expect(error).toBeInstanceOf(SignInThrottledError);
      expect(error.code).toBe('sign_in_throttled');
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    }
    expect(errors[0].message).toBe(errors[1].message);
  });

  it('does not count a successful sign-in as a failure', async () => {
    const { deps, person } = await setUp();
    for (let i = 0; i < 4; i++) await attempt(deps, person.email, 'wrong guess', newAddress());
    for (let i = 0; i < 3; i++)
      expect(await attempt(deps, person.email, PASSWORD, newAddress())).toBe('signed in');
    expect(await attempt(deps, person.email, 'wrong guess', newAddress())).toBe('refused');
    expect(await attempt(deps, person.email, PASSWORD, newAddress())).toBe('throttled');
  });

  it('lets no more than 5 of many concurrent guesses for one email reach the password check', async () => {
    const { deps, person } = await setUp();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () => attempt(deps, person.email, 'concurrent guess', newAddress())),
    );
    expect(outcomes.filter((outcome) => outcome === 'refused')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'throttled')).toHaveLength(7);
  });

  // 50 scrypt hashes: seconds on an idle machine, much longer on a busy one.
  it('refuses an address after 50 failures, whatever email it tries next', async () => {
    const { deps, person } = await setUp();
    const address = newAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        attempt(deps, `guess-${i}-${crypto.randomUUID()}@example.com`, 'x', address),
      ),
    );
    expect(outcomes.every((outcome) => outcome === 'refused')).toBe(true);
    expect(await attempt(deps, person.email, PASSWORD, address)).toBe('throttled');
    expect(await attempt(deps, person.email, PASSWORD, newAddress())).toBe('signed in');
  }, 180_000);
}

describe('sign-in throttling with the in-process counter', () => {
  throttlingSuite(
    (clock) => createMemoryAttemptCounter({ now: () => clock.now().getTime() }),
    () => opened.store,
  );

  it('lets the email in again once its 15 minutes have passed', async () => {
    const clock = testClock();
    const deps = peopleDeps(opened.store, { clock });
    const person = await newPerson(deps);
    await setPassword(deps, person.userId, PASSWORD);
    for (let i = 0; i < 5; i++) await attempt(deps, person.email, 'wrong guess', newAddress());
    clock.advance(14 * MINUTE);
    expect(await attempt(deps, person.email, PASSWORD, newAddress())).toBe('throttled');
    clock.advance(MINUTE);
    expect(await attempt(deps, person.email, PASSWORD, newAddress())).toBe('signed in');
  });
});

describeWithService('redis', 'sign-in throttling with the Redis counter', () => {
  const keyPrefix = uniqueKeyPrefix();
  const counters: RedisAttemptCounter[] = [];
  const open = () => {
    const counter = createRedisAttemptCounter({ url: requireServiceUrl('redis'), keyPrefix });
    counters.push(counter);
    return counter;
  };
  afterAll(async () => {
    await Promise.all(counters.map((counter) => counter.close()));
    await deleteKeys(keyPrefix);
  });

  beforeAll(async () => {
    // Connected before the suite, as `serve` is once Redis answers.
    expect(await Promise.all([open(), open()].map((counter) => counter.ready()))).toEqual([true, true]);
  });

  // Sign-ins alternate between two connections, as separate instances would.
  throttlingSuite(
    () => {
      const instances = [counters[0]!, counters[1]!];
      let turn = 0;
      return {
        increment: (key, windowMs) => instances[turn++ % 2]!.increment(key, windowMs),
        decrement: (key) => instances[turn++ % 2]!.decrement(key),
        close: async () => undefined,
      };
    },
    () => opened.store,
  );
});

describe('sign-in throttling when Redis is unreachable', () => {
  it('lets sign-ins through uncounted (fail-open), as the rate limit does', async () => {
    const counter = createRedisAttemptCounter({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 200 });
    try {
      const deps = peopleDeps(opened.store, { attempts: counter });
      const person = await newPerson(deps);
      await setPassword(deps, person.userId, PASSWORD);
      for (let i = 0; i < 6; i++) await attempt(deps, person.email, 'wrong guess', '192.0.2.99');
      expect(await attempt(deps, person.email, PASSWORD, '192.0.2.99')).toBe('signed in');
      expect(counter.storeErrors()).toBeGreaterThan(0);
    } finally {
      await counter.close();
    }
  });
});
