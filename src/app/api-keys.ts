/** API keys (D11): `evp_<keyId>_<secret>`, only a SHA-256 hash stored, shown once. */
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError, UnauthorizedError } from '../domain/errors.js';
import type { ApiKeyRecord, KeyCredentials } from '../ports/identity-repository.js';
import { type AppDeps, nowText, type Principal } from './deps.js';

const KEY_PATTERN = /^evp_([0-9A-Za-z]{16})_([0-9A-Za-z]{32,128})$/;
const KEY_ID_LENGTH = 16;
const SECRET_LENGTH = 40;
/** lastUsedAt is written at most this often per key, so reads do not each cost a disk write. */
const TOUCH_INTERVAL_MS = 60_000;

/** Compared against when no key has the id, so an unknown id costs the same as a wrong secret. */
const NO_KEY_HASH = Buffer.alloc(32);

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function parseApiKey(key: string): { keyId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
}

export interface IssuedKey {
  keyId: string;
  key: string;
}

function newKey(
  deps: AppDeps,
  organizationId: string,
  userId: string,
): { record: ApiKeyRecord; key: string } {
  const keyId = deps.ids.token(KEY_ID_LENGTH);
  const secret = deps.ids.token(SECRET_LENGTH);
  return {
    key: `evp_${keyId}_${secret}`,
    record: {
      keyId,
      organizationId,
      userId,
      secretHash: hashSecret(secret),
      createdAt: nowText(deps),
      revokedAt: null,
      lastUsedAt: null,
    },
  };
}

/** A key for a deactivated user could never work: refuse it rather than hand out a dead key. */
async function findActiveUser(deps: AppDeps, userId: string) {
  const user = await deps.store.identity.findUser(userId);
  if (!user) throw new NotFoundError(`No user with id ${userId}.`);
  if (!user.active) throw new ConflictError(`User ${userId} is deactivated; their keys cannot be used.`);
  return user;
}

export async function issueKey(deps: AppDeps, userId: string): Promise<IssuedKey> {
  const user = await findActiveUser(deps, userId);
  const { record, key } = newKey(deps, user.organizationId, user.id);
  await deps.store.identity.insertKey(record);
  return { keyId: record.keyId, key };
}

async function findKeyOrThrow(deps: AppDeps, keyId: string) {
  const record = await deps.store.identity.findKey(keyId);
  if (!record) throw new NotFoundError(`No API key with id ${keyId}.`);
  return record;
}

export async function revokeKey(deps: AppDeps, keyId: string) {
  await findKeyOrThrow(deps, keyId);
  await deps.store.identity.revokeKey(keyId, nowText(deps));
  return { keyId };
}

/** Issues a new key for the same user and revokes the old one, in one transaction. */
export async function reissueKey(deps: AppDeps, keyId: string): Promise<IssuedKey> {
  const old = await findKeyOrThrow(deps, keyId);
  await findActiveUser(deps, old.userId);
  const { record, key } = newKey(deps, old.organizationId, old.userId);
  await deps.store.identity.replaceKey(keyId, record);
  return { keyId: record.keyId, key };
}

export async function listKeys(deps: AppDeps, organizationId: string) {
  // An unknown organization is an error, not an empty list: a mistyped id must not look like "no keys".
  if (!(await deps.store.identity.findOrganization(organizationId))) {
    throw new NotFoundError(`No organization with id ${organizationId}.`);
  }
  const keys = await deps.store.identity.listKeys(organizationId);
  return {
    keys: keys.map(({ keyId, userId, createdAt, revokedAt, lastUsedAt }) => ({
      keyId,
      userId,
      createdAt,
      revokedAt,
      lastUsedAt,
    })),
  };
}

/**
 * Checks a key: its credentials come from `readCredentials` (by default the identity store; a read
 * can also bring them along with the data it fetches, as `getEventDocumentWithKey` does).
 */
export type Authenticate = (
  key: string | undefined,
  readCredentials?: (keyId: string) => Promise<KeyCredentials | undefined>,
) => Promise<Principal>;

/** Checks a key on every request: revocation and deactivation take effect on the next one. */
export function createAuthenticator(deps: AppDeps): Authenticate {
  const lastTouched = new Map<string, number>();
  const fromIdentityStore = (keyId: string) => deps.store.identity.findCredentials(keyId);
  return async function authenticate(key, readCredentials = fromIdentityStore): Promise<Principal> {
    const parsed = key === undefined ? undefined : parseApiKey(key);
    if (!parsed) throw new UnauthorizedError(key ? 'The API key is not valid.' : undefined);
    const credentials = await readCredentials(parsed.keyId);
    const expected = credentials ? Buffer.from(credentials.secretHash, 'hex') : NO_KEY_HASH;
    // One-shot hash: no Hash object per request.
    const actual = hash('sha256', parsed.secret, 'buffer');
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
    if (!credentials || !matches || credentials.revoked || !credentials.userActive) {
      throw new UnauthorizedError('The API key is not valid.');
    }
    const now = deps.clock.now();
    const touched = lastTouched.get(parsed.keyId) ?? 0;
    if (now.getTime() - touched >= TOUCH_INTERVAL_MS) {
      lastTouched.set(parsed.keyId, now.getTime());
      // Best effort: a failed lastUsedAt write must not fail the request it describes.
      deps.store.identity
        .touchKey(parsed.keyId, now.toISOString())
        .catch(() => lastTouched.delete(parsed.keyId));
    }
    return { organizationId: credentials.organizationId, userId: credentials.userId, keyId: parsed.keyId };
  };
}
