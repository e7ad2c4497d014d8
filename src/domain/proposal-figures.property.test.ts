/**
 * Properties of the computed parts of a proposal (D23) over random room blocks and random proposals
 * (fast-check), checked against definitions written here in plain integer arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProposalTerms } from './proposal.js';
import { attritionExposureAt80, proposalTotals, roomBlockCoverage, TOTAL_PARTS } from './proposal-figures.js';
import type { RoomRates } from './room-rates.js';
import { type Accommodations, ROOM_TYPES } from './types.js';

const RUNS = 300;
const NIGHTS = ['2027-05-11', '2027-05-12', '2027-05-13', '2027-05-14'];

const count = fc.integer({ min: 0, max: 300 });
/** Amounts with at most two decimals, as the API accepts them: whole cents divided by 100. */
const amount = fc.integer({ min: 0, max: 5_000_000 }).map((cents) => cents / 100);
const percent = fc.integer({ min: 0, max: 10_000 }).map((hundredths) => hundredths / 100);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });

const requested: fc.Arbitrary<Accommodations> = fc.dictionary(
  fc.constantFrom(...NIGHTS),
  fc.dictionary(fc.constantFrom(...ROOM_TYPES), count),
);
const offered: fc.Arbitrary<RoomRates> = fc.dictionary(
  fc.constantFrom(...NIGHTS),
  fc.dictionary(fc.constantFrom(...ROOM_TYPES), fc.record({ count, rate: amount })),
);

const terms: fc.Arbitrary<ProposalTerms> = fc.record({
  validUntil: fc.constant('2027-04-01'),
  currency: fc.constantFrom('EUR', 'USD'),
  offeredDates: fc.constant(null),
  holdOption: fc.constant('none' as const),
  rooms: offered,
  meetingRoomRental: maybe(amount),
  foodBeverageMinimum: maybe(amount),
  avEstimate: maybe(amount),
  otherCharges: maybe(amount),
  roomTaxPercent: maybe(percent),
  serviceChargePercent: maybe(percent),
  attritionPercent: maybe(percent),
  depositPercent: maybe(percent),
  commissionPercent: maybe(percent),
  cutoffDate: fc.constant(null),
  cancellation: fc.constant([]),
  notes: fc.constant(null),
});

// ---- Independent definitions, in whole cents and hundredths of a percent ------------------------

const cents = (value: number | null) => Math.round((value ?? 0) * 100);
/** `share` hundredths of a percent of `base` cents, halves up. */
const share = (base: number, hundredths: number) => Math.floor((base * hundredths + 5000) / 10000);

function expectedRoomsCents(rates: RoomRates): number {
  let sum = 0;
  for (const night of Object.values(rates))
    for (const cell of Object.values(night)) sum += cell!.count * cents(cell!.rate);
  return sum;
}

describe('coverage', () => {
  it('never covers more than was requested nor more than was offered, and the percent stays in 0–100', () => {
    fc.assert(
      fc.property(requested, offered, (asked, given) => {
        const coverage = roomBlockCoverage(asked, given);
        expect(coverage.coveredRoomNights).toBeLessThanOrEqual(coverage.requestedRoomNights);
        expect(coverage.coveredRoomNights).toBeLessThanOrEqual(coverage.offeredRoomNights);
        if (coverage.requestedRoomNights === 0) expect(coverage.percent).toBeNull();
        else {
          expect(coverage.percent).toBeGreaterThanOrEqual(0);
          expect(coverage.percent).toBeLessThanOrEqual(100);
          expect(
            Math.abs(coverage.percent! - (coverage.coveredRoomNights / coverage.requestedRoomNights) * 100),
          ).toBeLessThanOrEqual(0.05);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('falls short by exactly what is not covered, night by night and type by type', () => {
    fc.assert(
      fc.property(requested, offered, (asked, given) => {
        const coverage = roomBlockCoverage(asked, given);
        let missing = 0;
        for (const [night, types] of Object.entries(coverage.shortfall)) {
          for (const [type, short] of Object.entries(types)) {
            const wanted = asked[night]?.[type as keyof (typeof asked)[string]] ?? 0;
            const available = given[night]?.[type as keyof (typeof given)[string]]?.count ?? 0;
            expect(short).toBe(wanted - available);
            expect(short).toBeGreaterThan(0);
            missing += short!;
          }
        }
        expect(missing).toBe(coverage.requestedRoomNights - coverage.coveredRoomNights);
      }),
      { numRuns: RUNS },
    );
  });

  it('covers everything when the offer is the request itself', () => {
    fc.assert(
      fc.property(requested, (asked) => {
        const same: RoomRates = {};
        for (const [night, types] of Object.entries(asked)) {
          same[night] = Object.fromEntries(
            Object.entries(types).map(([type, rooms]) => [type, { count: rooms!, rate: 100 }]),
          );
        }
        const coverage = roomBlockCoverage(asked, same);
        expect(coverage.coveredRoomNights).toBe(coverage.requestedRoomNights);
        expect(coverage.shortfall).toEqual({});
        if (coverage.requestedRoomNights > 0) expect(coverage.percent).toBe(100);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('totals', () => {
  it('match the definition in whole cents, and the total is exactly the sum of the parts', () => {
    fc.assert(
      fc.property(terms, (proposal) => {
        const totals = proposalTotals(proposal);
        const rooms = expectedRoomsCents(proposal.rooms);
        const minimum = cents(proposal.foodBeverageMinimum);
        const expected = {
          rooms,
          roomTax: share(rooms, cents(proposal.roomTaxPercent)),
          meetingRooms: cents(proposal.meetingRoomRental),
          foodBeverage: minimum + share(minimum, cents(proposal.serviceChargePercent)),
          av: cents(proposal.avEstimate),
          other: cents(proposal.otherCharges),
        };
        for (const part of TOTAL_PARTS) expect(cents(totals[part]), part).toBe(expected[part]);
        const sum = TOTAL_PARTS.reduce((total, part) => total + cents(totals[part]), 0);
        expect(cents(totals.total)).toBe(sum);
        // Every figure is an amount of whole cents, as the API writes amounts.
        for (const value of Object.values(totals))
          expect(Number.isInteger(Math.round(value * 100))).toBe(true);
        expect(totals.roomTax).toBeLessThanOrEqual(totals.rooms);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('attrition exposure', () => {
  it('is at most a fifth of the rooms, zero from 20% attrition up, and unknown without a percent', () => {
    fc.assert(
      fc.property(terms, (proposal) => {
        const exposure = attritionExposureAt80(proposal);
        if (proposal.attritionPercent === null) {
          expect(exposure).toBeNull();
          return;
        }
        const rooms = expectedRoomsCents(proposal.rooms);
        const beyond = Math.max(0, 2000 - cents(proposal.attritionPercent));
        expect(cents(exposure)).toBe(share(rooms, beyond));
        expect(cents(exposure)).toBeLessThanOrEqual(share(rooms, 2000));
        if (proposal.attritionPercent >= 20) expect(exposure).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });
});
