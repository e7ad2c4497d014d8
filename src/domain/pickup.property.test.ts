/**
 * Properties of the pickup and of what the nightly basis owes (D30) over random blocks and random
 * rooming lists (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attritionOwed, pickupGrid, pickupTotals, type StayingGuest } from './pickup.js';
import type { RoomRates } from './room-rates.js';
import { ROOM_TYPES } from './types.js';

const RUNS = 300;
const NIGHTS = ['2027-05-10', '2027-05-11', '2027-05-12', '2027-05-13', '2027-05-14'];
const DAYS = [...NIGHTS, '2027-05-15'];

const block: fc.Arbitrary<RoomRates> = fc.dictionary(
  fc.constantFrom(...NIGHTS),
  fc.dictionary(
    fc.constantFrom(...ROOM_TYPES),
    fc.record({
      count: fc.integer({ min: 0, max: 40 }),
      rate: fc.integer({ min: 0, max: 50_000 }).map((cents) => cents / 100),
    }),
  ),
);

const guests: fc.Arbitrary<StayingGuest[]> = fc
  .array(
    fc.record({
      roomType: fc.constantFrom(...ROOM_TYPES),
      from: fc.integer({ min: 0, max: NIGHTS.length - 1 }),
      nights: fc.integer({ min: 1, max: NIGHTS.length }),
      shares: fc.option(fc.nat(), { nil: null }),
    }),
    { maxLength: 120 },
  )
  .map((drawn) =>
    drawn.map((guest, index) => ({
      id: `g${index}`,
      roomType: guest.roomType,
      arrival: DAYS[guest.from]!,
      departure: DAYS[Math.min(guest.from + guest.nights, DAYS.length - 1)]!,
      sharesWith: guest.shares === null || index === 0 ? null : `g${guest.shares % index}`,
    })),
  );

const percent = fc.integer({ min: 0, max: 10_000 }).map((hundredths) => hundredths / 100);

describe('the nightly basis', () => {
  it('never charges more rooms on a night than were contracted that night', () => {
    fc.assert(
      fc.property(block, guests, percent, percent, (rooms, list, attritionPercent, chargePercent) => {
        const owed = attritionOwed(
          { rooms, attritionPercent, attritionBasis: 'nightly', attritionChargePercent: chargePercent },
          pickupGrid(rooms, list),
        )!;
        for (const [night, cells] of Object.entries(owed.charged!)) {
          for (const [roomType, charged] of Object.entries(cells)) {
            expect(charged).toBeLessThanOrEqual(
              rooms[night]![roomType as keyof (typeof rooms)[string]]!.count,
            );
            expect(charged).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('never owes more than the whole block at its rates, nor less than nothing', () => {
    fc.assert(
      fc.property(block, guests, percent, (rooms, list, attritionPercent) => {
        const grid = pickupGrid(rooms, list);
        const full = Object.values(rooms)
          .flatMap((cells) => Object.values(cells))
          .reduce((sum, cell) => sum + Math.round(cell.rate * 100) * cell.count, 0);
        for (const attritionBasis of ['nightly', 'cumulative'] as const) {
          const owed = attritionOwed(
            { rooms, attritionPercent, attritionBasis, attritionChargePercent: 100 },
            grid,
          )!;
          expect(owed.amount).toBeGreaterThanOrEqual(0);
          expect(Math.round(owed.amount * 100)).toBeLessThanOrEqual(full);
          expect(owed.roomNights).toBeLessThanOrEqual(pickupTotals(grid).contracted);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('owes at least as many room nights as the cumulative basis', () => {
    fc.assert(
      fc.property(block, guests, percent, (rooms, list, attritionPercent) => {
        const grid = pickupGrid(rooms, list);
        const owed = (attritionBasis: 'nightly' | 'cumulative') =>
          attritionOwed({ rooms, attritionPercent, attritionBasis, attritionChargePercent: 100 }, grid)!
            .roomNights;
        // Per-cell rounding up can ask for a few more rooms than rounding once, never fewer.
        expect(owed('nightly')).toBeGreaterThanOrEqual(owed('cumulative'));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the pickup', () => {
  it('fills no more rooms on a night and type than there are guests there, and short and over never both', () => {
    fc.assert(
      fc.property(block, guests, (rooms, list) => {
        const grid = pickupGrid(rooms, list);
        for (const [night, cells] of Object.entries(grid)) {
          for (const [roomType, cell] of Object.entries(cells)) {
            const present = list.filter(
              (guest) => guest.roomType === roomType && guest.arrival <= night && night < guest.departure,
            ).length;
            expect(cell.picked).toBeLessThanOrEqual(present);
            expect(cell.picked > 0).toBe(present > 0);
            expect(cell.short === 0 || cell.over === 0).toBe(true);
            expect(cell.contracted - cell.picked).toBe(cell.short - cell.over);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
