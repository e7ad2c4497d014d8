/** Use-case dependencies for the people tests: a real store, a clock the test moves, real randomness. */
import { createMemoryAttemptCounter } from '../../src/adapters/memory/memory-attempt-counter.js';
import { randomIds } from '../../src/adapters/system.js';
import { createOrganization, createUser } from '../../src/app/organizations.js';
import { type PeopleDeps, signIn } from '../../src/app/people.js';
import type { AttemptCounter } from '../../src/ports/attempt-counter.js';
import type { Store } from '../../src/ports/store.js';

export interface TestClock {
  now(): Date;
  /** Moves the clock forwards. */
  advance(ms: number): void;
}

export function testClock(start = '2026-03-01T09:00:00.000Z'): TestClock {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance(ms) {
      time += ms;
    },
  };
}

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export function peopleDeps(
  store: Store,
  options: { clock?: TestClock; attempts?: AttemptCounter; idleMinutes?: number; maxDays?: number } = {},
): PeopleDeps & { clock: TestClock } {
  const clock = options.clock ?? testClock();
  return {
    store,
    clock,
    ids: randomIds,
    attempts: options.attempts ?? createMemoryAttemptCounter({ now: () => clock.now().getTime() }),
    sessionPolicy: { idleMinutes: options.idleMinutes ?? 720, maxDays: options.maxDays ?? 7 },
  };
}

/** A new organization with one person in it; emails are unique per test unless given. */
export async function newPerson(deps: PeopleDeps, email = `${crypto.randomUUID()}@example.com`) {
  const { id: organizationId } = await createOrganization(deps, 'People test');
  const { id: userId } = await createUser(deps, { organizationId, email, name: 'Pat Planner' });
  return { organizationId, userId, email };
}

export const signInAs = (deps: PeopleDeps, email: string, password: string, clientAddress = '192.0.2.10') =>
  signIn(deps, { email, password, clientAddress, userAgent: 'Vitest' });
