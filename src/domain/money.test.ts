import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRoundingHalfUp, fromCents, percentOfCents, toBasisPoints, toCents } from './money.js';

describe('toCents and fromCents', () => {
  it('turns amounts with two decimals into exact cents, whatever the binary rounding of the number', () => {
    // 0.29 × 100 is 28.999999999999996 and 1.005 is not used (three decimals are refused before this).
    expect(toCents(0.29)).toBe(29n);
    expect(toCents(12.34)).toBe(1234n);
    expect(toCents(0)).toBe(0n);
    expect(toCents(1e15)).toBe(100_000_000_000_000_000n);
  });

  it('gives back the same amount for every amount with at most two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (cents) => {
        const amount = cents / 100;
        expect(toCents(amount)).toBe(BigInt(cents));
        expect(fromCents(BigInt(cents))).toBe(amount);
      }),
    );
  });
});

describe('toBasisPoints', () => {
  it('counts hundredths of a percent', () => {
    expect(toBasisPoints(12.5)).toBe(1250n);
    expect(toBasisPoints(0.07)).toBe(7n);
    expect(toBasisPoints(100)).toBe(10_000n);
  });
});

describe('divideRoundingHalfUp', () => {
  it('rounds to the nearest integer and halves up', () => {
    expect(divideRoundingHalfUp(5n, 2n)).toBe(3n); // 2.5 → 3
    expect(divideRoundingHalfUp(7n, 3n)).toBe(2n); // 2.33 → 2
    expect(divideRoundingHalfUp(8n, 3n)).toBe(3n); // 2.67 → 3
    expect(divideRoundingHalfUp(0n, 7n)).toBe(0n);
  });
});

describe('percentOfCents', () => {
  it('takes a percentage of cents and rounds once to the cent, halves up', () => {
    // 12.5% of 10.10 = 1.2625 → 1.26
    expect(percentOfCents(1010n, 1250n)).toBe(126n);
    // 15% of 0.10 = 0.015 → 0.02 (a half rounds up)
    expect(percentOfCents(10n, 1500n)).toBe(2n);
    // 100% is the amount itself; 0% is nothing
    expect(percentOfCents(98_765n, 10_000n)).toBe(98_765n);
    expect(percentOfCents(98_765n, 0n)).toBe(0n);
  });
});
