/**
 * Worked examples of the computed parts of a proposal (D23). Each expected figure is written out as
 * arithmetic beside it, so a reader can check it by hand.
 */
import { describe, expect, it } from 'vitest';
import type { ProposalTerms } from './proposal.js';
import {
  attritionExposureAt80,
  averageNightlyRate,
  BUDGET_LINE_PARTS,
  budgetComparison,
  isOverBudget,
  proposalFigures,
  proposalTotals,
  proposalView,
  roomBlockCoverage,
  TOTAL_PARTS,
  TOTALS_LABELS,
  totalsInCents,
} from './proposal-figures.js';
import type { Accommodations } from './types.js';

/** The event asks for 30 + 30 + 10 = 70 room nights. */
const REQUESTED: Accommodations = {
  '2027-05-12': { Single: 20, Double: 10 },
  '2027-05-13': { Single: 20, Double: 10 },
  '2027-05-14': { Single: 10 },
};

const EVENT = {
  currency: 'EUR',
  budgetBreakdown: { venue: 15000, fb: 9000, av: 1000, transport: 500 },
  accommodations: REQUESTED,
};

const TERMS: ProposalTerms = {
  validUntil: '2027-03-31',
  currency: 'EUR',
  offeredDates: { startDate: '2027-05-12', endDate: '2027-05-14' },
  holdOption: 'first',
  rooms: {
    '2027-05-12': { Single: { count: 20, rate: 189.5 }, Double: { count: 8, rate: 215 } },
    '2027-05-13': {
      Single: { count: 20, rate: 189.5 },
      Double: { count: 10, rate: 215 },
      Suite: { count: 2, rate: 450 },
    },
  },
  meetingRoomRental: 2500,
  foodBeverageMinimum: 8000,
  avEstimate: 1200.4,
  otherCharges: 150,
  roomTaxPercent: 12.5,
  serviceChargePercent: 22,
  attritionPercent: 10,
  depositPercent: 30,
  commissionPercent: 10,
  cutoffDate: '2027-04-12',
  cancellation: [{ daysBefore: 30, percent: 50 }],
  notes: null,
};

describe('proposalTotals: a worked example', () => {
  it('adds up rooms, tax, meeting rooms, food and beverage with service, AV and other charges', () => {
    expect(proposalTotals(TERMS)).toEqual({
      // 20 × 189.50 + 8 × 215 + 20 × 189.50 + 10 × 215 + 2 × 450
      // = 3,790 + 1,720 + 3,790 + 2,150 + 900 = 12,350.00
      rooms: 12350,
      // 12,350 × 12.5% = 1,543.75
      roomTax: 1543.75,
      meetingRooms: 2500,
      // 8,000 × (1 + 22%) = 8,000 + 1,760 = 9,760.00
      foodBeverage: 9760,
      av: 1200.4,
      other: 150,
      // 12,350 + 1,543.75 + 2,500 + 9,760 + 1,200.40 + 150 = 27,504.15
      total: 27504.15,
    });
  });

  it('rounds each percentage once to the cent, halves up', () => {
    const totals = proposalTotals({
      ...TERMS,
      rooms: { '2027-05-12': { Single: { count: 1, rate: 10.1 } } },
      roomTaxPercent: 12.5,
      foodBeverageMinimum: 0.1,
      serviceChargePercent: 15,
      meetingRoomRental: null,
      avEstimate: null,
      otherCharges: null,
    });
    // Room tax: 10.10 × 12.5% = 1.2625 → 1.26. Service: 0.10 × 15% = 0.015 → 0.02, so F&B = 0.12.
    expect(totals).toEqual({
      rooms: 10.1,
      roomTax: 1.26,
      meetingRooms: 0,
      foodBeverage: 0.12,
      av: 0,
      other: 0,
      total: 11.48,
    });
    // 10.10 + 1.26 + 0.12 = 11.48
  });

  it('sums amounts that floating point would get wrong, exactly', () => {
    // In floating point, 0.1 + 0.2 is 0.30000000000000004 and 3 × 0.1 is 0.30000000000000004.
    const totals = proposalTotals({
      ...TERMS,
      rooms: { '2027-05-12': { Single: { count: 3, rate: 0.1 } } },
      roomTaxPercent: null,
      meetingRoomRental: 0.1,
      foodBeverageMinimum: 0.2,
      serviceChargePercent: null,
      avEstimate: null,
      otherCharges: null,
    });
    expect(totals.rooms).toBe(0.3);
    expect(totals.total).toBe(0.6); // 0.30 + 0.10 + 0.20
  });

  it('counts an amount or a percent not given as zero', () => {
    const bare: ProposalTerms = {
      ...TERMS,
      rooms: {},
      meetingRoomRental: 700,
      foodBeverageMinimum: null,
      avEstimate: null,
      otherCharges: null,
      roomTaxPercent: null,
      serviceChargePercent: null,
    };
    expect(proposalTotals(bare)).toEqual({
      rooms: 0,
      roomTax: 0,
      meetingRooms: 700,
      foodBeverage: 0,
      av: 0,
      other: 0,
      total: 700,
    });
  });

  it('keeps exact cents for the sums: the total in cents is the sum of the parts in cents', () => {
    const cents = totalsInCents(TERMS);
    expect(cents.total).toBe(2_750_415n);
    expect(TOTAL_PARTS.reduce((sum, part) => sum + cents[part], 0n)).toBe(cents.total);
    expect(Object.keys(TOTALS_LABELS)).toEqual([...TOTAL_PARTS, 'total']);
  });
});

