/**
 * The parts an event is made of, as the API shows them and as a client sends them: date ranges,
 * candidate locations, the budget, guest rooms per night. A merge patch (`…Patch`) takes `null` to
 * remove a key; what an event's fields take as a whole comes from the domain's table of fields.
 */
import { type Static, Type } from '@sinclair/typebox';
import { EVENT_FIELDS } from '../../domain/event-field-table.js';
import { BUDGET_CATEGORIES, LIMITS, ROOM_TYPES } from '../../domain/types.js';
import { Count, Day, FreeText, NonEmptyText, orNull, ref } from '../schemas/parts.js';

export const DateRange = Type.Object(
  {
    startDate: Day('First day, `YYYY-MM-DD`.'),
    endDate: Day('Last day, `YYYY-MM-DD`; both ends are inclusive and `startDate <= endDate`.'),
  },
  {
    $id: 'DateRange',
    additionalProperties: false,
    description: 'A range of calendar days, both ends inclusive.',
    examples: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
  },
);

const resolvedPlaceFields = {
  place_id: Type.Optional(
    Type.String({ description: 'Present only when a place was resolved: `geonames:<id>`.' }),
  ),
  countryCode: Type.Optional(
    Type.String({ description: "Read-only, with `place_id`: the place's ISO 3166-1 alpha-2 country code." }),
  ),
  latitude: Type.Optional(Type.Number({ description: 'Read-only, with `place_id`: degrees north.' })),
  longitude: Type.Optional(Type.Number({ description: 'Read-only, with `place_id`: degrees east.' })),
  timeZone: Type.Optional(Type.String({ description: 'Read-only, with `place_id`: IANA time zone.' })),
};

export const FormattedLocation = Type.Object(
  {
    city: Type.String({ description: 'City.' }),
    state: Type.Optional(Type.String({ description: 'State or region, when given.' })),
    country: Type.Optional(Type.String({ description: 'Country, when given.' })),
    formatted_address: Type.String({
      description: 'Derived: `"city, state, country"` without the empty parts.',
    }),
    ...resolvedPlaceFields,
  },
  {
    $id: 'FormattedLocation',
    additionalProperties: false,
    description: 'A candidate location of the event.',
    examples: [{ city: 'Lisbon', country: 'Portugal', formatted_address: 'Lisbon, Portugal' }],
  },
);

export const FormattedLocationInput = Type.Object(
  {
    city: NonEmptyText('City; required and not blank.'),
    state: Type.Optional(orNull(FreeText('State or region; `null` means absent.'))),
    country: Type.Optional(orNull(FreeText('Country; `null` means absent.'))),
    formatted_address: Type.Optional(
      orNull(FreeText('Accepted so a read event can be sent back, then recomputed by the service.')),
    ),
    place_id: Type.Optional(
      orNull(
        FreeText('Read-only: accepted when equal to the place the location names, else a 400 naming it.'),
      ),
    ),
    countryCode: Type.Optional(orNull(FreeText('Read-only, like `place_id`.'))),
    latitude: Type.Optional(orNull(Type.Number({ description: 'Read-only, like `place_id`.' }))),
    longitude: Type.Optional(orNull(Type.Number({ description: 'Read-only, like `place_id`.' }))),
    timeZone: Type.Optional(orNull(FreeText('Read-only, like `place_id`.'))),
  },
  {
    $id: 'FormattedLocationInput',
    additionalProperties: false,
    description: 'A candidate location as sent by a client. `formatted_address` is derived by the service.',
    examples: [{ city: 'Austin', state: 'TX', country: 'USA' }],
  },
);

const budgetAmount = Type.Number({
  minimum: 0,
  description: 'An amount in the event currency: a finite number >= 0 with at most two decimals.',
});

export const BudgetBreakdown = Type.Object(
  Object.fromEntries(BUDGET_CATEGORIES.map((category) => [category, Type.Optional(budgetAmount)])),
  {
    $id: 'BudgetBreakdown',
    additionalProperties: false,
    description: EVENT_FIELDS.budgetBreakdown.description,
    examples: [{ venue: 25000, fb: 8000.5 }],
  },
);

export const BudgetBreakdownPatch = Type.Object(
  Object.fromEntries(BUDGET_CATEGORIES.map((category) => [category, Type.Optional(orNull(budgetAmount))])),
  {
    $id: 'BudgetBreakdownPatch',
    additionalProperties: false,
    description:
      'Merged category by category into the stored budget: a number sets the category, `null` removes it.',
    examples: [{ venue: 26000, merch: null }],
  },
);

const roomCount = Count('Rooms of this type for the night.');

export const RoomCounts = Type.Object(
  Object.fromEntries(ROOM_TYPES.map((roomType) => [roomType, Type.Optional(roomCount)])),
  {
    $id: 'RoomCounts',
    additionalProperties: false,
    description: `Guest rooms by room type (${ROOM_TYPES.join(', ')}).`,
    examples: [{ Single: 40, Double: 10 }],
  },
);

export const RoomCountsPatch = Type.Object(
  Object.fromEntries(ROOM_TYPES.map((roomType) => [roomType, Type.Optional(orNull(roomCount))])),
  {
    $id: 'RoomCountsPatch',
    additionalProperties: false,
    description: 'Merged room type by room type: a number sets the count, `null` removes the room type.',
    examples: [{ Single: 42, Suite: null }],
  },
);

const nightsDescription = `At most ${LIMITS.accommodationNights} nights, also after merging; nights are kept in date order.`;

export const Accommodations = Type.Unsafe<Record<string, Static<typeof RoomCounts>>>({
  $id: 'Accommodations',
  type: 'object',
  propertyNames: { format: 'date' },
  additionalProperties: ref(RoomCounts),
  maxProperties: LIMITS.accommodationNights,
  description: `${EVENT_FIELDS.accommodations.description} ${nightsDescription}`,
  examples: [{ '2027-03-01': { Single: 40, Double: 10 }, '2027-03-02': { Single: 38 } }],
});

export const AccommodationsPatch = Type.Unsafe<Record<string, Static<typeof RoomCountsPatch> | null>>({
  $id: 'AccommodationsPatch',
  type: 'object',
  propertyNames: { format: 'date' },
  additionalProperties: orNull(ref(RoomCountsPatch)),
  maxProperties: LIMITS.accommodationNights,
  description: `Merged night by night into the stored accommodations: an object merges into that night, \`null\` removes the night. ${nightsDescription}`,
  examples: [{ '2027-03-01': { Single: 42 }, '2027-03-04': null }],
});

/** A list of meeting-room ranges, with the limits the domain applies. */
export const MeetingRoomDates = (description: string) =>
  Type.Array(ref(DateRange), {
    maxItems: LIMITS.meetingRoomDates,
    description: `${description} At most ${LIMITS.meetingRoomDates} ranges, each at most ${LIMITS.meetingRoomRangeDays} days long.`,
  });
