/** Sessions: idle and absolute expiry, signing out, and the operator's ways of ending them. */
import { expect, it } from 'vitest';
import { deactivateUser } from '../../src/app/organizations.js';
import {
  authenticateSession,
  endOwnSession,
  listOwnSessions,
  setPassword,
  signOut,
  signOutUser,
} from '../../src/app/people.js';
import { NotFoundError } from '../../src/domain/errors.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { DAY, MINUTE, newPerson, peopleDeps, signInAs } from './people-deps.js';

const PASSWORD = 'session test password';

for (const backend of BACKENDS) {
  describeStore(backend, 'sessions', (store) => {
    async function signedIn(options: { idleMinutes?: number; maxDays?: number } = {}) {
      const deps = peopleDeps(store(), options);
      const person = await newPerson(deps);
      await setPassword(deps, person.userId, PASSWORD);
      const { token } = await signInAs(deps, person.email, PASSWORD);
      return { deps, person, token };
    }

    it('authenticates a session token and refuses a missing, malformed or unknown one', async () => {
      const { deps, person, token } = await signedIn();
      expect(await authenticateSession(deps, token)).toMatchObject({
        organizationId: person.organizationId,
        userId: person.userId,
        email: person.email,
      });
      expect(await authenticateSession(deps, undefined)).toBeUndefined();
      expect(await authenticateSession(deps, '')).toBeUndefined();
      expect(await authenticateSession(deps, 'x'.repeat(43))).toBeUndefined();
      expect(await authenticateSession(deps, `${token}x`)).toBeUndefined();
    });

    it('ends a session left idle for the idle timeout, and keeps one in use alive', async () => {
      const { deps, token } = await signedIn({ idleMinutes: 30 });
      deps.clock.advance(29 * MINUTE);
      expect(await authenticateSession(deps, token)).toBeDefined();
      // That request counted as activity: another 29 minutes later it is still alive.
      deps.clock.advance(29 * MINUTE);
      expect(await authenticateSession(deps, token)).toBeDefined();
      deps.clock.advance(30 * MINUTE);
      expect(await authenticateSession(deps, token)).toBeUndefined();
    });

    it('writes lastSeenAt at most about once a minute', async () => {
      const { deps, token } = await signedIn();
      const lastSeen = async () =>
        (await listOwnSessions(deps, (await authenticateSession(deps, token))!))[0]!.lastSeenAt;
      const signedInAt = deps.clock.now().toISOString();
      deps.clock.advance(30_000);
      expect(await lastSeen()).toBe(signedInAt);
      deps.clock.advance(30_000);
      expect(await lastSeen()).toBe(deps.clock.now().toISOString());
    });

    it('ends a session at its absolute lifetime however active it is', async () => {
      const { deps, token } = await signedIn({ idleMinutes: 720, maxDays: 2 });
      for (let hours = 0; hours < 47; hours++) {
        deps.clock.advance(60 * MINUTE);
        expect(await authenticateSession(deps, token)).toBeDefined();
      }
      deps.clock.advance(60 * MINUTE);
      expect(await authenticateSession(deps, token)).toBeUndefined();
    });

    it('signs out the current session only', async () => {
      const { deps, person, token } = await signedIn();
      const { token: other } = await signInAs(deps, person.email, PASSWORD);
      await signOut(deps, (await authenticateSession(deps, token))!);
      expect(await authenticateSession(deps, token)).toBeUndefined();
      expect(await authenticateSession(deps, other)).toBeDefined();
    });

    it("lists the person's own live sessions, marks the current one, and ends another", async () => {
      const { deps, person, token } = await signedIn({ idleMinutes: 60 });
      deps.clock.advance(MINUTE);
      const { token: phone } = await signInAs(deps, person.email, PASSWORD, '198.51.100.4');
      const current = (await authenticateSession(deps, token))!;
      const listed = await listOwnSessions(deps, current);
      expect(listed).toHaveLength(2);
      expect(listed.map((session) => session.current)).toEqual([false, true]);
      expect(listed[0]).toEqual({
        id: expect.any(String),
        createdAt: deps.clock.now().toISOString(),
        lastSeenAt: deps.clock.now().toISOString(),
        expiresAt: new Date(deps.clock.now().getTime() + 7 * DAY).toISOString(),
        userAgent: 'Vitest',
        clientAddress: '198.51.100.4',
        current: false,
      });
      await endOwnSession(deps, current, listed[0]!.id);
      expect(await authenticateSession(deps, phone)).toBeUndefined();
      expect(await listOwnSessions(deps, current)).toHaveLength(1);
      await expect(endOwnSession(deps, current, listed[0]!.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("refuses to end someone else's session", async () => {
      const mine = await signedIn();
      const theirs = await signedIn();
      const me = (await authenticateSession(mine.deps, mine.token))!;
      const them = (await authenticateSession(theirs.deps, theirs.token))!;
      await expect(endOwnSession(mine.deps, me, them.sessionId)).rejects.toBeInstanceOf(NotFoundError);
      expect(await authenticateSession(theirs.deps, theirs.token)).toBeDefined();
    });

    it('ends every session of a person with user sign-out, at their next request', async () => {
      const { deps, person, token } = await signedIn();
      const { token: second } = await signInAs(deps, person.email, PASSWORD);
      expect(await signOutUser(deps, person.userId)).toEqual({ id: person.userId, sessionsEnded: 2 });
      expect(await authenticateSession(deps, token)).toBeUndefined();
      expect(await authenticateSession(deps, second)).toBeUndefined();
      expect(await signOutUser(deps, person.userId)).toEqual({ id: person.userId, sessionsEnded: 0 });
      await expect(signOutUser(deps, crypto.randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    });

    it('ends the sessions of a deactivated person', async () => {
      const { deps, person, token } = await signedIn();
      await deactivateUser(deps, person.userId);
      expect(await authenticateSession(deps, token)).toBeUndefined();
      expect(
        await store().sessions.listLive(person.organizationId, person.userId, {
          now: deps.clock.now().toISOString(),
          idleSince: '2000-01-01T00:00:00.000Z',
        }),
      ).toEqual([]);
    });

    it('ends the sessions of a person whose password an operator sets', async () => {
      const { deps, person, token } = await signedIn();
      await setPassword(deps, person.userId, 'reset by an operator');
      expect(await authenticateSession(deps, token)).toBeUndefined();
    });
  });
}
