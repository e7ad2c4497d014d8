import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, listKeys, reissueKey, revokeKey } from '../../src/app/api-keys.js';
import { createUser, deactivateUser } from '../../src/app/organizations.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { clientFor, expectProblem } from './requests.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const list = (key: string | null) => clientFor(t, key).list();

async function newUserKey(email: string) {
  const user = await createUser(t.deps, { organizationId: t.demo.organizationId, email });
  return { userId: user.id, ...(await issueKey(t.deps, user.id)) };
}

describe('API keys (D11)', () => {
  it('issues keys of the form evp_<keyId>_<secret> that work at once', async () => {
    const { key, keyId } = await newUserKey('fresh@example.com');
    expect(key).toMatch(new RegExp(`^evp_${keyId}_[0-9A-Za-z]{32,}$`));
    expect((await list(key)).statusCode).toBe(200);
  });

  it('answers 401 unauthorized when the key is missing or empty', async () => {
    expectProblem(await list(null), 401, 'unauthorized');
    expectProblem(await list(''), 401, 'unauthorized');
  });

  it.each([
    ['a malformed key', 'not-a-key'],
    ['a key with the wrong prefix', 'sk_live_0123456789abcdef0123456789abcdef'],
    ['a key with a short secret', 'evp_0123456789abcdef_short'],
    ['a key of an unknown id', 'evp_0123456789abcdef_0123456789abcdef0123456789abcdef'],
  ])('answers 401 for %s', async (_label, key) => {
    expectProblem(await list(key), 401, 'unauthorized');
  });

  it('answers 401 for the right key id with a wrong secret', async () => {
    const { key } = await newUserKey('guessed@example.com');
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    expectProblem(await list(`${key.slice(0, -1)}${last}`), 401, 'unauthorized');
    expectProblem(await list(`${key}0`), 401, 'unauthorized');
    expect((await list(key)).statusCode).toBe(200);
  });

  it('stops accepting a revoked key on the next request', async () => {
    const { key, keyId } = await newUserKey('revoked@example.com');
    expect((await list(key)).statusCode).toBe(200);
    await revokeKey(t.deps, keyId);
    expectProblem(await list(key), 401, 'unauthorized');
    expectProblem(await clientFor(t, key).create({ name: 'After revoke' }), 401, 'unauthorized');
    // The demo key of the same organization is unaffected.
    expect((await list(t.key)).statusCode).toBe(200);
  });

  it('accepts a reissued key and refuses the one it replaced', async () => {
    const { key: old, keyId } = await newUserKey('reissued@example.com');
    const fresh = await reissueKey(t.deps, keyId);
    expect(fresh.keyId).not.toBe(keyId);
    expect((await list(fresh.key)).statusCode).toBe(200);
    expectProblem(await list(old), 401, 'unauthorized');
  });

  it("stops accepting a deactivated user's keys", async () => {
    const { key, userId } = await newUserKey('leaver@example.com');
    const second = await issueKey(t.deps, userId);
    expect((await list(key)).statusCode).toBe(200);
    await deactivateUser(t.deps, userId);
    expectProblem(await list(key), 401, 'unauthorized');
    expectProblem(await list(second.key), 401, 'unauthorized');
    // No new key for them either: it could never work.
    await expect(issueKey(t.deps, userId)).rejects.toMatchObject({ code: 'conflict' });
    await expect(reissueKey(t.deps, second.keyId)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('records when a key was last used', async () => {
    const { key, keyId } = await newUserKey('used@example.com');
    const before = (await listKeys(t.deps, t.demo.organizationId)).keys.find((k) => k.keyId === keyId);
    expect(before?.lastUsedAt).toBeNull();
    expect((await list(key)).statusCode).toBe(200);
    // lastUsedAt is written in the background, best effort.
    await expect
      .poll(async () => (await listKeys(t.deps, t.demo.organizationId)).keys.find((k) => k.keyId === keyId))
      .toMatchObject({ lastUsedAt: expect.any(String) });
  });
});
