/** The identity repository contract (organizations, people, groups, keys), run on every backend. */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { BACKENDS, describeStore } from './backends.js';
import { newGroup, newKey, newOrganization, newUser, nextTime } from './fixtures.js';

for (const backend of BACKENDS) {
  describeStore(backend, 'identity repository', (store) => {
    let org: string;

    beforeAll(async () => {
      org = await newOrganization(store(), 'Acme');
    });

    it('stores organizations and counts them', async () => {
      const before = await store().identity.countOrganizations();
      const createdAt = nextTime();
      const id = randomUUID();
      await store().identity.insertOrganization({ id, name: 'Globex', createdAt });
      expect(await store().identity.findOrganization(id)).toEqual({ id, name: 'Globex', createdAt });
      expect(await store().identity.countOrganizations()).toBe(before + 1);
      expect(await store().identity.findOrganization(randomUUID())).toBeUndefined();
    });

    it('finds users by id and by email within their organization only', async () => {
      const createdAt = nextTime();
      const user = {
        id: randomUUID(),
        organizationId: org,
        email: 'ada@example.com',
        name: 'Ada',
        active: true,
        createdAt,
      };
      await store().identity.insertUser(user);
      expect(await store().identity.findUser(user.id)).toEqual(user);
      expect(await store().identity.findUserByEmail(org, 'ada@example.com')).toEqual(user);
      const other = await newOrganization(store());
      expect(await store().identity.findUserByEmail(other, 'ada@example.com')).toBeUndefined();
      // The same address may exist once in every organization.
      await newUser(store(), other, 'ada@example.com');
      await expect(newUser(store(), org, 'ada@example.com')).rejects.toThrow();
    });

    it('deactivates a user, which their key credentials then report', async () => {
      const userId = await newUser(store(), org);
      await store().identity.insertKey(newKey(org, userId, 'DeactivatedKey01'));
      expect((await store().identity.findCredentials('DeactivatedKey01'))?.userActive).toBe(true);
      await store().identity.deactivateUser(userId);
      expect((await store().identity.findUser(userId))?.active).toBe(false);
      expect((await store().identity.findCredentials('DeactivatedKey01'))?.userActive).toBe(false);
    });

    it('adds members, changes a role in place, and removes a member once', async () => {
      const userId = await newUser(store(), org);
      const groupId = await newGroup(store(), org, [[userId, 'member']]);
      const group = await store().identity.findGroup(groupId);
      expect(group).toMatchObject({ id: groupId, organizationId: org, name: 'Group' });
      expect(group?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      await store().identity.putMember(org, groupId, userId, 'approver');
      const records = [];
      for await (const batch of store().transfer.exportRecords()) {
        if (batch.kind === 'memberships') records.push(...batch.records.filter((m) => m.groupId === groupId));
      }
      expect(records).toEqual([{ organizationId: org, groupId, userId, role: 'approver' }]);
      expect(await store().identity.removeMember(groupId, userId)).toBe(true);
      expect(await store().identity.removeMember(groupId, userId)).toBe(false);
      expect(await store().identity.removeMember(randomUUID(), userId)).toBe(false);
    });

    it('keeps a key as written and reports its credentials in one read', async () => {
      const userId = await newUser(store(), org);
      const key = newKey(org, userId, 'RoundTripKey0001');
      await store().identity.insertKey(key);
      expect(await store().identity.findKey('RoundTripKey0001')).toEqual(key);
      expect(await store().identity.findCredentials('RoundTripKey0001')).toEqual({
        keyId: 'RoundTripKey0001',
        organizationId: org,
        userId,
        secretHash: key.secretHash,
        revoked: false,
        userActive: true,
      });
      expect(await store().identity.findKey('UnknownKey000000')).toBeUndefined();
      expect(await store().identity.findCredentials('UnknownKey000000')).toBeUndefined();
    });

    it('keeps the first revocation time, and replaces a key in one step', async () => {
      const userId = await newUser(store(), org);
      await store().identity.insertKey(newKey(org, userId, 'RevokedKey000001'));
      const firstRevocation = nextTime();
      await store().identity.revokeKey('RevokedKey000001', firstRevocation);
      await store().identity.revokeKey('RevokedKey000001', nextTime());
      expect((await store().identity.findKey('RevokedKey000001'))?.revokedAt).toBe(firstRevocation);
      expect((await store().identity.findCredentials('RevokedKey000001'))?.revoked).toBe(true);

      await store().identity.insertKey(newKey(org, userId, 'ReplacedKey00001'));
      const replacement = newKey(org, userId, 'ReplacementKey01');
      await store().identity.replaceKey('ReplacedKey00001', replacement);
      expect((await store().identity.findKey('ReplacedKey00001'))?.revokedAt).toBe(replacement.createdAt);
      expect(await store().identity.findKey('ReplacementKey01')).toEqual(replacement);
      // A replacement whose id is taken fails as a whole: the old key stays valid.
      await store().identity.insertKey(newKey(org, userId, 'StillValidKey001'));
      await expect(
        store().identity.replaceKey('StillValidKey001', newKey(org, userId, 'ReplacementKey01')),
      ).rejects.toThrow();
      expect((await store().identity.findKey('StillValidKey001'))?.revokedAt).toBeNull();
    });

    it('records when a key was last used', async () => {
      const userId = await newUser(store(), org);
      await store().identity.insertKey(newKey(org, userId, 'TouchedKey000001'));
      const at = nextTime();
      await store().identity.touchKey('TouchedKey000001', at);
      expect((await store().identity.findKey('TouchedKey000001'))?.lastUsedAt).toBe(at);
    });

    it("lists an organization's keys by creation time, then key id compared byte by byte", async () => {
      const own = await newOrganization(store());
      const userId = await newUser(store(), own);
      const createdAt = nextTime();
      // Upper case sorts before lower case byte by byte, unlike most locales' collations.
      for (const keyId of ['bKeyLowerCase001', 'AKeyUpperCase001', 'ZKeyUpperCase001']) {
        await store().identity.insertKey({ ...newKey(own, userId, keyId), createdAt });
      }
      await store().identity.insertKey(newKey(own, userId, '0KeyCreatedLater'));
      const keys = await store().identity.listKeys(own);
      expect(keys.map((key) => key.keyId)).toEqual([
        'AKeyUpperCase001',
        'ZKeyUpperCase001',
        'bKeyLowerCase001',
        '0KeyCreatedLater',
      ]);
      expect(await store().identity.listKeys(await newOrganization(store()))).toEqual([]);
    });
  });
}
