import { describe, expect, it } from 'vitest';
import {
  attritionOwed,
  cancellationCost,
  type PickupGrid,
  percentPicked,
  pickupGrid,
  pickupTotals,
  roomsRequired,
  type StayingGuest,
} from './pickup.js';
import type { RoomRates } from './room-rates.js';
import type { RoomType } from './types.js';

/** A block with shoulder nights: 10 Doubles at 100 either side of two peak nights of 40 at 150. */
const BLOCK: RoomRates = {
  '2027-05-11': { Double: { count: 10, rate: 100 } },
  '2027-05-12': { Double: { count: 40, rate: 150 } },
  '2027-05-13': { Double: { count: 40, rate: 150 } },
  '2027-05-14': { Double: { count: 10, rate: 100 } },
};

let nextId = 0;
/** `count` guests of `roomType` staying from `arrival` to `departure`, each in a room of their own. */
function staying(count: number, arrival: string, departure: string, roomType: RoomType = 'Double') {
  return Array.from(
    { length: count },
    (): StayingGuest => ({ id: `g${nextId++}`, roomType, arrival, departure, sharesWith: null }),
  );
}

/** One guest per night and count given: `{ night: picked }` for Doubles. */
function pickedPerNight(picked: Record<string, number>): StayingGuest[] {
  return Object.entries(picked).flatMap(([night, count]) => {
    const next = new Date(Date.parse(`${night}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    return staying(count, night, next);
  });
}

const terms = (overrides: Partial<Parameters<typeof attritionOwed>[0]> = {}) => ({
  rooms: BLOCK,
  attritionPercent: 20,
  attritionBasis: 'cumulative' as const,
  attritionChargePercent: 100,
  ...overrides,
});

describe('pickupGrid', () => {
  it('counts a guest on every night from arrival to the day before departure', () => {
    const grid = pickupGrid(BLOCK, staying(3, '2027-05-12', '2027-05-14'));
    expect(grid['2027-05-11']?.Double).toEqual({ contracted: 10, picked: 0, short: 10, over: 0 });
    expect(grid['2027-05-12']?.Double).toEqual({ contracted: 40, picked: 3, short: 37, over: 0 });
    expect(grid['2027-05-13']?.Double).toEqual({ contracted: 40, picked: 3, short: 37, over: 0 });
    expect(grid['2027-05-14']?.Double).toEqual({ contracted: 10, picked: 0, short: 10, over: 0 });
  });

  it('counts two guests sharing a room as one room, on the nights they are both there', () => {
    const [a, b] = staying(2, '2027-05-12', '2027-05-14');
    const guests = [a!, { ...b!, sharesWith: a!.id, departure: '2027-05-15' }];
    const grid = pickupGrid(BLOCK, guests);
    expect(grid['2027-05-12']?.Double?.picked).toBe(1);
    expect(grid['2027-05-13']?.Double?.picked).toBe(1);
    expect(grid['2027-05-14']?.Double?.picked).toBe(1);
  });

  it('counts three guests linked through one another as one room', () => {
    const [a, b, c] = staying(3, '2027-05-12', '2027-05-13');
    const guests = [a!, { ...b!, sharesWith: a!.id }, { ...c!, sharesWith: b!.id }];
    expect(pickupGrid(BLOCK, guests)['2027-05-12']?.Double?.picked).toBe(1);
  });

  it('marks a night filled beyond its block as over and a guest on a type the block lacks as over', () => {
    const grid = pickupGrid(BLOCK, [
      ...staying(12, '2027-05-11', '2027-05-12'),
      ...staying(1, '2027-05-12', '2027-05-13', 'Suite'),
    ]);
    expect(grid['2027-05-11']?.Double).toEqual({ contracted: 10, picked: 12, short: 0, over: 2 });
    expect(grid['2027-05-12']?.Suite).toEqual({ contracted: 0, picked: 1, short: 0, over: 1 });
  });

  it('sums the totals and the percent picked with one decimal', () => {
    const grid = pickupGrid(BLOCK, pickedPerNight({ '2027-05-11': 5, '2027-05-12': 30, '2027-05-13': 45 }));
    const totals = pickupTotals(grid);
    expect(totals).toEqual({ contracted: 100, picked: 80, short: 25, over: 5 });
    expect(percentPicked(totals)).toBe(80);
    expect(percentPicked({ contracted: 3, picked: 1, short: 2, over: 0 })).toBe(33.3);
    expect(percentPicked({ contracted: 0, picked: 0, short: 0, over: 0 })).toBeNull();
  });
});

describe('attritionOwed', () => {
  // Picked 5, 30, 45 and 2: 82 room nights of the 100 contracted, over on the third night.
  const overAndShort = pickupGrid(
    BLOCK,
    pickedPerNight({ '2027-05-11': 5, '2027-05-12': 30, '2027-05-13': 45, '2027-05-14': 2 }),
  );
  // Picked 5, 30, 35 and 2: 72 room nights.
  const short = pickupGrid(
    BLOCK,
    pickedPerNight({ '2027-05-11': 5, '2027-05-12': 30, '2027-05-13': 35, '2027-05-14': 2 }),
  );

  it('rounds the rooms that must be filled up to a whole room', () => {
    expect(roomsRequired(100, 20)).toBe(80);
    expect(roomsRequired(33, 10)).toBe(30);
    expect(roomsRequired(10, 12.5)).toBe(9);
    expect(roomsRequired(10, 0)).toBe(10);
    expect(roomsRequired(10, 100)).toBe(0);
  });

  it('cumulative: charges nothing when the whole block reaches its allowance, an over night making up for short ones', () => {
    expect(attritionOwed(terms(), overAndShort)).toEqual({ roomNights: 0, amount: 0, charged: null });
  });

  it('cumulative: charges the room nights short of 80 at the average contracted rate', () => {
    // ⌈100 × 0.8⌉ − 72 = 8 room nights × (14,000 ÷ 100 = 140) = 1,120.
    expect(attritionOwed(terms(), short)).toEqual({ roomNights: 8, amount: 1120, charged: null });
  });

  it('cumulative: a charge percent of 80 charges 80% of the rate', () => {
    expect(attritionOwed(terms({ attritionChargePercent: 80 }), short)?.amount).toBe(896);
  });

  it('nightly: charges each short night at its own rate and gives no credit for an over night', () => {
    // Night 1: ⌈8⌉ − 5 = 3 × 100; night 2: 32 − 30 = 2 × 150; night 3: 45 picked counts as 40 → 0;
    // night 4: 8 − 2 = 6 × 100. 11 room nights, 1,200.
    expect(attritionOwed(terms({ attritionBasis: 'nightly' }), overAndShort)).toEqual({
      roomNights: 11,
      amount: 1200,
      charged: { '2027-05-11': { Double: 3 }, '2027-05-12': { Double: 2 }, '2027-05-14': { Double: 6 } },
    });
  });

  it('nightly: a charge percent of 80 charges 80% of each rate', () => {
    expect(
      attritionOwed(terms({ attritionBasis: 'nightly', attritionChargePercent: 80 }), overAndShort)?.amount,
    ).toBe(960);
  });

  it('counts two guests sharing a room once in what is owed', () => {
    const [a, b] = staying(2, '2027-05-11', '2027-05-15');
    const block: RoomRates = { '2027-05-11': { Twin: { count: 2, rate: 90 } } };
    const sharing = pickupGrid(block, [
      { ...a!, roomType: 'Twin', departure: '2027-05-12' },
      { ...b!, roomType: 'Twin', departure: '2027-05-12', sharesWith: a!.id },
    ]);
    // Two rooms with no allowance, one filled: one room night owed at 90.
    expect(attritionOwed(terms({ rooms: block, attritionPercent: 0 }), sharing)?.amount).toBe(90);
    expect(
      attritionOwed(terms({ rooms: block, attritionPercent: 0, attritionBasis: 'nightly' }), sharing)?.amount,
    ).toBe(90);
  });

  it('is null when the contract gives no attrition percent: the terms are unknown, not zero', () => {
    expect(attritionOwed(terms({ attritionPercent: null }), short)).toBeNull();
    expect(attritionOwed(terms({ attritionPercent: null, attritionBasis: 'nightly' }), short)).toBeNull();
  });

  it('owes the whole allowance when nobody is on the list yet, and nothing on an empty block', () => {
    const empty: PickupGrid = pickupGrid(BLOCK, []);
    expect(attritionOwed(terms(), empty)).toEqual({ roomNights: 80, amount: 11_200, charged: null });
    expect(attritionOwed(terms({ rooms: {} }), pickupGrid({}, []))).toEqual({
      roomNights: 0,
      amount: 0,
      charged: null,
    });
  });

  it('rounds the average rate only once, on the amount', () => {
    // Rates 100, 100, 100.01 over three nights: 3 rooms short at 100.00333… = 300.01.
    const block: RoomRates = {
      '2027-05-11': { Single: { count: 1, rate: 100 } },
      '2027-05-12': { Single: { count: 1, rate: 100 } },
      '2027-05-13': { Single: { count: 1, rate: 100.01 } },
    };
    expect(attritionOwed(terms({ rooms: block, attritionPercent: 0 }), pickupGrid(block, []))?.amount).toBe(
      300.01,
    );
  });
});

describe('cancellationCost', () => {
  const ladder = [
    { daysBefore: 90, percent: 25 },
    { daysBefore: 30, percent: 50 },
    { daysBefore: 7, percent: 100 },
  ];
  const total = 2_000_000n; // 20,000.00
  const on = (today: string) => cancellationCost(ladder, '2027-05-11', today, total);

  it('costs nothing before the furthest step applies', () => {
    expect(on('2027-01-01')).toEqual({ step: null, daysBefore: 130, amount: 0 });
    expect(on('2027-02-10')).toEqual({ step: null, daysBefore: 90, amount: 0 });
  });

  it('takes the step nearest the first day among those that apply, day by day', () => {
    expect(on('2027-02-11')).toEqual({ step: ladder[0], daysBefore: 89, amount: 5000 });
    expect(on('2027-04-11')).toEqual({ step: ladder[0], daysBefore: 30, amount: 5000 });
    expect(on('2027-04-12')).toEqual({ step: ladder[1], daysBefore: 29, amount: 10_000 });
    expect(on('2027-05-04')).toEqual({ step: ladder[1], daysBefore: 7, amount: 10_000 });
    expect(on('2027-05-05')).toEqual({ step: ladder[2], daysBefore: 6, amount: 20_000 });
    expect(on('2027-05-12')).toEqual({ step: ladder[2], daysBefore: -1, amount: 20_000 });
  });

  it('costs nothing with no ladder', () => {
    expect(cancellationCost([], '2027-05-11', '2027-05-10', total).amount).toBe(0);
  });
});