describe('roomBlockCoverage: a worked example', () => {
  it('counts requested, offered and covered room nights, the percent and the shortfall', () => {
    expect(roomBlockCoverage(REQUESTED, TERMS.rooms)).toEqual({
      // 20 + 10 + 20 + 10 + 10
      requestedRoomNights: 70,
      // 20 + 8 + 20 + 10 + 2 (the suites count as offered, though none was asked for)
      offeredRoomNights: 60,
      // 12th: min(20, 20) + min(10, 8) = 28; 13th: 20 + 10 = 30; 14th: min(10, 0) = 0. 28 + 30 = 58
      coveredRoomNights: 58,
      // 58 ÷ 70 × 100 = 82.857… → 82.9
      percent: 82.9,
      // 12th: 10 − 8 = 2 doubles; 14th: all 10 singles
      shortfall: { '2027-05-12': { Double: 2 }, '2027-05-14': { Single: 10 } },
    });
  });

  it('gives no percent when the event asks for no rooms, and offers nothing short', () => {
    expect(roomBlockCoverage({}, TERMS.rooms)).toMatchObject({
      requestedRoomNights: 0,
      coveredRoomNights: 0,
      percent: null,
      shortfall: {},
    });
    expect(roomBlockCoverage({ '2027-05-12': { Single: 0 } }, {}).percent).toBeNull();
  });

  it('rounds the percent to one decimal, halves up', () => {
    // 1 of 8: 12.5 exactly; 1 of 16: 6.25 → 6.3; 2 of 3: 66.666… → 66.7
    const offeredSingles = (count: number) => ({ '2027-05-12': { Single: { count, rate: 1 } } });
    expect(roomBlockCoverage({ '2027-05-12': { Single: 8 } }, offeredSingles(1)).percent).toBe(12.5);
    expect(roomBlockCoverage({ '2027-05-12': { Single: 16 } }, offeredSingles(1)).percent).toBe(6.3);
    expect(roomBlockCoverage({ '2027-05-12': { Single: 3 } }, offeredSingles(2)).percent).toBe(66.7);
  });
});

describe('budgetComparison: a worked example', () => {
  it('compares each of the event’s budget lines with the amounts that fall under it', () => {
    const budget = budgetComparison(totalsInCents(TERMS), 'EUR', EVENT);
    expect(budget).toEqual({
      // rooms + roomTax + meetingRooms = 12,350 + 1,543.75 + 2,500 = 16,393.75
      venue: { budgeted: 15000, proposed: 16393.75 },
      // foodBeverage = 9,760
      fb: { budgeted: 9000, proposed: 9760 },
      av: { budgeted: 1000, proposed: 1200.4 },
      // No `other` line in the event's budget; `transport` has nothing in a proposal to compare.
    });
    expect(isOverBudget(budget!.venue!)).toBe(true);
    expect(isOverBudget({ budgeted: 100, proposed: 100 })).toBe(false);
    expect(Object.keys(BUDGET_LINE_PARTS)).toEqual(['venue', 'fb', 'av', 'other']);
  });

  it('compares nothing when the proposal is in another currency', () => {
    expect(budgetComparison(totalsInCents(TERMS), 'USD', EVENT)).toBeNull();
  });
});

describe('attritionExposureAt80: worked examples', () => {
  it('charges the unused rooms beyond the attrition allowance when only 80% are used', () => {
    // 12,350 × max(0, 0.20 − 0.10) = 12,350 × 0.10 = 1,235.00
    expect(attritionExposureAt80(TERMS)).toBe(1235);
    // 12,350 × (0.20 − 0.075) = 12,350 × 0.125 = 1,543.75
    expect(attritionExposureAt80({ ...TERMS, attritionPercent: 7.5 })).toBe(1543.75);
    // 12,350 × (0.20 − 0) = 2,470.00
    expect(attritionExposureAt80({ ...TERMS, attritionPercent: 0 })).toBe(2470);
  });

  it('is nothing when the allowance covers 20% or more', () => {
    expect(attritionExposureAt80({ ...TERMS, attritionPercent: 20 })).toBe(0);
    expect(attritionExposureAt80({ ...TERMS, attritionPercent: 35 })).toBe(0);
  });

  it('is unknown when the venue gave no attrition percent', () => {
    expect(attritionExposureAt80({ ...TERMS, attritionPercent: null })).toBeNull();
  });
});

describe('averageNightlyRate', () => {
  it('divides the rooms by the room nights offered', () => {
    // 12,350 ÷ 60 = 205.8333… → 205.83
    expect(averageNightlyRate(TERMS)).toBe(205.83);
    expect(averageNightlyRate({ rooms: {} })).toBeNull();
  });
});

describe('proposalFigures and proposalView', () => {
  it('put every computed part beside the proposal’s terms', () => {
    const figures = proposalFigures(TERMS, EVENT);
    expect(figures.totals.total).toBe(27504.15);
    expect(figures.coverage.percent).toBe(82.9);
    expect(figures.budget?.fb).toEqual({ budgeted: 9000, proposed: 9760 });
    expect(figures.attritionExposureAt80).toBe(1235);
    const proposal = {
      id: 'p1',
      requestId: 'r1',
      revision: 1,
      submittedAt: '2027-03-10T15:00:00.000Z',
      submittedBy: 'venue' as const,
      requestVersion: 1,
      late: false,
      ...TERMS,
    };
    expect(proposalView(proposal, EVENT)).toEqual({ ...proposal, ...figures });
  });
});
