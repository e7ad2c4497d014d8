import { describe, expect, it } from 'vitest';
import { blankEvent } from './create-event.js';
import { deriveEventDates, formattedAddress, toListItem, withDerivedFields } from './derived.js';
import type { EventDetails } from './types.js';

const NOW = '2026-01-01T00:00:00.000Z';

function details(fields: Partial<EventDetails>): EventDetails {
  return { ...blankEvent('7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50', NOW), name: 'Derived', ...fields };
}

describe('formattedAddress (D8)', () => {
  it('joins city, state and country with ", " leaving out missing and empty parts', () => {
    expect(formattedAddress({ city: 'Austin', state: 'TX', country: 'USA' })).toBe('Austin, TX, USA');
    expect(formattedAddress({ city: 'Lisbon', country: 'Portugal' })).toBe('Lisbon, Portugal');
    expect(formattedAddress({ city: 'Kyoto', state: '', country: 'Japan' })).toBe('Kyoto, Japan');
    expect(formattedAddress({ city: 'Zug', state: 'ZG' })).toBe('Zug, ZG');
    expect(formattedAddress({ city: 'Zug' })).toBe('Zug');
    expect(formattedAddress({ city: 'Reno', state: '  ', country: 'USA' })).toBe('Reno, USA');
  });
});

describe('withDerivedFields (D8)', () => {
  it('recomputes formatted_address and joins location with "; "', () => {
    const result = withDerivedFields(
      details({
        formattedLocations: [
          { city: 'Austin', state: 'TX', country: 'USA', formatted_address: 'stale' },
          { city: 'Lisbon', country: 'Portugal', formatted_address: '' },
        ],
      }),
    );
    expect(result.formattedLocations).toStrictEqual([
      { city: 'Austin', state: 'TX', country: 'USA', formatted_address: 'Austin, TX, USA' },
      { city: 'Lisbon', country: 'Portugal', formatted_address: 'Lisbon, Portugal' },
    ]);
    expect(result.location).toBe('Austin, TX, USA; Lisbon, Portugal');
  });

  it('gives an empty location when there are no locations', () => {
    expect(withDerivedFields(details({ location: 'stale' })).location).toBe('');
  });

  it('keeps a resolved place_id and never invents one', () => {
    const result = withDerivedFields(
      details({
        formattedLocations: [
          { city: 'Austin', formatted_address: '', place_id: 'ChIJLwPMoJm1RIYRetVp1EtGm10' },
          { city: 'Lisbon', formatted_address: '' },
        ],
      }),
    );
    expect(result.formattedLocations[0]?.place_id).toBe('ChIJLwPMoJm1RIYRetVp1EtGm10');
    expect(result.formattedLocations[1]).not.toHaveProperty('place_id');
  });

  it('does not modify its input', () => {
    const input = details({
      formattedLocations: [{ city: 'Oslo', formatted_address: 'old' }],
      location: 'old',
    });
    const before = structuredClone(input);
    withDerivedFields(input);
    expect(input).toEqual(before);
  });
});

describe('deriveEventDates (D8)', () => {
  it('unites nights holding at least one room with every meeting-room range, sorted', () => {
    expect(
      deriveEventDates({
        accommodations: {
          '2026-05-10': { Single: 1 },
          '2026-05-01': { Twin: 0, Suite: 2 },
          '2026-05-02': { Double: 1 },
        },
        meetingRoomDates: [
          { startDate: '2026-06-01', endDate: '2026-06-02' },
          { startDate: '2026-05-04', endDate: '2026-05-05' },
        ],
      }),
    ).toEqual([
      { startDate: '2026-05-01', endDate: '2026-05-02' },
      { startDate: '2026-05-04', endDate: '2026-05-05' },
      { startDate: '2026-05-10', endDate: '2026-05-10' },
      { startDate: '2026-06-01', endDate: '2026-06-02' },
    ]);
  });

  it('leaves out nights whose rooms are all zero or that have no rooms', () => {
    expect(
      deriveEventDates({
        accommodations: {
          '2026-05-01': { Single: 0, Double: 0 },
          '2026-05-02': {},
          '2026-05-03': { VIP: 1 },
        },
        meetingRoomDates: [],
      }),
    ).toEqual([{ startDate: '2026-05-03', endDate: '2026-05-03' }]);
  });

  it('merges touching and overlapping days into one range', () => {
    expect(
      deriveEventDates({
        accommodations: { '2026-04-30': { Single: 1 }, '2026-05-03': { Single: 1 } },
        meetingRoomDates: [
          { startDate: '2026-05-01', endDate: '2026-05-02' },
          { startDate: '2026-05-02', endDate: '2026-05-03' },
        ],
      }),
    ).toEqual([{ startDate: '2026-04-30', endDate: '2026-05-03' }]);
  });

  it('is empty when there are no nights and no meeting-room dates', () => {
    expect(deriveEventDates({ accommodations: {}, meetingRoomDates: [] })).toEqual([]);
  });
});

describe('toListItem', () => {
  it('shows id, name, dates, locations, numPeople, status and createdAt', () => {
    const event = withDerivedFields(
      details({
        numPeople: 12,
        formattedLocations: [{ city: 'Austin', state: 'TX', formatted_address: '' }],
        meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-02' }],
      }),
    );
    expect(toListItem(event)).toStrictEqual({
      id: event.id,
      name: 'Derived',
      dates: [{ startDate: '2026-05-01', endDate: '2026-05-02' }],
      locations: ['Austin, TX'],
      numPeople: 12,
      status: 'draft',
      createdAt: NOW,
    });
  });
});
