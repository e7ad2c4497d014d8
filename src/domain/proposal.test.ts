import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ValidationError } from './errors.js';
import {
  eventSpan,
  HOLD_OPTION_LABELS,
  HOLD_OPTIONS,
  PROPOSAL_FIELD_LABELS,
  PROPOSAL_FIELDS,
  type ProposalFieldName,
  readProposal,
} from './proposal.js';
import type { ProposalView } from './proposal-figures.js';

const NOW = '2027-03-10T15:00:00.000Z';
const EVENT = {
  currency: 'EUR',
  eventDates: [
    { startDate: '2027-05-12', endDate: '2027-05-14' },
    { startDate: '2027-05-16', endDate: '2027-05-16' },
  ],
};
const read = (body: unknown) => readProposal(body, { event: EVENT, now: NOW });

function problemsOf(action: () => unknown): Array<[string, string]> {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems.map((problem) => [problem.field, problem.code]);
    throw error;
  }
  throw new Error('expected a ValidationError, but the call succeeded');
}

const FULL_BODY = {
  validUntil: '2027-03-31',
  currency: 'EUR',
  offeredDates: { startDate: '2027-05-12', endDate: '2027-05-14' },
  holdOption: 'first',
  rooms: {
    '2027-05-12': { Single: { count: 20, rate: 189.5 } },
    '2027-05-13': { Single: { count: 20, rate: 189.5 } },
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
  cancellation: [
    { daysBefore: 30, percent: 50 },
    { daysBefore: 90, percent: 25 },
  ],
  notes: 'Breakfast included.',
};

describe('the proposal field table', () => {
  it('names exactly the fields of a proposal as read, and labels each', () => {
    expectTypeOf<ProposalFieldName>().toEqualTypeOf<keyof ProposalView>();
    for (const field of PROPOSAL_FIELDS) expect(PROPOSAL_FIELD_LABELS[field.name]).toMatch(/^[A-Z]/);
    expect(Object.keys(HOLD_OPTION_LABELS)).toEqual([...HOLD_OPTIONS]);
  });
});

describe('readProposal (D23)', () => {
  it('keeps every field given, the cancellation ladder furthest step first', () => {
    expect(read(FULL_BODY)).toEqual({
      ...FULL_BODY,
      cancellation: [
        { daysBefore: 90, percent: 25 },
        { daysBefore: 30, percent: 50 },
      ],
    });
  });

  it('gives absent fields the event’s currency and dates, no hold, and empty values', () => {
    expect(read({ validUntil: '2027-03-31', meetingRoomRental: 900 })).toEqual({
      validUntil: '2027-03-31',
      currency: 'EUR',
      // The event's first day to its last, across its gap.
      offeredDates: { startDate: '2027-05-12', endDate: '2027-05-16' },
      holdOption: 'none',
      rooms: {},
      meetingRoomRental: 900,
      foodBeverageMinimum: null,
      avEstimate: null,
      otherCharges: null,
      roomTaxPercent: null,
      serviceChargePercent: null,
      attritionPercent: null,
      depositPercent: null,
      commissionPercent: null,
      cutoffDate: null,
      cancellation: [],
      notes: null,
    });
  });

  it('leaves the offered dates empty when the event has no dates', () => {
    expect(
      readProposal(
        { validUntil: '2027-03-31', foodBeverageMinimum: 1 },
        { event: { currency: 'USD', eventDates: [] }, now: NOW },
      ).offeredDates,
    ).toBeNull();
    expect(eventSpan([])).toBeNull();
  });

  it('names every problem by its path, all at once', () => {
    expect(
      problemsOf(() =>
        read({
          currency: 'EURO',
          holdOption: 'maybe',
          rooms: { '2027-05-12': { Single: { count: 20, rate: 'free' } } },
          roomTaxPercent: 120,
          depositPercent: 12.345,
          cancellation: [{ daysBefore: 30 }],
          notes: 'n'.repeat(1001),
          totals: { total: 1 },
          revision: 3,
          discount: 5,
        }),
      ),
    ).toEqual([
      ['totals', 'read_only'],
      ['revision', 'read_only'],
      ['discount', 'unknown_field'],
      ['validUntil', 'required'],
      ['currency', 'invalid_value'],
      ['holdOption', 'invalid_value'],
      ['rooms.2027-05-12.Single.rate', 'invalid_type'],
      ['roomTaxPercent', 'out_of_range'],
      ['depositPercent', 'invalid_format'],
      ['cancellation[0].percent', 'required'],
      ['notes', 'too_long'],
    ]);
  });

  it('refuses a validUntil that has passed everywhere on Earth, and accepts one still current somewhere', () => {
    expect(problemsOf(() => read({ ...FULL_BODY, validUntil: '2027-03-09' }))).toEqual([
      ['validUntil', 'in_the_past'],
    ]);
    expect(read({ ...FULL_BODY, validUntil: '2027-03-10' }).validUntil).toBe('2027-03-10');
  });

  it('refuses rooms on nights outside the offered dates', () => {
    expect(
      problemsOf(() =>
        read({
          ...FULL_BODY,
          offeredDates: { startDate: '2027-05-13', endDate: '2027-05-13' },
          cutoffDate: null,
        }),
      ),
    ).toEqual([['rooms.2027-05-12', 'outside_offered_dates']]);
  });

  it('refuses a cut-off date after the first day offered', () => {
    expect(problemsOf(() => read({ ...FULL_BODY, cutoffDate: '2027-05-13' }))).toEqual([
      ['cutoffDate', 'out_of_range'],
    ]);
    expect(read({ ...FULL_BODY, cutoffDate: '2027-05-12' }).cutoffDate).toBe('2027-05-12');
  });

  it('refuses a proposal that prices nothing: no room offered, no meeting-room rental, no F&B minimum', () => {
    const nothing = {
      validUntil: '2027-03-31',
      avEstimate: 500,
      rooms: { '2027-05-12': { Single: { count: 0, rate: 100 } } },
    };
    expect(problemsOf(() => read(nothing))).toEqual([['rooms', 'nothing_priced']]);
    expect(read({ ...nothing, meetingRoomRental: 0 }).meetingRoomRental).toBe(0);
    expect(read({ ...nothing, foodBeverageMinimum: 2000 }).foodBeverageMinimum).toBe(2000);
    expect(read({ ...nothing, rooms: { '2027-05-12': { Single: { count: 1, rate: 100 } } } }).rooms).toEqual({
      '2027-05-12': { Single: { count: 1, rate: 100 } },
    });
  });

  it('does not add "prices nothing" to a price that was refused for its own problem', () => {
    expect(problemsOf(() => read({ validUntil: '2027-03-31', meetingRoomRental: -5 }))).toEqual([
      ['meetingRoomRental', 'out_of_range'],
    ]);
    expect(problemsOf(() => read({ validUntil: '2027-03-31', rooms: { x: {} } }))).toEqual([
      ['rooms.x', 'invalid_date'],
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(problemsOf(() => read(null))).toEqual([['', 'invalid_type']]);
  });

  it('answers any JSON body with terms or a ValidationError, never anything else', () => {
    const key = fc.constantFrom(...PROPOSAL_FIELDS.map((field) => field.name), '__proto__', 'other');
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant({ '2027-05-12': { Single: { count: 1, rate: 1 } } }),
      fc.constant('2027-04-01'),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value), (body) => {
        try {
          read(body);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).problems.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
