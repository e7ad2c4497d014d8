import { describe, expect, it } from 'vitest';
import { cancellationRows, proposalBody, proposalFormValues, roomGrid } from './proposal-form.js';
import { venueControlLabel, venueProblemWords } from './words.js';

describe('the proposal form and its body', () => {
  it('sends what was typed, leaves blank controls and blank rows out, and names problems by the form row', () => {
    const { body, controlOf } = proposalBody({
      _csrf: 'token',
      validUntil: ' 2030-03-15 ',
      currency: 'eur',
      'offeredDates.startDate': '2030-05-01',
      'offeredDates.endDate': '',
      holdOption: 'first',
      'rooms.2030-05-01.Single.count': '10',
      'rooms.2030-05-01.Single.rate': '120.5',
      'rooms.2030-05-01.Double.count': '',
      'rooms.2030-05-01.Double.rate': '',
      'rooms.2030-05-02.Single.count': '',
      'rooms.2030-05-02.Single.rate': 'ninety',
      meetingRoomRental: '',
      attritionPercent: '10',
      'cancellation[0].daysBefore': '',
      'cancellation[0].percent': '',
      'cancellation[1].daysBefore': '30',
      'cancellation[1].percent': '50',
      notes: '  ',
    });
    expect(body).toEqual({
      validUntil: '2030-03-15',
      currency: 'EUR',
      offeredDates: { startDate: '2030-05-01' },
      holdOption: 'first',
      rooms: {
        '2030-05-01': { Single: { count: 10, rate: 120.5 } },
        '2030-05-02': { Single: { count: null, rate: 'ninety' } },
      },
      attritionPercent: 10,
      cancellation: [{ daysBefore: 30, percent: 50 }],
    });
    expect(controlOf('cancellation[0].percent')).toBe('cancellation[1].percent');
    expect(controlOf('rooms.2030-05-02.Single.count')).toBe('rooms.2030-05-02.Single.count');
  });

  it('starts a first proposal from the event, and a revision from the latest one', () => {
    const event = { currency: 'EUR', eventDates: [{ startDate: '2030-05-01', endDate: '2030-05-03' }] };
    expect(proposalFormValues(null, event)).toEqual({
      currency: 'EUR',
      'offeredDates.startDate': '2030-05-01',
      'offeredDates.endDate': '2030-05-03',
      holdOption: 'none',
    });
    const values = proposalFormValues(
      {
        validUntil: '2030-03-15',
        currency: 'USD',
        offeredDates: { startDate: '2030-05-01', endDate: '2030-05-02' },
        holdOption: 'second',
        rooms: { '2030-05-01': { Suite: { count: 2, rate: 400 } } },
        meetingRoomRental: 1500,
        foodBeverageMinimum: null,
        cancellation: [{ daysBefore: 30, percent: 50 }],
        cutoffDate: null,
        notes: null,
        roomTaxPercent: 12.5,
      } as unknown as Parameters<typeof proposalFormValues>[0],
      event,
    );
    expect(values).toMatchObject({
      validUntil: '2030-03-15',
      currency: 'USD',
      holdOption: 'second',
      'rooms.2030-05-01.Suite.count': '2',
      'rooms.2030-05-01.Suite.rate': '400',
      meetingRoomRental: '1500',
      foodBeverageMinimum: '',
      roomTaxPercent: '12.5',
      'cancellation[0].daysBefore': '30',
      cutoffDate: '',
    });
    // The grid holds the nights and types asked for, and those the revision priced.
    expect(roomGrid({ '2030-05-02': { Single: 10 } }, values)).toEqual({
      nights: ['2030-05-01', '2030-05-02'],
      types: ['Single', 'Suite'],
    });
    expect(cancellationRows(values)).toEqual([0, 1, 2]);
    expect(cancellationRows({ 'cancellation[3].percent': '10', 'cancellation[4].percent': '' })).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
  });
});

describe("the venue's words", () => {
  it('names controls for people', () => {
    expect(venueControlLabel('rooms.2030-05-01.Single.rate')).toBe('Single, night of Wed, May 1, 2030: rate');
    expect(venueControlLabel('rooms.2030-05-01')).toBe('Guest rooms, night of Wed, May 1, 2030');
    expect(venueControlLabel('cancellation[1].daysBefore')).toBe('Cancellation terms, step 2: days before');
    expect(venueControlLabel('offeredDates.endDate')).toBe('Dates offered: last day');
    expect(venueControlLabel('attritionPercent')).toBe('Attrition (%)');
    expect(venueControlLabel('somethingElse')).toBe('This field');
  });

  it('says each problem from its code, never with the API message', () => {
    const say = (field: string, code: string, message?: string) =>
      venueProblemWords({ field, code, ...(message === undefined ? {} : { message }) });
    expect(say('validUntil', 'in_the_past', 'must not be in the past (got 2001-01-01)')).toBe(
      'Enter a day from today on: this day has passed.',
    );
    expect(say('rooms.2030-05-01.Single.rate', 'required')).toBe('Enter the rate per room per night too.');
    expect(say('rooms.2030-05-01.Single.count', 'invalid_type')).toBe('Enter a whole number of 0 or more.');
    expect(
      say(
        'rooms.2030-05-01',
        'outside_offered_dates',
        'is outside the dates offered (2030-05-02 to 2030-05-03)',
      ),
    ).toBe(
      'This night is outside the dates you offer (Thu, May 2, 2030 to Fri, May 3, 2030): change the dates offered, or leave the night blank.',
    );
    expect(say('rooms', 'nothing_priced')).toContain('Price something');
    expect(
      say(
        'cancellation[1].percent',
        'out_of_range',
        'must be at least 50, the share charged from 30 days before',
      ),
    ).toBe('A step nearer the event must charge at least as much as one further away (at least 50%).');
    expect(say('cancellation[0].daysBefore', 'duplicate')).toContain('same number of days');
    expect(say('cutoffDate', 'out_of_range', 'must not be after the first day offered (2030-05-01)')).toBe(
      'Must not be after the first day offered, Wed, May 1, 2030.',
    );
    expect(say('roomTaxPercent', 'invalid_format')).toBe('Use at most two decimals, e.g. 12.5.');
    expect(say('meetingRoomRental', 'out_of_range')).toBe('Enter an amount of 0 or more.');
    expect(say('currency', 'invalid_value')).toContain('currency code');
    expect(say('reason', 'required')).toBe('Choose a reason.');
    expect(say('comment', 'required')).toContain('Say why');
    expect(say('notes', 'too_long', 'must be at most 1000 characters (got 1200)')).toContain(
      '(this has 1200)',
    );
    expect(say('unheardOf', 'whatever')).toBe('This value cannot be used; check it and try again.');
  });
});
