/**
 * Password hashing with node:crypto's scrypt at one of OWASP's parameter sets (Password Storage
 * Cheat Sheet): N=2^14, r=8, p=5. It costs as much CPU as N=2^17, r=8, p=1 but needs 16 MiB of memory
 * per hash instead of 128 MiB, so the four hashes libuv runs at once stay within 64 MiB. The
 * parameters are stored with each hash (`scrypt$N$r$p$salt$hash`, base64), so they can be raised
 * later without invalidating stored passwords.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { normalizePassword } from '../domain/password-policy.js';

export const SCRYPT_PARAMETERS = { N: 2 ** 14, r: 8, p: 5 } as const;

/** The parameters new hashes are made with: OWASP's, unless a test suite chose cheaper ones. */
let current: ScryptParameters = SCRYPT_PARAMETERS;
let dummy: Promise<string> | undefined;

/**
 * For test suites only (test/helpers/cheap-hashing.ts): new hashes use `parameters`. Hashes already
 * stored keep their own, since every hash carries them. The server never calls this.
 */
export function useHashParametersForTests(parameters: ScryptParameters): void {
  current = parameters;
  dummy = undefined;
}
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: ScryptParameters) {
  return new Promise<Buffer>((resolve, reject) => {
    // scrypt needs 128 * N * r bytes; allow twice that so node's default ceiling never refuses it.
    scrypt(normalizePassword(password), salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = current;
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, current);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `password` is the one `stored` was made from; false for a stored value of another format. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const expected = Buffer.from(match[5]!, 'base64');
  const actual = await derive(password, Buffer.from(match[4]!, 'base64'), expected.length, { N, r, p });
  return timingSafeEqual(expected, actual);
}

/**
 * A hash of a random password, made once per process: checked against when no account (or no password)
 * matches, so an unknown email costs the same time as a wrong password.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(18).toString('base64'));
  return dummy;
}
