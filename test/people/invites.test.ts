/** Invites: single-use links (24 h) where a person chooses a password. */

import { expect, it } from 'vitest';
import { deactivateUser } from '../../src/app/organizations.js';
import {
  acceptInvite,
  authenticateSession,
  findInvite,
  inviteUser,
  setPassword,
} from '../../src/app/people.js';
import { ConflictError, NotFoundError, ValidationError } from '../../src/domain/errors.js';
import { href } from '../../src/web/href.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { DAY, MINUTE, newPerson, peopleDeps, signInAs } from './people-deps.js';

const BASE = 'https://plan.example.com';
const tokenOf = (url: string) => url.slice(`${BASE}/app/invite/`.length);

for (const backend of BACKENDS) {
  describeStore(backend, 'invites', (store) => {
    it('makes a link under the base URL, valid for 24 hours, that shows whom it is for', async () => {
      const deps = peopleDeps(store());
      const { userId, email } = await newPerson(deps);
      const invite = await inviteUser(deps, userId, `${BASE}/`, href.invite);
      expect(invite).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: expect.stringMatching(/^https:\/\/plan\.example\.com\/app\/invite\/[0-9A-Za-z]{43}$/),
        expiresAt: new Date(deps.clock.now().getTime() + DAY).toISOString(),
      });
      expect(await findInvite(deps, tokenOf(invite.url))).toEqual({ email, name: 'Pat Planner' });
      expect(await findInvite(deps, 'A'.repeat(43))).toBeUndefined();
      expect(await findInvite(deps, '../../etc/passwd')).toBeUndefined();
    });

    it('sets the chosen password once; the link cannot be used again', async () => {
      const deps = peopleDeps(store());
      const { userId, email } = await newPerson(deps);
      const token = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      expect(await acceptInvite(deps, token, 'a password I chose')).toEqual({ id: userId });
      expect((await signInAs(deps, email, 'a password I chose')).person.userId).toBe(userId);
      expect(await findInvite(deps, token)).toBeUndefined();
      await expect(acceptInvite(deps, token, 'another password')).rejects.toBeInstanceOf(NotFoundError);
      expect((await signInAs(deps, email, 'a password I chose')).person.userId).toBe(userId);
    });

    it('lets only one of two concurrent acceptances through', async () => {
      const deps = peopleDeps(store());
      const { userId } = await newPerson(deps);
      const token = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      const outcomes = await Promise.allSettled([
        acceptInvite(deps, token, 'first racer password'),
        acceptInvite(deps, token, 'second racer password'),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(NotFoundError);
    });

    it('refuses a bad password with the problem named, and leaves the link usable', async () => {
      const deps = peopleDeps(store());
      const { userId } = await newPerson(deps);
      const token = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      const refused = await acceptInvite(deps, token, 'short').catch((error) => error);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).problems).toEqual([
        { field: 'password', code: 'too_short', message: 'must be at least 8 characters long (it has 5)' },
      ]);
      expect(await findInvite(deps, token)).toBeDefined();
    });

    it('expires after 24 hours', async () => {
      const deps = peopleDeps(store());
      const { userId } = await newPerson(deps);
      const token = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      deps.clock.advance(DAY - MINUTE);
      expect(await findInvite(deps, token)).toBeDefined();
      deps.clock.advance(MINUTE);
      expect(await findInvite(deps, token)).toBeUndefined();
      await expect(acceptInvite(deps, token, 'too late for this')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('voids the older invite when a new one is made', async () => {
      const deps = peopleDeps(store());
      const { userId } = await newPerson(deps);
      const older = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      const newer = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      expect(await findInvite(deps, older)).toBeUndefined();
      await expect(acceptInvite(deps, older, 'from the old link')).rejects.toBeInstanceOf(NotFoundError);
      expect(await acceptInvite(deps, newer, 'from the new link')).toEqual({ id: userId });
    });

    it('refuses to invite an unknown or deactivated person, and voids the link of one deactivated later', async () => {
      const deps = peopleDeps(store());
      await expect(inviteUser(deps, crypto.randomUUID(), BASE, href.invite)).rejects.toBeInstanceOf(
        NotFoundError,
      );
      const leaver = await newPerson(deps);
      const token = tokenOf((await inviteUser(deps, leaver.userId, BASE, href.invite)).url);
      await deactivateUser(deps, leaver.userId);
      await expect(inviteUser(deps, leaver.userId, BASE, href.invite)).rejects.toBeInstanceOf(ConflictError);
      expect(await findInvite(deps, token)).toBeUndefined();
      await expect(acceptInvite(deps, token, 'no longer here')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('refuses a base URL that is not http or https', async () => {
      const deps = peopleDeps(store());
      const { userId } = await newPerson(deps);
      const refused = await inviteUser(deps, userId, 'javascript:alert(1)', href.invite).catch(
        (error) => error,
      );
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).problems[0]?.field).toBe('baseUrl');
    });

    it('ends the sessions signed in with the old password when a new one is chosen', async () => {
      const deps = peopleDeps(store());
      const { userId, email } = await newPerson(deps);
      await setPassword(deps, userId, 'the first password');
      const { token: session } = await signInAs(deps, email, 'the first password');
      const token = tokenOf((await inviteUser(deps, userId, BASE, href.invite)).url);
      await acceptInvite(deps, token, 'the second password');
      expect(await authenticateSession(deps, session)).toBeUndefined();
    });
  });
}
