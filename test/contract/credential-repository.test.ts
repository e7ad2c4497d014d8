/** The credential repository contract (passwords, sign-in candidates, invites, password resets), run on every backend. */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { InviteRecord } from '../../src/ports/credential-repository.js';
import { BACKENDS, describeStore } from './backends.js';
import { newOrganization, newUser, nextTime } from './fixtures.js';

const hashOf = () => randomUUID().replaceAll('-', '').repeat(2);

function newInvite(
  organizationId: string,
  userId: string,
  overrides: Partial<InviteRecord> = {},
): InviteRecord {
  return {
    organizationId,
    id: randomUUID(),
    userId,
    tokenHash: hashOf(),
    createdAt: '2026-03-01T09:00:00.000Z',
    expiresAt: '2026-03-02T09:00:00.000Z',
    usedAt: null,
    ...overrides,
  };
}

for (const backend of BACKENDS) {
  describeStore(backend, 'credential repository', (store) => {
    let org: string;

    beforeAll(async () => {
      org = await newOrganization(store(), 'Acme');
    });

    it('stores one password hash per person and replaces it', async () => {
      const userId = await newUser(store(), org);
      expect(await store().credentials.findPasswordHash(org, userId)).toBeUndefined();
      await store().credentials.setPassword(org, userId, 'scrypt$first', nextTime());
      await store().credentials.setPassword(org, userId, 'scrypt$second', nextTime());
      expect(await store().credentials.findPasswordHash(org, userId)).toBe('scrypt$second');
      const records = [];
      for await (const batch of store().transfer.exportRecords()) {
        if (batch.kind === 'passwords') records.push(...batch.records.filter((p) => p.userId === userId));
      }
      expect(records).toHaveLength(1);
    });

    it('finds sign-in candidates by email whatever the letter case, in every organization', async () => {
      const other = await newOrganization(store(), 'Globex');
      const first = await newUser(store(), org, 'Grace.Hopper@Example.com');
      const second = await newUser(store(), other, 'grace.hopper@example.com');
      await store().credentials.setPassword(org, first, 'scrypt$grace', nextTime());
      await store().identity.deactivateUser(second);
      const candidates = await store().credentials.findSignInCandidates('GRACE.HOPPER@example.COM');
      const expected = [
        {
          organizationId: org,
          userId: first,
          email: 'Grace.Hopper@Example.com',
          name: null,
          active: true,
          passwordHash: 'scrypt$grace',
        },
        {
          organizationId: other,
          userId: second,
          email: 'grace.hopper@example.com',
          name: null,
          active: false,
          passwordHash: null,
        },
      ].sort((a, b) => (a.organizationId < b.organizationId ? -1 : 1));
      expect(candidates).toEqual(expected);
      expect(await store().credentials.findSignInCandidates('nobody@example.com')).toEqual([]);
      // Only a whole address matches: no patterns.
      expect(await store().credentials.findSignInCandidates('grace.hopper@example.co%')).toEqual([]);
    });

    it('keeps an invite as written, with the person it is for', async () => {
      const userId = await newUser(store(), org, `${randomUUID()}@example.com`);
      const invite = newInvite(org, userId);
      await store().credentials.insertInvite(invite);
      const found = await store().credentials.findInvite(invite.tokenHash);
      const user = await store().identity.findUser(userId);
      expect(found).toEqual({ ...invite, email: user!.email, name: null, userActive: true });
      expect(await store().credentials.findInvite(hashOf())).toBeUndefined();
    });

    it('voids the earlier invites of a person when a new one is stored', async () => {
      const userId = await newUser(store(), org);
      const old = newInvite(org, userId);
      const other = await newUser(store(), org);
      const othersInvite = newInvite(org, other);
      await store().credentials.insertInvite(old);
      await store().credentials.insertInvite(othersInvite);
      const replacement = newInvite(org, userId);
      await store().credentials.insertInvite(replacement);
      expect(await store().credentials.findInvite(old.tokenHash)).toBeUndefined();
      expect(await store().credentials.findInvite(replacement.tokenHash)).toBeDefined();
      expect(await store().credentials.findInvite(othersInvite.tokenHash)).toBeDefined();
    });

    it('redeems an invite once: marks it used and sets the password together', async () => {
      const userId = await newUser(store(), org);
      const invite = newInvite(org, userId);
      await store().credentials.insertInvite(invite);
      const at = '2026-03-01T10:00:00.000Z';
      expect(await store().credentials.redeemInvite(invite.tokenHash, 'scrypt$chosen', at)).toEqual({
        organizationId: org,
        userId,
      });
      expect(await store().credentials.findPasswordHash(org, userId)).toBe('scrypt$chosen');
      expect((await store().credentials.findInvite(invite.tokenHash))?.usedAt).toBe(at);
      expect(await store().credentials.redeemInvite(invite.tokenHash, 'scrypt$again', at)).toBeUndefined();
      expect(await store().credentials.findPasswordHash(org, userId)).toBe('scrypt$chosen');
    });

    it('lets exactly one of many concurrent redemptions of an invite succeed', async () => {
      const userId = await newUser(store(), org);
      const invite = newInvite(org, userId);
      await store().credentials.insertInvite(invite);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store().credentials.redeemInvite(invite.tokenHash, `scrypt$racer${i}`, '2026-03-01T10:00:00.000Z'),
        ),
      );
      const winners = results.map((result, i) => (result ? i : -1)).filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      expect(await store().credentials.findPasswordHash(org, userId)).toBe(`scrypt$racer${winners[0]}`);
    });

    it('refuses to redeem an expired invite, or one whose person is deactivated, and writes nothing', async () => {
      const expiredFor = await newUser(store(), org);
      const expired = newInvite(org, expiredFor, { expiresAt: '2026-03-01T10:00:00.000Z' });
      await store().credentials.insertInvite(expired);
      expect(
        await store().credentials.redeemInvite(expired.tokenHash, 'scrypt$late', '2026-03-01T10:00:00.000Z'),
      ).toBeUndefined();
      expect(await store().credentials.findPasswordHash(org, expiredFor)).toBeUndefined();
      expect((await store().credentials.findInvite(expired.tokenHash))?.usedAt).toBeNull();

      const leaver = await newUser(store(), org);
      const invite = newInvite(org, leaver);
      await store().credentials.insertInvite(invite);
      await store().identity.deactivateUser(leaver);
      expect((await store().credentials.findInvite(invite.tokenHash))?.userActive).toBe(false);
      expect(
        await store().credentials.redeemInvite(invite.tokenHash, 'scrypt$gone', '2026-03-01T10:00:00.000Z'),
      ).toBeUndefined();
      expect(await store().credentials.findPasswordHash(org, leaver)).toBeUndefined();
    });

    it('keeps password resets apart from invites: asking for one voids the earlier reset, never an invite', async () => {
      const userId = await newUser(store(), org, `${randomUUID()}@example.com`);
      const invite = newInvite(org, userId);
      await store().credentials.insertInvite(invite);
      const first = newInvite(org, userId);
      const second = newInvite(org, userId);
      await store().credentials.insertPasswordReset(first);
      await store().credentials.insertPasswordReset(second);
      expect(await store().credentials.findPasswordReset(first.tokenHash)).toBeUndefined();
      expect(await store().credentials.findPasswordReset(second.tokenHash)).toMatchObject({
        userId,
        usedAt: null,
      });
      expect(await store().credentials.findInvite(invite.tokenHash)).toBeDefined();
      // Each kind of link is redeemed only where it belongs.
      expect(await store().credentials.findInvite(second.tokenHash)).toBeUndefined();
      expect(await store().credentials.findPasswordReset(invite.tokenHash)).toBeUndefined();
    });

    it('redeems a password reset once, before it expires, setting the password with it', async () => {
      const userId = await newUser(store(), org);
      const reset = newInvite(org, userId, { expiresAt: '2026-03-01T10:00:00.000Z' });
      await store().credentials.insertPasswordReset(reset);
      const late = '2026-03-01T10:00:00.000Z';
      expect(
        await store().credentials.redeemPasswordReset(reset.tokenHash, 'scrypt$late', late),
      ).toBeUndefined();
      expect(await store().credentials.findPasswordHash(org, userId)).toBeUndefined();
      const at = '2026-03-01T09:30:00.000Z';
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          store().credentials.redeemPasswordReset(reset.tokenHash, `scrypt$racer${i}`, at),
        ),
      );
      const winners = results.map((result, i) => (result ? i : -1)).filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      expect(results[winners[0]!]).toEqual({ organizationId: org, userId });
      expect(await store().credentials.findPasswordHash(org, userId)).toBe(`scrypt$racer${winners[0]}`);
      expect((await store().credentials.findPasswordReset(reset.tokenHash))?.usedAt).toBe(at);
    });
  });
}
