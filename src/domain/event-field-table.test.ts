import { describe, expect, it } from 'vitest';
import { blankEvent, buildNewEvent, copyBody } from './create-event.js';
import { ValidationError } from './errors.js';
import {
  clearedValue,
  EVENT_FIELDS,
  FIELD_NAMES,
  READ_ONLY_FIELDS,
  WRITABLE_FIELDS,
} from './event-field-table.js';
import type { EventDetails } from './types.js';
import { applyUpdate } from './update-event.js';

const NOW = '2026-01-01T00:00:00.000Z';
let sequence = 0;
const newId = () => `aaaaaaaa-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

/** An event with a value in every field, so that clearing or copying each one shows. */
const full = buildNewEvent(
  {
    name: 'Summit',
    currency: 'EUR',
    formattedLocations: [{ city: 'Austin', state: 'TX', country: 'USA' }, { city: 'Lisbon' }],
    numPeople: 120,
    budgetBreakdown: { venue: 25000, fb: 8000.5 },
    flexibility: 'A week either way',
    decisionDeadline: '2026-03-01',
    accommodations: { '2026-05-01': { Single: 40, Double: 10 } },
    meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
    agenda: [{ title: 'Keynote', dates: ['2026-05-02'], startTime: '09:00', endTime: '10:00', capacity: 80 }],
    numMeetingRoomsNeeded: 3,
    foodBeverageRequirements: 'Vegetarian options',
    meetingRooms: 'One plenary room',
    otherNotes: 'Near the airport',
    notesForVenue: 'Flexible on layout',
    decisionFactors: ['Price', 'Other'],
    decisionFactorOtherText: 'Sustainability',
    additionalServices: ['Airport transfers'],
  },
  { id: '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50', now: NOW, newId },
);

describe('the table of event fields', () => {
  it('lists the fields of a new event in the order documents are stored and sent', () => {
    expect(Object.keys(blankEvent(full.id, NOW))).toEqual([
      'id',
      'name',
      'status',
      'currency',
      'location',
      'eventDates',
      'formattedLocations',
      'numPeople',
      'budgetBreakdown',
      'flexibility',
      'decisionDeadline',
      'accommodations',
      'meetingRoomDates',
      'agenda',
      'numMeetingRoomsNeeded',
      'foodBeverageRequirements',
      'meetingRooms',
      'otherNotes',
      'notesForVenue',
      'decisionFactors',
      'decisionFactorOtherText',
      'additionalServices',
      'createdAt',
      'updatedAt',
    ]);
    expect(FIELD_NAMES).toEqual(Object.keys(blankEvent(full.id, NOW)));
  });

  it('gives every field a place: writable on update, or read-only', () => {
    expect([...WRITABLE_FIELDS, ...READ_ONLY_FIELDS].sort()).toEqual([...FIELD_NAMES, 'event_dates'].sort());
    expect(WRITABLE_FIELDS).toHaveLength(16);
  });

  it.each(WRITABLE_FIELDS)('says what a null does to %s, and the update does just that', (name) => {
    const field = EVENT_FIELDS[name];
    // Without sessions, which clearing the meeting-room dates would strand (a 409).
    const event = { ...full, agenda: [] };
    const clear = () => applyUpdate(event, { [name]: null }, { now: NOW, newId });
    if (field.whenNull === 'refused') {
      expect(clear).toThrow(ValidationError);
      return;
    }
    expect(event[name]).not.toEqual(clearedValue(field));
    expect(clear().details[name]).toEqual(clearedValue(field));
  });

  it('gives each field its own label, so no two look alike in the dashboard', () => {
    const labels = FIELD_NAMES.map((name) => EVENT_FIELDS[name].label);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe('copyBody', () => {
  it('is a create body that makes the same event again, with new ids', () => {
    const copy = buildNewEvent(copyBody(full), {
      id: 'bbbbbbbb-0000-4000-8000-000000000001',
      now: NOW,
      newId,
    });
    const withoutIds = (details: EventDetails) => ({
      ...details,
      id: undefined,
      agenda: details.agenda.map(({ id: _id, ...session }) => session),
    });
    expect(withoutIds(copy)).toEqual(withoutIds(full));
    expect(copy.agenda[0]!.id).not.toBe(full.agenda[0]!.id);
  });

  it('sends the locations as typed, so a copy resolves its places anew', () => {
    const resolved = {
      ...full,
      formattedLocations: [
        {
          city: 'Lisbon',
          country: 'PT',
          formatted_address: 'Lisbon, PT',
          place_id: 'geonames:2267057',
          countryCode: 'PT',
          latitude: 38.7,
          longitude: -9.1,
          timeZone: 'Europe/Lisbon',
        },
      ],
    };
    expect(copyBody(resolved).formattedLocations).toEqual([
      { city: 'Lisbon', state: undefined, country: 'PT' },
    ]);
  });
});
