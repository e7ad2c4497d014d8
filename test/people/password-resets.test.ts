/** "Forgot password": links mailed through the outbox, one per organization, single use, one hour. */
import { expect, it } from 'vitest';
import { createOrganization, createUser, deactivateUser } from '../../src/app/organizations.js';
import {
  authenticateSession,
  findInvite,
  findPasswordReset,
  inviteUser,
  PASSWORD_RESET_LIFETIME_MS,
  requestPasswordReset,
  resetPassword,
  setPassword,
} from '../../src/app/people.js';
import { NotFoundError, PasswordResetThrottledError, ValidationError } from '../../src/domain/errors.js';
import { href } from '../../src/web/href.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { MINUTE, newPerson, peopleDeps, signInAs } from './people-deps.js';

const ORIGIN = { clientAddress: '192.0.2.20', userAgent: 'Vitest' };
const ask = (deps: ReturnType<typeof peopleDeps>, email: string, clientAddress = '192.0.2.20') =>
  requestPasswordReset(deps, { email, clientAddress, resetPage: href.resetPassword });

/** The token of the newest link mailed to `email`. */
async function mailedToken(deps: ReturnType<typeof peopleDeps>, email: string) {
  const [mail] = await deps.store.mail.list({ to: email, limit: 1 });
  return /reset-password\?token=([0-9A-Za-z]+)/.exec(mail!.text!)![1]!;
}

for (const backend of BACKENDS) {
  describeStore(backend, 'password resets', (store) => {
    it('mails one link per organization where the email has an active person, none elsewhere', async () => {
      const deps = peopleDeps(store());
      const email = `${crypto.randomUUID()}@example.com`;
      const first = await newPerson(deps, email);
      const second = await newPerson(deps, email.toUpperCase());
      const leaver = await newPerson(deps, email);
      await deactivateUser(deps, leaver.userId);
      expect(await (await ask(deps, email)).delivery).toBe(2);
      const mails = await deps.store.mail.list({ to: email, limit: 10 });
      expect(mails.map((mail) => mail.organizationId).sort()).toEqual(
        [first.organizationId, second.organizationId].sort(),
      );
      expect(mails[0]!.text).toMatch(
        /http:\/\/127\.0\.0\.1:3000\/app\/reset-password\?token=[0-9A-Za-z]{43}/,
      );
      expect(await (await ask(deps, `nobody-${crypto.randomUUID()}@example.com`)).delivery).toBe(0);
    });

    it('sets the new password once, ends every session, and signs the browser in', async () => {
      const deps = peopleDeps(store());
      const { userId, email } = await newPerson(deps);
      await setPassword(deps, userId, 'the old passphrase');
      const { token: oldSession } = await signInAs(deps, email, 'the old passphrase');
      await (await ask(deps, email)).delivery;
      const token = await mailedToken(deps, email);
      expect(await findPasswordReset(deps, token)).toEqual({ email, name: 'Pat Planner' });
      await expect(resetPassword(deps, token, 'password', ORIGIN)).rejects.toBeInstanceOf(ValidationError);
      const { token: session, person } = await resetPassword(deps, token, 'the new passphrase', ORIGIN);
      expect(person.userId).toBe(userId);
      expect(await authenticateSession(deps, oldSession)).toBeUndefined();
      expect(await authenticateSession(deps, session)).toMatchObject({ userId });
      await expect(resetPassword(deps, token, 'another passphrase', ORIGIN)).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(signInAs(deps, email, 'the new passphrase')).resolves.toBeDefined();
    });

    it('lets a link expire after an hour, and a newer link replace it', async () => {
      const deps = peopleDeps(store());
      const { email } = await newPerson(deps);
      await (await ask(deps, email)).delivery;
      const older = await mailedToken(deps, email);
      deps.clock.advance(MINUTE);
      await (await ask(deps, email)).delivery;
      const newer = await mailedToken(deps, email);
      expect(await findPasswordReset(deps, older)).toBeUndefined();
      deps.clock.advance(PASSWORD_RESET_LIFETIME_MS);
      expect(await findPasswordReset(deps, newer)).toBeUndefined();
      await expect(resetPassword(deps, newer, 'too late a passphrase', ORIGIN)).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it('throttles requests per email and per address, known email or not', async () => {
      const deps = peopleDeps(store());
      const { email } = await newPerson(deps);
      for (let request = 0; request < 5; request++) await (await ask(deps, email)).delivery;
      await expect(ask(deps, email)).rejects.toBeInstanceOf(PasswordResetThrottledError);
      // Each delivery is awaited: it reads the store after the answer, and the store closes after the test.
      expect(await (await ask(deps, 'no-one@example.com')).delivery).toBe(0);
      deps.clock.advance(15 * MINUTE);
      expect(await (await ask(deps, email)).delivery).toBe(1);
      // From one address, 50 requests for any emails, then none for a while.
      for (let request = 0; request < 48; request++) {
        await (await ask(deps, `x${request}@example.com`, '192.0.2.99')).delivery;
      }
      expect(await (await ask(deps, 'y@example.com', '192.0.2.99')).delivery).toBe(0);
      expect(await (await ask(deps, 'y2@example.com', '192.0.2.99')).delivery).toBe(0);
      await expect(ask(deps, 'z@example.com', '192.0.2.99')).rejects.toBeInstanceOf(
        PasswordResetThrottledError,
      );
    });

    it('never voids an invitation', async () => {
      const deps = peopleDeps(store());
      const { id: organizationId } = await createOrganization(deps, 'Invited');
      const email = `${crypto.randomUUID()}@example.com`;
      const { id: userId } = await createUser(deps, { organizationId, email });
      const invite = await inviteUser(deps, userId, 'https://plan.example.com', href.invite);
      await (await ask(deps, email)).delivery;
      expect(await findInvite(deps, invite.url.split('/').pop()!)).toEqual({ email, name: null });
    });
  });
}
