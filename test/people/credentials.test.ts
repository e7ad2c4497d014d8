/** Passwords: the policy, how they are stored, and sign-in answers that reveal nothing. */
import { expect, it } from 'vitest';
import { createOrganization, createUser, deactivateUser } from '../../src/app/organizations.js';
import { SCRYPT_PARAMETERS, useHashParametersForTests, verifyPassword } from '../../src/app/password-hash.js';
import { setPassword, signIn } from '../../src/app/people.js';
import { NotFoundError, SignInRefusedError, ValidationError } from '../../src/domain/errors.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { newPerson, peopleDeps, signInAs } from './people-deps.js';

// Every other suite hashes cheaply (test/helpers/cheap-hashing.ts); this one checks the real parameters.
useHashParametersForTests(SCRYPT_PARAMETERS);

const PASSWORD = 'correct horse battery';

for (const backend of BACKENDS) {
  describeStore(backend, 'passwords and sign-in', (store) => {
    it('refuses a short, an overlong or a common password, naming the field, and stores nothing', async () => {
      const deps = peopleDeps(store());
      const { organizationId, userId } = await newPerson(deps);
      for (const [password, code] of [
        ['seven77', 'too_short'],
        ['x'.repeat(129), 'too_long'],
        ['Password1', 'common_password'],
        ['iloveyou', 'common_password'],
      ] as const) {
        const refused = await setPassword(deps, userId, password).catch((error) => error);
        expect(refused).toBeInstanceOf(ValidationError);
        expect((refused as ValidationError).problems).toEqual([
          expect.objectContaining({ field: 'password', code }),
        ]);
      }
      expect(await store().credentials.findPasswordHash(organizationId, userId)).toBeUndefined();
    });

    it('stores only an scrypt hash with its parameters and a random salt', async () => {
      const deps = peopleDeps(store());
      const first = await newPerson(deps);
      const second = await newPerson(deps);
      expect(await setPassword(deps, first.userId, PASSWORD)).toEqual({ id: first.userId });
      await setPassword(deps, second.userId, PASSWORD);
      const stored = await store().credentials.findPasswordHash(first.organizationId, first.userId);
      const { N, r, p } = SCRYPT_PARAMETERS;
      // OWASP's scrypt set (Password Storage Cheat Sheet), as password-hash.ts says.
      expect({ N, r, p }).toEqual({ N: 16_384, r: 8, p: 5 });
      expect(stored).toMatch(
        new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9+/]{22}==\\$[A-Za-z0-9+/]{43}=$`),
      );
      expect(stored).not.toContain(PASSWORD);
      // The same password twice: different salts, different hashes.
      expect(await store().credentials.findPasswordHash(second.organizationId, second.userId)).not.toBe(
        stored,
      );
      expect(await verifyPassword(PASSWORD, stored!)).toBe(true);
      expect(await verifyPassword(`${PASSWORD}!`, stored!)).toBe(false);
    });

    it('refuses to set a password for an unknown user', async () => {
      const deps = peopleDeps(store());
      await expect(setPassword(deps, crypto.randomUUID(), PASSWORD)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('signs in with the email in any letter case, and makes a new session each time', async () => {
      const deps = peopleDeps(store());
      const { userId, email, organizationId } = await newPerson(
        deps,
        `Ada.${crypto.randomUUID()}@Example.com`,
      );
      await setPassword(deps, userId, PASSWORD);
      const first = await signInAs(deps, email.toUpperCase(), PASSWORD);
      const second = await signInAs(deps, `  ${email.toLowerCase()} `, PASSWORD);
      expect(first.person).toEqual({
        organizationId,
        userId,
        sessionId: expect.any(String),
        email,
        name: 'Pat Planner',
      });
      expect(second.person.sessionId).not.toBe(first.person.sessionId);
      expect(second.token).not.toBe(first.token);
      // At least 128 random bits: 43 base62 characters carry about 256.
      expect(first.token).toMatch(/^[0-9A-Za-z]{43}$/);
    });

    it('gives a wrong password, an unknown email, a deactivated person and one without a password the same answer', async () => {
      const deps = peopleDeps(store());
      const known = await newPerson(deps);
      await setPassword(deps, known.userId, PASSWORD);
      const leaver = await newPerson(deps);
      await setPassword(deps, leaver.userId, PASSWORD);
      await deactivateUser(deps, leaver.userId);
      const newcomer = await newPerson(deps);
      const attempts = [
        [known.email, 'wrong password here'],
        [`nobody-${crypto.randomUUID()}@example.com`, PASSWORD],
        [leaver.email, PASSWORD],
        [newcomer.email, PASSWORD],
      ] as const;
      const answers = [];
      for (const [email, password] of attempts) {
        answers.push(await signInAs(deps, email, password).catch((error) => error));
      }
      for (const answer of answers) {
        expect(answer).toBeInstanceOf(SignInRefusedError);
        expect(answer).toMatchObject({
          code: 'sign_in_refused',
          message: 'That email and password do not match an account.',
        });
      }
    });

    it('takes as long for an unknown email as for a wrong password', async () => {
      const deps = peopleDeps(store());
      const known = await newPerson(deps);
      await setPassword(deps, known.userId, PASSWORD);
      const timeOf = async (email: string) => {
        const started = performance.now();
        await signInAs(deps, email, 'not the password').catch(() => undefined);
        return performance.now() - started;
      };
      await timeOf('warm-up@example.com');
      const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
      const wrong = median([await timeOf(known.email), await timeOf(known.email), await timeOf(known.email)]);
      const unknown = median([
        await timeOf(`a-${crypto.randomUUID()}@example.com`),
        await timeOf(`b-${crypto.randomUUID()}@example.com`),
        await timeOf(`c-${crypto.randomUUID()}@example.com`),
      ]);
      // Both are dominated by one scrypt hash (tens of milliseconds); without the dummy hash an unknown
      // email would answer in about a millisecond.
      expect(unknown).toBeGreaterThan(wrong * 0.5);
      expect(unknown).toBeLessThan(wrong * 2);
    });

    it('signs in to the organization whose password matches when an email is in several', async () => {
      const deps = peopleDeps(store());
      const email = `shared-${crypto.randomUUID()}@example.com`;
      const { id: firstOrg } = await createOrganization(deps, 'First');
      const { id: secondOrg } = await createOrganization(deps, 'Second');
      const first = await createUser(deps, { organizationId: firstOrg, email });
      const second = await createUser(deps, { organizationId: secondOrg, email });
      await setPassword(deps, first.id, 'first organization password');
      await setPassword(deps, second.id, 'second organization password');
      const signedIn = await signIn(deps, {
        email,
        password: 'second organization password',
        clientAddress: '192.0.2.11',
        userAgent: null,
      });
      expect(signedIn.person).toMatchObject({ organizationId: secondOrg, userId: second.id });
    });
  });
}
