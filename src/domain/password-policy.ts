/**
 * What a password must be (D15, OWASP ASVS 5 chapter 6): 8 to 128 characters, counted as Unicode
 * code points, no composition rules, and not on a list of common passwords. The list is passed in:
 * the domain loads nothing.
 */
import type { Problem } from './errors.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The form a password is checked, hashed and compared in: Unicode NFKC, so the same characters typed
 * on two keyboards (composed or decomposed accents, full-width digits) are the same password.
 */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

/** Every problem with a password, in one list (empty when it is acceptable). */
export function passwordProblems(password: string, commonPasswords: ReadonlySet<string>): Problem[] {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return [
      {
        field: 'password',
        code: 'too_short',
        message: `must be at least ${PASSWORD_MIN_LENGTH} characters long (it has ${length})`,
      },
    ];
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return [
      {
        field: 'password',
        code: 'too_long',
        message: `must be at most ${PASSWORD_MAX_LENGTH} characters long (it has ${length})`,
      },
    ];
  }
  if (commonPasswords.has(normalized.toLowerCase())) {
    return [
      {
        field: 'password',
        code: 'common_password',
        message: 'is on a list of commonly used passwords; choose one that is harder to guess',
      },
    ];
  }
  return [];
}
