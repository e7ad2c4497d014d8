import { describe, expect, it } from 'vitest';
import { normalizePassword, passwordProblems } from './password-policy.js';

const common = new Set(['password', 'letmein123']);

describe('password policy', () => {
  it('accepts 8 to 128 characters of any kind, without composition rules', () => {
    expect(passwordProblems('correct horse', common)).toEqual([]);
    expect(passwordProblems('aaaaaaaa', common)).toEqual([]);
    expect(passwordProblems('x'.repeat(128), common)).toEqual([]);
  });

  it('refuses fewer than 8 characters, naming the field and the count', () => {
    expect(passwordProblems('short', common)).toEqual([
      { field: 'password', code: 'too_short', message: 'must be at least 8 characters long (it has 5)' },
    ]);
    expect(passwordProblems('', common)[0]?.code).toBe('too_short');
  });

  it('refuses more than 128 characters', () => {
    expect(passwordProblems('x'.repeat(129), common)).toEqual([
      { field: 'password', code: 'too_long', message: 'must be at most 128 characters long (it has 129)' },
    ]);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    // Seven emoji are 14 UTF-16 units and 28 bytes, but 7 characters.
    expect(passwordProblems('🎉'.repeat(7), common)[0]?.code).toBe('too_short');
    expect(passwordProblems('🎉'.repeat(8), common)).toEqual([]);
    expect(passwordProblems('é'.repeat(128), common)).toEqual([]);
  });

  it('refuses a common password whatever its letter case', () => {
    expect(passwordProblems('PassWord', common)).toEqual([
      {
        field: 'password',
        code: 'common_password',
        message: 'is on a list of commonly used passwords; choose one that is harder to guess',
      },
    ]);
    expect(passwordProblems('LetMeIn123', common)[0]?.code).toBe('common_password');
  });

  it('treats composed and decomposed accents as the same password', () => {
    expect(normalizePassword('cafe\u0301 au lait')).toBe(normalizePassword('caf\u00e9 au lait'));
  });
});
