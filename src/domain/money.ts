/**
 * Money in whole cents. Amounts arrive as numbers with at most two decimals (D6); sums, products and
 * percentages are worked in exact integer cents (BigInt) and rounded once, half up, so that a total
 * is always exactly the sum of its parts.
 */

/** Cents of an amount with at most two decimals: 12.34 → 1234n (12.34 × 100 is 1233.9999…, so round). */
export function toCents(amount: number): bigint {
  return BigInt(Math.round(amount * 100));
}

/** The amount of a number of cents: 1234n → 12.34. */
export function fromCents(cents: bigint): number {
  return Number(cents) / 100;
}

/** Hundredths of a percent of a percent with at most two decimals: 12.5 → 1250n; 100 → 10000n. */
export function toBasisPoints(percent: number): bigint {
  return BigInt(Math.round(percent * 100));
}

/** `numerator / denominator` for non-negative integers, rounded to the nearest integer, halves up. */
export function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** `percent` (in basis points) of an amount in cents, rounded to the cent, halves up. */
export function percentOfCents(cents: bigint, basisPoints: bigint): bigint {
  return divideRoundingHalfUp(cents * basisPoints, 10_000n);
}
