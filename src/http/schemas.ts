/**
 * The API's shapes as TypeBox schemas: the one source of the OpenAPI document (and, through it, of the
 * TypeScript client's types) and of Fastify's checks of query strings, path parameters and headers.
 * Event bodies are documented here but checked by the domain, after the 404 and 409 checks (D5);
 * test/openapi/body-schemas.test.ts keeps the two in agreement.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CHANGE_TYPES } from '../domain/changes.js';
import { BUDGET_CATEGORIES, LIMITS, ROOM_TYPES, STATUSES } from '../domain/types.js';

// ---------------------------------------------------------------------------------------------------
// Query strings and path parameters (checked by Fastify and by ./query.ts). Every /v1 route declares its
// query string, and a parameter it does not declare is a 400 naming `query.<name>`.

export const ListQuery = Type.Object(
  {
    // The ceiling keeps (page - 1) * limit a safe integer for every store; past the last page is simply empty.
    page: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      default: 1,
      description: 'Page number, from 1.',
    }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Events per page, 1 to 100.' }),
    status: Type.Optional(
      Type.String({
        pattern: '^[a-z_]+(,[a-z_]+)*$',
        description: `Only events in one of these statuses, comma-separated (${STATUSES.join(', ')}). An unknown status is a 400 naming \`query.status\`.`,
        examples: ['draft,pending_approval'],
      }),
    ),
    updatedAfter: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only events whose `updatedAt` is strictly after this instant: an RFC 3339 date-time with a time zone (`2026-05-01T17:00:00Z`, `2026-05-01T19:00:00+02:00`). Anything else is a 400 naming `query.updatedAfter`. To follow changes without missing any, read `GET /v1/changes` instead: a change committed late can carry an `updatedAt` older than one you already saw.',
        examples: ['2026-05-01T17:00:00Z'],
      }),
    ),
  },
  { additionalProperties: false },
);

/** A cursor-paged list: where to start, and how many. */
const cursorQuery = (what: string, after: string) =>
  Type.Object(
    {
      after: Type.Optional(
        Type.String({
          maxLength: 300,
          description: `${after} Opaque: pass \`nextCursor\` of the previous page unchanged. A cursor of another organization or another list, or a changed one, is a 400 naming \`query.after\` (code \`invalid_cursor\`).`,
        }),
      ),
      limit: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 20,
        description: `${what} per page, 1 to 100.`,
      }),
    },
    { additionalProperties: false },
  );

export const ChangesQuery = cursorQuery(
  'Changes',
  'Read the changes after this cursor; without it, from the first change of the organization.',
);
export const RevisionsQuery = cursorQuery(
  'Revisions',
  'Read the revisions older than this cursor; without it, from the newest.',
);

/** The query string of a route that takes no parameters: any parameter is a 400 naming `query.<name>`. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const EventIdParams = Type.Object({
  id: Type.String({
    format: 'uuid',
    description: "The event's id, a UUID. A malformed id is a 400 naming `id`.",
    examples: ['0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1'],
  }),
});

export const RevisionParams = Type.Object({
  id: EventIdParams.properties.id,
  revision: Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    description:
      "The revision's number, from 1 (the create). Plain decimal digits; anything else is a 400 naming `revision`.",
    examples: [1],
  }),
});

// ---------------------------------------------------------------------------------------------------
// Helpers

/** A reference to a shared schema; it appears once in the document, under components.schemas. */
const ref = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T>>(Type.Ref(schema.$id!));

/** The same value, or `null` (which clears the field in a merge patch). */
function orNull<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  if (typeof schema.type === 'string') {
    return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [schema.type, 'null'] });
  }
  if (Array.isArray(schema.anyOf)) {
    return Type.Unsafe<Static<T> | null>({
      ...schema,
      ...options,
      anyOf: [...schema.anyOf, { type: 'null' }],
    });
  }
  return Type.Unsafe<Static<T> | null>({ ...options, anyOf: [schema, { type: 'null' }] });
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
const Count = (description: string) => Type.Integer({ minimum: 0, maximum: SAFE_INTEGER, description });
const Day = (description = 'A calendar day, `YYYY-MM-DD`.') =>
  Type.String({ format: 'date', description, examples: ['2027-03-01'] });
const Time = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description, examples: ['09:00'] });
const FreeText = (description: string) => Type.String({ maxLength: LIMITS.freeText, description });
const NonEmptyText = (description: string, maxLength: number = LIMITS.freeText) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description });
const TextList = (maxItems: number, description: string) =>
  Type.Array(Type.String({ maxLength: LIMITS.freeText }), { maxItems, description });
const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
/** A value the service owns: sent back unchanged it is ignored, changed it is a 400 `read_only` (D6). */
const readOnly = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T>>({ ...schema, readOnly: true });

/** The session shown in the document's examples (the agenda item and the event's agenda). */
const EXAMPLE_SESSION = {
  id: '6f1d2a8e-0c3b-4f6a-9a51-2b7d8c9e0f12',
  title: 'Opening plenary',
  dates: ['2027-03-01'],
  startTime: '09:00',
  endTime: '10:30',
  roomType: 'Theatre',
  capacity: 120,
  avRequirements: ['Projector'],
  fbRequirements: [],
  avOtherText: '',
  fbOtherText: '',
  notes: '',
};

const CURRENCY_PATTERN = '^[A-Z]{3}$';
const DEADLINE_DESCRIPTION =
  'When the planner must decide: an RFC 3339 date-time (`2027-01-15T17:00:00Z`) or a date `YYYY-MM-DD`, kept as sent.';
const Deadline = Type.Unsafe<string>({
  anyOf: [
    { type: 'string', format: 'date' },
    { type: 'string', format: 'date-time', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt]' },
  ],
  description: DEADLINE_DESCRIPTION,
  examples: ['2027-01-15T17:00:00Z'],
});

// ---------------------------------------------------------------------------------------------------
// Parts of an event

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

export const FormattedLocation = Type.Object(
  {
    city: Type.String({ description: 'City.' }),
    state: Type.Optional(Type.String({ description: 'State or region, when given.' })),
    country: Type.Optional(Type.String({ description: 'Country, when given.' })),
    formatted_address: Type.String({
      description: 'Derived: `"city, state, country"` without the empty parts.',
    }),
    place_id: Type.Optional(Type.String({ description: 'Present only when a place was resolved.' })),
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
    place_id: Type.Optional(orNull(FreeText('Accepted so a read event can be sent back; never invented.'))),
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
    description: `Budget by category (${BUDGET_CATEGORIES.join(', ')}), in the event currency.`,
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
  description: `Guest rooms per night: night (\`YYYY-MM-DD\`) -> room counts. ${nightsDescription}`,
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

const MeetingRoomDates = (description: string) =>
  Type.Array(ref(DateRange), {
    maxItems: LIMITS.meetingRoomDates,
    description: `${description} At most ${LIMITS.meetingRoomDates} ranges, each at most ${LIMITS.meetingRoomRangeDays} days long.`,
  });

// ---------------------------------------------------------------------------------------------------
// Agenda sessions and the operations that edit them (D7)

const sessionFields = {
  title: NonEmptyText('Session title; not blank.'),
  dates: Type.Array(Day(), {
    minItems: 1,
    maxItems: LIMITS.sessionDates,
    uniqueItems: true,
    description:
      'Days the session runs, each `YYYY-MM-DD`, distinct; stored sorted. Every day must lie inside `meetingRoomDates`.',
  }),
  startTime: Time('Start, 24-hour `HH:MM`.'),
  endTime: Time('End, 24-hour `HH:MM`, after `startTime`.'),
  roomType: FreeText('Room set-up wanted, in the planner\'s words (default `""`).'),
  capacity: Count('Expected attendees (default `0`).'),
  avRequirements: TextList(LIMITS.sessionRequirements, 'Audio-visual needs (default `[]`).'),
  fbRequirements: TextList(LIMITS.sessionRequirements, 'Food and beverage needs (default `[]`).'),
  avOtherText: FreeText('Free-text audio-visual needs (default `""`).'),
  fbOtherText: FreeText('Free-text food and beverage needs (default `""`).'),
  notes: FreeText('Free-text notes (default `""`).'),
  useInternalSpace: Type.Boolean({ description: "Whether the session uses the organization's own space." }),
  internalOfficeId: Count('The internal office used.'),
  internalOfficeName: FreeText('The internal office used.'),
};
const REQUIRED_SESSION_FIELDS = ['title', 'dates', 'startTime', 'endTime'] as const;
const DEFAULTED_SESSION_FIELDS = [
  'roomType',
  'capacity',
  'avRequirements',
  'fbRequirements',
  'avOtherText',
  'fbOtherText',
  'notes',
] as const;
const OPTIONAL_SESSION_FIELDS = ['useInternalSpace', 'internalOfficeId', 'internalOfficeName'] as const;

export const AgendaItem = Type.Object(
  {
    id: readOnly(Uuid('Stable session id, assigned by the service; address the session by it.')),
    title: sessionFields.title,
    dates: sessionFields.dates,
    startTime: sessionFields.startTime,
    endTime: sessionFields.endTime,
    roomType: sessionFields.roomType,
    capacity: sessionFields.capacity,
    avRequirements: sessionFields.avRequirements,
    fbRequirements: sessionFields.fbRequirements,
    avOtherText: sessionFields.avOtherText,
    fbOtherText: sessionFields.fbOtherText,
    notes: sessionFields.notes,
    useInternalSpace: Type.Optional(sessionFields.useInternalSpace),
    internalOfficeId: Type.Optional(sessionFields.internalOfficeId),
    internalOfficeName: Type.Optional(sessionFields.internalOfficeName),
  },
  {
    $id: 'AgendaItem',
    additionalProperties: false,
    description: 'A session of the agenda.',
    examples: [EXAMPLE_SESSION],
  },
);

const nullableSessionFields = Object.fromEntries(
  [...DEFAULTED_SESSION_FIELDS, ...OPTIONAL_SESSION_FIELDS].map((key) => [
    key,
    Type.Optional(orNull(sessionFields[key])),
  ]),
);

export const NewSession = Type.Object(
  {
    ...Object.fromEntries(REQUIRED_SESSION_FIELDS.map((key) => [key, sessionFields[key]])),
    ...nullableSessionFields,
  },
  {
    $id: 'NewSession',
    additionalProperties: false,
    description:
      'A new session. `title`, `dates`, `startTime` and `endTime` are required; other fields default to `""`, `[]` or `0` (`null` also means the default); the optional ones are left out. The service assigns the `id`: sending one is a 400.',
    examples: [{ title: 'Opening plenary', dates: ['2027-03-01'], startTime: '09:00', endTime: '10:30' }],
  },
);

export const SessionChanges = Type.Object(
  {
    ...Object.fromEntries(REQUIRED_SESSION_FIELDS.map((key) => [key, Type.Optional(sessionFields[key])])),
    ...nullableSessionFields,
  },
  {
    $id: 'SessionChanges',
    additionalProperties: false,
    description:
      'The fields of a session to change; the others stay. `null` resets a field to its default (`""`, `[]`, `0`) or removes an optional one; `title`, `dates`, `startTime` and `endTime` cannot be cleared.',
    examples: [{ startTime: '09:30', notes: 'Moved after breakfast' }],
  },
);

const SessionId = Uuid(
  'The id of a session of this event (from a prior read, or added earlier in this request).',
);

export const AddSessionOperation = Type.Object(
  { op: Type.Literal('add'), session: ref(NewSession) },
  { $id: 'AddSessionOperation', additionalProperties: false, description: 'Adds a session.' },
);

export const UpdateSessionOperation = Type.Object(
  { op: Type.Literal('update'), sessionId: SessionId, session: ref(SessionChanges) },
  {
    $id: 'UpdateSessionOperation',
    additionalProperties: false,
    description: 'Changes the given fields of a session.',
  },
);

export const RemoveSessionOperation = Type.Object(
  { op: Type.Literal('remove'), sessionId: SessionId },
  { $id: 'RemoveSessionOperation', additionalProperties: false, description: 'Deletes a session.' },
);

export const AgendaOperation = Type.Unsafe<
  | Static<typeof AddSessionOperation>
  | Static<typeof UpdateSessionOperation>
  | Static<typeof RemoveSessionOperation>
>({
  $id: 'AgendaOperation',
  oneOf: [ref(AddSessionOperation), ref(UpdateSessionOperation), ref(RemoveSessionOperation)],
  discriminator: {
    propertyName: 'op',
    mapping: {
      add: '#/components/schemas/AddSessionOperation',
      update: '#/components/schemas/UpdateSessionOperation',
      remove: '#/components/schemas/RemoveSessionOperation',
    },
  },
  description:
    'One edit of the agenda, addressed by session id. Operations apply in order to a working copy, all or nothing. An unknown `sessionId` is a 400 `unknown_session`, never a silent no-op.',
});

// ---------------------------------------------------------------------------------------------------
// Events

const eventFields = {
  name: NonEmptyText(`Event title: 1 to ${LIMITS.name} characters, not blank.`, LIMITS.name),
  formattedLocations: Type.Array(ref(FormattedLocationInput), {
    maxItems: LIMITS.formattedLocations,
    description: `Candidate locations; at most ${LIMITS.formattedLocations}. Replaced whole.`,
  }),
  numPeople: Count('Total attendees.'),
  budgetBreakdown: ref(BudgetBreakdownPatch),
  flexibility: FreeText(
    'How firm the dates are: exactly `Dates not flexible` means not flexible, other text means flexible.',
  ),
  decisionDeadline: Deadline,
  accommodations: ref(AccommodationsPatch),
  meetingRoomDates: MeetingRoomDates('Days meeting rooms are needed. Replaced whole.'),
  numMeetingRoomsNeeded: Count('Separate meeting rooms needed.'),
  foodBeverageRequirements: FreeText('Food and beverage notes.'),
  meetingRooms: FreeText('Meeting room notes.'),
  otherNotes: FreeText('Other notes.'),
  notesForVenue: FreeText('Notes shown to the venue.'),
  decisionFactors: TextList(LIMITS.decisionFactors, `At most ${LIMITS.decisionFactors} values.`),
  decisionFactorOtherText: FreeText('Free text, used when `Other` is among the decision factors.'),
  additionalServices: TextList(LIMITS.additionalServices, `At most ${LIMITS.additionalServices} values.`),
};

/** The writable fields as a merge patch: omitted leaves a field as it is, `null` clears it (D6). */
const writableFields = {
  name: Type.Optional(eventFields.name),
  formattedLocations: Type.Optional(orNull(eventFields.formattedLocations)),
  numPeople: Type.Optional(orNull(eventFields.numPeople, { description: 'Total attendees; `null` sets 0.' })),
  budgetBreakdown: Type.Optional(orNull(eventFields.budgetBreakdown)),
  flexibility: Type.Optional(orNull(eventFields.flexibility)),
  decisionDeadline: Type.Optional(orNull(eventFields.decisionDeadline)),
  accommodations: Type.Optional(orNull(eventFields.accommodations)),
  meetingRoomDates: Type.Optional(orNull(eventFields.meetingRoomDates)),
  numMeetingRoomsNeeded: Type.Optional(orNull(eventFields.numMeetingRoomsNeeded)),
  foodBeverageRequirements: Type.Optional(orNull(eventFields.foodBeverageRequirements)),
  meetingRooms: Type.Optional(orNull(eventFields.meetingRooms)),
  otherNotes: Type.Optional(orNull(eventFields.otherNotes)),
  notesForVenue: Type.Optional(orNull(eventFields.notesForVenue)),
  decisionFactors: Type.Optional(orNull(eventFields.decisionFactors)),
  decisionFactorOtherText: Type.Optional(orNull(eventFields.decisionFactorOtherText)),
  additionalServices: Type.Optional(orNull(eventFields.additionalServices)),
};

const ignoredOrganizationId = Type.Optional(
  Type.Unknown({ description: 'Ignored: the organization always comes from the API key.' }),
);

const eventExample = {
  id: '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1',
  name: 'Sales kickoff',
  status: 'draft',
  currency: 'USD',
  location: 'Lisbon, Portugal',
  eventDates: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal', formatted_address: 'Lisbon, Portugal' }],
  numPeople: 120,
  budgetBreakdown: { venue: 25000, fb: 8000.5 },
  flexibility: 'Dates not flexible',
  decisionDeadline: '2027-01-15T17:00:00Z',
  accommodations: { '2027-03-01': { Single: 40, Double: 10 }, '2027-03-02': { Single: 38 } },
  meetingRoomDates: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
  agenda: [EXAMPLE_SESSION],
  numMeetingRoomsNeeded: 3,
  foodBeverageRequirements: 'Vegetarian options',
  meetingRooms: 'One plenary room, two breakouts',
  otherNotes: null,
  notesForVenue: 'Flexible on room layout',
  decisionFactors: ['Price', 'Other'],
  decisionFactorOtherText: 'Sustainability',
  additionalServices: ['Airport transfers'],
  createdAt: '2026-11-02T10:15:00.000Z',
  updatedAt: '2026-11-03T08:00:00.000Z',
};

const StatusSchema = Type.Unsafe<(typeof STATUSES)[number]>({
  type: 'string',
  enum: [...STATUSES],
  description:
    'Planning status. `draft` on create; only operators move it. A `cancelled` event refuses updates (409).',
});
const Currency = Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 code; set on create.' });
const readOnlyEventFields = {
  id: readOnly(Uuid('Stable public identifier.')),
  status: readOnly(StatusSchema),
  currency: readOnly(Currency),
  location: readOnly(
    Type.String({ description: 'Derived: the formatted addresses of all locations joined by `"; "`.' }),
  ),
  eventDates: readOnly(
    Type.Array(ref(DateRange), {
      description:
        'Derived: the nights holding at least one room plus every meeting-room range, as sorted, merged ranges.',
    }),
  ),
  agenda: readOnly(
    Type.Array(ref(AgendaItem), { description: 'The sessions; changed only through `agendaOperations`.' }),
  ),
  createdAt: readOnly(Timestamp('When the event was created.')),
  updatedAt: readOnly(Timestamp('When the event last changed.')),
};

export const Event = Type.Object(
  {
    id: readOnlyEventFields.id,
    name: eventFields.name,
    status: readOnlyEventFields.status,
    currency: readOnlyEventFields.currency,
    location: readOnlyEventFields.location,
    eventDates: readOnlyEventFields.eventDates,
    formattedLocations: Type.Array(ref(FormattedLocation), {
      maxItems: LIMITS.formattedLocations,
      description: 'Candidate locations.',
    }),
    numPeople: eventFields.numPeople,
    budgetBreakdown: ref(BudgetBreakdown),
    flexibility: orNull(eventFields.flexibility),
    decisionDeadline: orNull(eventFields.decisionDeadline),
    accommodations: ref(Accommodations),
    meetingRoomDates: eventFields.meetingRoomDates,
    agenda: readOnlyEventFields.agenda,
    numMeetingRoomsNeeded: orNull(eventFields.numMeetingRoomsNeeded),
    foodBeverageRequirements: orNull(eventFields.foodBeverageRequirements),
    meetingRooms: orNull(eventFields.meetingRooms),
    otherNotes: orNull(eventFields.otherNotes),
    notesForVenue: orNull(eventFields.notesForVenue),
    decisionFactors: eventFields.decisionFactors,
    decisionFactorOtherText: orNull(eventFields.decisionFactorOtherText),
    additionalServices: eventFields.additionalServices,
    createdAt: readOnlyEventFields.createdAt,
    updatedAt: readOnlyEventFields.updatedAt,
  },
  {
    $id: 'Event',
    additionalProperties: false,
    description:
      'The full details view, returned by GET and PATCH. Its fields use the names of the update request, so it can be read, changed and sent back.',
    examples: [eventExample],
  },
);

export const EventListItem = Type.Object(
  {
    id: Uuid('Stable public identifier.'),
    name: Type.String({ description: 'Event title.' }),
    dates: Type.Array(ref(DateRange), { description: 'The event dates (`eventDates` of the event).' }),
    locations: Type.Array(Type.String(), { description: 'Each location as `"city, state, country"`.' }),
    numPeople: Count('Total attendees.'),
    status: StatusSchema,
    createdAt: Timestamp('When the event was created.'),
  },
  {
    $id: 'EventListItem',
    additionalProperties: false,
    description: 'One event in a list.',
    examples: [
      {
        id: '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1',
        name: 'Sales kickoff',
        dates: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
        locations: ['Lisbon, Portugal'],
        numPeople: 120,
        status: 'draft',
        createdAt: '2026-11-02T10:15:00.000Z',
      },
    ],
  },
);

export const EventList = Type.Object(
  {
    data: Type.Array(ref(EventListItem), { description: 'Newest first (by `createdAt`, then `id`).' }),
    page: Type.Integer({ minimum: 1, description: 'The page returned.' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, description: 'The page size used.' }),
    total: Count("Number of the organization's events matching the filters (all of them without a filter)."),
  },
  {
    $id: 'EventList',
    additionalProperties: false,
    description: 'One page of events. A page past the end has empty `data`.',
  },
);

export const CreateEventRequest = Type.Object(
  {
    ...writableFields,
    name: eventFields.name,
    currency: Type.Optional(
      orNull(Currency, {
        description: 'ISO 4217 code; omitted or `null` means `USD`. Read-only after create.',
      }),
    ),
    eventDates: Type.Optional(
      orNull(MeetingRoomDates('Becomes the initial `meetingRoomDates`; send only one of the two.')),
    ),
    event_dates: Type.Optional(orNull(MeetingRoomDates('Another name of `eventDates`.'))),
    agenda: Type.Optional(
      orNull(
        Type.Array(ref(NewSession), {
          maxItems: LIMITS.agendaOperations,
          description: `Initial sessions, checked like an \`add\`; at most ${LIMITS.agendaOperations}.`,
        }),
      ),
    ),
    organizationId: ignoredOrganizationId,
  },
  {
    $id: 'CreateEventRequest',
    additionalProperties: false,
    description:
      '`name` is required; every writable field of the update may be set, plus `currency` and `agenda`. Unknown fields, and the fields the service sets (`id`, `status`, `location`, `createdAt`, `updatedAt`), are a 400.',
    examples: [
      {
        name: 'Sales kickoff',
        formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
        eventDates: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
        numPeople: 120,
      },
    ],
  },
);

export const UpdateEventRequest = Type.Object(
  {
    ...writableFields,
    agendaOperations: Type.Optional(
      Type.Array(ref(AgendaOperation), {
        maxItems: LIMITS.agendaOperations,
        description: `Edits of the agenda, applied in order; at most ${LIMITS.agendaOperations} per request and ${LIMITS.agendaSessions} sessions per event. A list of operations, not a field: \`null\` is a 400 \`invalid_type\`.`,
      }),
    ),
    ...Object.fromEntries(
      Object.entries(readOnlyEventFields).map(([key, schema]) => [key, Type.Optional(schema)]),
    ),
    event_dates: Type.Optional(readOnlyEventFields.eventDates),
    organizationId: ignoredOrganizationId,
  },
  {
    $id: 'UpdateEventRequest',
    additionalProperties: false,
    description:
      'A JSON Merge Patch (RFC 7396) over the writable fields, plus `agendaOperations`. Omitted: unchanged; `null`: cleared; objects merge key by key; arrays are replaced whole. Read-only fields may be sent back unchanged (a GET body is a valid update); a changed value is a 400 `read_only`. All or nothing: a 400 lists every problem and writes nothing.',
    examples: [
      {
        budgetBreakdown: { venue: 26000, merch: null },
        accommodations: { '2027-03-01': { Single: 42 } },
        agendaOperations: [
          {
            op: 'add',
            session: { title: 'Closing dinner', dates: ['2027-03-02'], startTime: '19:00', endTime: '22:00' },
          },
          {
            op: 'update',
            sessionId: '6f1d2a8e-0c3b-4f6a-9a51-2b7d8c9e0f12',
            session: { startTime: '09:30' },
          },
        ],
      },
    ],
  },
);

export const CreatedEvent = Type.Object(
  {
    id: Uuid("The new event's id; also in the `Location` header."),
    grantedTo: Count(
      "How many people can see the event: the key's user plus that user's approvers. `0` when the creator is in no group: the event exists but nobody can see it in the planning dashboard.",
    ),
  },
  {
    $id: 'CreatedEvent',
    additionalProperties: false,
    description: 'The created event.',
    examples: [{ id: '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1', grantedTo: 2 }],
  },
);

// ---------------------------------------------------------------------------------------------------
// The change log (D17)

export const ApiKeyActor = Type.Object(
  {
    type: Type.Literal('api_key'),
    keyId: Type.String({
      description: 'The id of the API key used (the `<keyId>` in `evp_<keyId>_<secret>`).',
    }),
    userId: Type.String({ description: 'The user the key acts for.' }),
  },
  { $id: 'ApiKeyActor', additionalProperties: false, description: 'A request made with an API key.' },
);

export const PersonActor = Type.Object(
  {
    type: Type.Literal('person'),
    userId: Type.String({ description: 'The person, a user of the organization.' }),
  },
  {
    $id: 'PersonActor',
    additionalProperties: false,
    description: 'A person signed in to the planning dashboard.',
  },
);

export const OperatorActor = Type.Object(
  { type: Type.Literal('operator') },
  {
    $id: 'OperatorActor',
    additionalProperties: false,
    description: 'An operator, through the `eventplan` command line.',
  },
);

export const Actor = Type.Unsafe<
  Static<typeof ApiKeyActor> | Static<typeof PersonActor> | Static<typeof OperatorActor>
>({
  $id: 'Actor',
  oneOf: [ref(ApiKeyActor), ref(PersonActor), ref(OperatorActor)],
  discriminator: {
    propertyName: 'type',
    mapping: {
      api_key: '#/components/schemas/ApiKeyActor',
      person: '#/components/schemas/PersonActor',
      operator: '#/components/schemas/OperatorActor',
    },
  },
  description: 'Who made the change.',
});

export const PatchOperation = Type.Object(
  {
    op: Type.Union(
      ['add', 'remove', 'replace', 'move', 'copy', 'test'].map((op) => Type.Literal(op)),
      { description: 'The RFC 6902 operation.' },
    ),
    path: Type.String({
      description:
        'A JSON Pointer into the full details view; agenda sessions are addressed by id (`/agenda/{sessionId}/title`), not by position.',
    }),
    value: Type.Optional(Type.Unknown({ description: 'The new value (`add`, `replace`, `test`).' })),
    from: Type.Optional(Type.String({ description: 'The source pointer (`move`, `copy`).' })),
  },
  {
    $id: 'PatchOperation',
    additionalProperties: false,
    description: 'One RFC 6902 (JSON Patch) operation.',
    examples: [{ op: 'replace', path: '/numPeople', value: 140 }],
  },
);

export const StatusChangeData = Type.Object(
  {
    from: StatusSchema,
    to: StatusSchema,
    comment: Type.Optional(
      Type.String({ description: 'The comment given when an approver returned the event to draft.' }),
    ),
    reason: Type.Optional(Type.String({ description: 'The reason given when the event was cancelled.' })),
  },
  {
    $id: 'StatusChangeData',
    additionalProperties: false,
    description: 'The move of an `event.status_changed` change.',
    examples: [{ from: 'draft', to: 'wait_for_proposals' }],
  },
);

const changeFields = {
  id: Uuid("The change's id: unique, the same wherever the change is seen. Deduplicate by it."),
  sequence: Type.Integer({
    minimum: 1,
    maximum: SAFE_INTEGER,
    description:
      "The change's number in its organization, in commit order, never reused. The feed is ordered by it.",
  }),
  eventId: Uuid('The event that changed.'),
  revision: Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    description: "The event's revision this change made: 1 for the create, then 2, 3, … without gaps.",
  }),
  type: Type.Unsafe<(typeof CHANGE_TYPES)[number]>({
    type: 'string',
    enum: [...CHANGE_TYPES],
    description:
      '`event.created`, `event.updated` (through the API or the dashboard) or `event.status_changed` (a status move by the dashboard or an operator).',
  }),
  occurredAt: Timestamp('When the change was made: the `updatedAt` of the event it produced.'),
  actor: ref(Actor),
  changedFields: Type.Array(Type.String(), {
    description:
      'The top-level fields whose value changed (`updatedAt`, which every change moves, is left out). On a create, every field the new event has.',
  }),
  diff: Type.Array(ref(PatchOperation), {
    description: 'RFC 6902 operations from the details before the change to the details after it.',
  }),
  data: Type.Optional(ref(StatusChangeData)),
};

const changeExample = {
  id: '3e2d7a41-9b0c-4f5e-8a6d-1c2b3a4d5e6f',
  sequence: 42,
  eventId: '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1',
  revision: 3,
  type: 'event.updated',
  occurredAt: '2026-11-03T08:00:00.000Z',
  actor: { type: 'api_key', keyId: 'AbCdEfGh12345678', userId: 'b1c2d3e4-0000-4000-8000-000000000001' },
  changedFields: ['numPeople'],
  diff: [
    { op: 'replace', path: '/numPeople', value: 140 },
    { op: 'replace', path: '/updatedAt', value: '2026-11-03T08:00:00.000Z' },
  ],
};

export const Change = Type.Object(changeFields, {
  $id: 'Change',
  additionalProperties: false,
  description:
    'One committed change of an event. `data` is present on `event.status_changed` only. An event created before the change log existed has revisions from its next change on.',
  examples: [changeExample],
});

export const Revision = Type.Object(
  {
    ...changeFields,
    snapshot: ref(Event),
  },
  {
    $id: 'Revision',
    additionalProperties: false,
    description: 'One change of an event, with `snapshot`: the full details view as it was right after it.',
  },
);

const hasMore = Type.Boolean({
  description: 'Whether more items were already there when this page was read.',
});

export const ChangePage = Type.Object(
  {
    data: Type.Array(ref(Change), { description: 'Oldest first, by `sequence`.' }),
    hasMore,
    nextCursor: Type.String({
      description:
        'Always present: pass it as `after` for the next page. On the last page it points at the end of the feed, so polling with it returns each later change once.',
    }),
  },
  {
    $id: 'ChangePage',
    additionalProperties: false,
    description: "One page of the organization's change feed.",
  },
);

export const RevisionPage = Type.Object(
  {
    data: Type.Array(ref(Change), { description: 'Newest first, by `revision`.' }),
    hasMore,
    nextCursor: orNull(
      Type.String({ description: 'Pass it as `after` for the next (older) page; `null` on the last page.' }),
    ),
  },
  {
    $id: 'RevisionPage',
    additionalProperties: false,
    description: "One page of an event's revisions.",
  },
);

// ---------------------------------------------------------------------------------------------------
// Problems (RFC 9457, D4)

export const FieldProblem = Type.Object(
  {
    field: Type.String({
      description:
        "Path of the offending field from the body's root (`accommodations.2027-03-01.Kingsize`, `agendaOperations[3].session.startTime`), `query.<name>` for query parameters, `header.<name>` for headers, `id` for the path id, `body` for the body as a whole.",
    }),
    code: Type.String({
      pattern: '^[a-z][a-z0-9_]*$',
      description:
        'Stable snake_case word: `required`, `invalid_type`, `invalid_format`, `invalid_date`, `invalid_value`, `invalid_characters`, `empty`, `too_long`, `too_many`, `out_of_range`, `duplicate`, `unknown_field`, `read_only`, `not_allowed`, `conflict`, `unknown_session`, `outside_meeting_room_dates`, `invalid_cursor`, `invalid_json`, `duplicate_key` (a key repeated in one object), `too_deep` (nesting deeper than 32 levels).',
    }),
    message: Type.String({ description: 'For people.' }),
  },
  {
    $id: 'FieldProblem',
    additionalProperties: false,
    description: 'One problem of a request.',
    examples: [
      {
        field: 'agendaOperations[0].session.startTime',
        code: 'invalid_format',
        message: 'must be a 24-hour time HH:MM',
      },
    ],
  },
);

export const OrphanedSession = Type.Object(
  {
    sessionId: Uuid('The session.'),
    title: Type.String({ description: 'Its title.' }),
    droppedDates: Type.Array(Day(), { description: 'Its days no longer inside `meetingRoomDates`.' }),
    fullyOrphaned: Type.Boolean({ description: 'None of its days is covered any more.' }),
  },
  { $id: 'OrphanedSession', additionalProperties: false, description: 'A session the change would strand.' },
);

const problemFields = {
  type: Type.String({
    format: 'uri',
    description: 'Identifies the problem type: `urn:eventplan:problem:<code>`.',
    examples: ['urn:eventplan:problem:not_found'],
  }),
  title: Type.String({ description: 'The HTTP reason phrase.' }),
  status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status code.' }),
  code: Type.String({
    pattern: '^[a-z][a-z0-9_]*$',
    description:
      'Stable snake_case word for programs: `validation_failed`, `unauthorized`, `not_found`, `event_cancelled`, `agenda_sessions_orphaned`, `precondition_failed`, `idempotency_key_in_use`, `idempotency_key_reused`, `payload_too_large`, `unsupported_media_type`, `rate_limited`, `internal_error`, `service_unavailable`.',
  }),
  message: Type.String({ description: 'For people; may change.' }),
  requestId: Type.String({ description: 'The request id, also sent as the `x-request-id` header.' }),
};

export const Problem = Type.Object(problemFields, {
  $id: 'Problem',
  additionalProperties: false,
  description: 'An error, as `application/problem+json` (RFC 9457).',
  examples: [
    {
      type: 'urn:eventplan:problem:not_found',
      title: 'Not Found',
      status: 404,
      code: 'not_found',
      message: 'No event with id 0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1.',
      requestId: 'req-7f3a',
    },
  ],
});

export const ValidationProblem = Type.Object(
  {
    ...problemFields,
    status: Type.Literal(400),
    code: Type.Literal('validation_failed'),
    errors: Type.Array(ref(FieldProblem), { minItems: 1, description: 'Every problem found, at once.' }),
  },
  {
    $id: 'ValidationProblem',
    additionalProperties: false,
    description: 'A 400: the request was refused and nothing was written. Safe to correct and retry.',
    examples: [
      {
        type: 'urn:eventplan:problem:validation_failed',
        title: 'Bad Request',
        status: 400,
        code: 'validation_failed',
        message: 'The request has 2 problems; see errors.',
        requestId: 'req-7f3a',
        errors: [
          { field: 'name', code: 'too_long', message: 'must be at most 100 characters (got 130)' },
          {
            field: 'accommodations.2027-03-01.Kingsize',
            code: 'unknown_field',
            message: 'is not a room type; use one of Single, Double, Twin, ROH, Suite, Staff, VIP',
          },
        ],
      },
    ],
  },
);

export const AgendaSessionsOrphanedProblem = Type.Object(
  {
    ...problemFields,
    status: Type.Literal(409),
    code: Type.Literal('agenda_sessions_orphaned'),
    orphanedSessions: Type.Array(ref(OrphanedSession), {
      minItems: 1,
      description: 'One entry per affected session.',
    }),
  },
  {
    $id: 'AgendaSessionsOrphanedProblem',
    additionalProperties: false,
    description:
      'The change to `meetingRoomDates` would leave sessions without some of their days. Nothing was written; move or remove them (in the same request) and retry.',
    examples: [
      {
        type: 'urn:eventplan:problem:agenda_sessions_orphaned',
        title: 'Conflict',
        status: 409,
        code: 'agenda_sessions_orphaned',
        message:
          'The change to meetingRoomDates would leave 1 agenda session(s) without some of their dates; move or remove them in the same request and retry.',
        requestId: 'req-7f3a',
        orphanedSessions: [
          {
            sessionId: '6f1d2a8e-0c3b-4f6a-9a51-2b7d8c9e0f12',
            title: 'Opening plenary',
            droppedDates: ['2027-03-01'],
            fullyOrphaned: true,
          },
        ],
      },
    ],
  },
);

/** Every shared schema, registered with Fastify so the document lists each once under components. */
// ---------------------------------------------------------------------------------------------------
// Webhooks (D18)

const EVENT_TYPES_DESCRIPTION = '`event.created`, `event.updated` or `event.status_changed`.';
const WebhookEventType = Type.Union(
  CHANGE_TYPES.map((type) => Type.Literal(type)),
  { description: `A change type: ${EVENT_TYPES_DESCRIPTION}` },
);

const EXAMPLE_ENDPOINT = {
  id: '3d6f1c2a-8b4e-4f0a-9c1d-2e7f5a6b8c90',
  url: 'https://hooks.example.com/eventplan',
  enabledEvents: ['event.created', 'event.status_changed'],
  status: 'enabled',
  disabledReason: null,
  failingSince: null,
  createdAt: '2027-01-10T09:00:00.000Z',
  updatedAt: '2027-01-10T09:00:00.000Z',
};

const endpointFields = {
  id: Uuid('The endpoint id.'),
  url: Type.String({ description: 'Where deliveries are POSTed.' }),
  enabledEvents: Type.Array(WebhookEventType, {
    minItems: 1,
    description: 'The change types delivered here.',
  }),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description:
      '`disabled` by you (PATCH), or by the service after a `410 Gone` or 3 days of failures (see `disabledReason`). PATCH `status: "enabled"` to resume: changes made while disabled are delivered then.',
  }),
  disabledReason: orNull(Type.String(), { description: 'Why the endpoint is disabled, or null.' }),
  failingSince: orNull(Timestamp('When the current run of failed attempts began; null while healthy.')),
  createdAt: Timestamp('When the endpoint was created.'),
  updatedAt: Timestamp('When the endpoint last changed.'),
};

export const WebhookEndpoint = Type.Object(endpointFields, {
  $id: 'WebhookEndpoint',
  additionalProperties: false,
  description: 'A URL that receives signed webhooks (Standard Webhooks 1.0) for the changes of your events.',
  examples: [EXAMPLE_ENDPOINT],
});

const SECRET_DESCRIPTION =
  'The signing secret, `whsec_` + base64 of 32 random bytes. Shown only now: keep it to verify `webhook-signature`.';

export const CreatedWebhookEndpoint = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{32,}$', description: SECRET_DESCRIPTION }),
  },
  {
    $id: 'CreatedWebhookEndpoint',
    additionalProperties: false,
    description: 'The new endpoint with its secret, which is never shown again.',
    examples: [{ ...EXAMPLE_ENDPOINT, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Cp2dgaFaeU=' }],
  },
);

export const RotatedWebhookSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{32,}$', description: SECRET_DESCRIPTION }),
    previousSecretExpiresAt: Timestamp(
      'Until then the previous secret signs too: each delivery carries both signatures, space-separated.',
    ),
  },
  {
    $id: 'RotatedWebhookSecret',
    additionalProperties: false,
    description: 'The endpoint with its new secret (shown only now).',
  },
);

export const WebhookEndpointList = Type.Object(
  { data: Type.Array(ref(WebhookEndpoint)) },
  { $id: 'WebhookEndpointList', additionalProperties: false, description: 'Your endpoints, oldest first.' },
);

export const CreateWebhookEndpointRequest = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      description:
        'An `https` URL to a public address. Private, loopback, link-local, unique-local, multicast, CGNAT and reserved addresses are refused (a 400 naming `url`), and checked again on every connection.',
    }),
    enabledEvents: Type.Array(WebhookEventType, { minItems: 1, uniqueItems: true }),
  },
  {
    $id: 'CreateWebhookEndpointRequest',
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/eventplan', enabledEvents: ['event.created'] }],
  },
);

export const UpdateWebhookEndpointRequest = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    enabledEvents: Type.Optional(Type.Array(WebhookEventType, { minItems: 1, uniqueItems: true })),
    status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
  },
  {
    $id: 'UpdateWebhookEndpointRequest',
    additionalProperties: false,
    examples: [{ status: 'enabled' }],
  },
);

export const WebhookDelivery = Type.Object(
  {
    id: Uuid('The delivery id (for a manual retry).'),
    webhookId: Type.String({
      description: 'The `webhook-id` header: the change id, the same on every attempt.',
    }),
    type: Type.String({ description: `${EVENT_TYPES_DESCRIPTION} or \`webhook.test\`.` }),
    sequence: orNull(Count('The change sequence; null for a test.')),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description:
        '`pending` (an attempt is due at `nextAttemptAt`), `succeeded` (a 2xx came back) or `failed` (no attempt left).',
    }),
    attempts: Count('Attempts made.'),
    nextAttemptAt: orNull(Timestamp('When the next attempt is due.')),
    lastAttemptAt: orNull(Timestamp('When the last attempt was made.')),
    lastStatusCode: orNull(
      Type.Integer({ minimum: 100, maximum: 599, description: 'The last HTTP status received.' }),
    ),
    lastError: orNull(
      Type.String({ description: 'Why the last attempt got no response (timeout, refused address, …).' }),
    ),
    lastResponseBody: orNull(
      Type.String({ description: 'The start of the last response body (at most 64 KiB).' }),
    ),
    createdAt: Timestamp('When the delivery was queued.'),
  },
  {
    $id: 'WebhookDelivery',
    additionalProperties: false,
    description: 'One change on its way to one endpoint.',
  },
);

export const WebhookDeliveryList = Type.Object(
  { data: Type.Array(ref(WebhookDelivery)) },
  { $id: 'WebhookDeliveryList', additionalProperties: false, description: 'Deliveries, newest first.' },
);

export const WebhookPayload = Type.Object(
  {
    type: Type.Union([...CHANGE_TYPES.map((type) => Type.Literal(type)), Type.Literal('webhook.test')]),
    timestamp: Timestamp('When the change was committed (for a test: when it was queued).'),
    data: Type.Object(
      {
        id: Type.Optional(Uuid('The change id (also the `webhook-id` header).')),
        eventId: Type.Optional(Uuid('The event that changed.')),
        revision: Type.Optional(
          Type.Integer({ minimum: 1, description: "The change's number among the event's changes." }),
        ),
        sequence: Type.Optional(Count("The change's number among the organization's, in commit order.")),
        changedFields: Type.Optional(
          Type.Array(Type.String(), { description: 'The top-level fields that changed.' }),
        ),
        actor: Type.Optional(Type.Object({ type: Type.String() }, { description: 'Who made the change.' })),
        from: Type.Optional(Type.String({ description: '`event.status_changed`: the status before.' })),
        to: Type.Optional(Type.String({ description: '`event.status_changed`: the status after.' })),
        endpointId: Type.Optional(Uuid('`webhook.test`: the endpoint tested.')),
      },
      { description: 'What changed. Fetch the event (or its revision) for the details.' },
    ),
  },
  {
    $id: 'WebhookPayload',
    description:
      'The body of every delivery. Headers: `webhook-id` (dedupe on it), `webhook-timestamp` (Unix seconds of the attempt), `webhook-signature` (`v1,<base64 HMAC-SHA256>`, several space-separated during a secret rotation). Verify with any Standard Webhooks library.',
    examples: [
      {
        type: 'event.status_changed',
        timestamp: '2027-01-12T10:15:00.000Z',
        data: {
          id: '9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
          eventId: '0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1',
          revision: 4,
          sequence: 118,
          changedFields: ['status'],
          actor: { type: 'operator' },
          from: 'draft',
          to: 'submitted',
        },
      },
    ],
  },
);

export const WebhookEndpointParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The endpoint's id. A malformed id is a 400 naming `id`." }),
});

export const WebhookDeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The endpoint's id." }),
  deliveryId: Type.String({ format: 'uuid', description: "The delivery's id." }),
});

export const DeliveryListQuery = Type.Object(
  {
    limit: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 20,
      description: 'Deliveries to return, 1 to 100.',
    }),
  },
  { additionalProperties: false },
);

export const COMPONENT_SCHEMAS: TSchema[] = [
  DateRange,
  FormattedLocation,
  FormattedLocationInput,
  BudgetBreakdown,
  BudgetBreakdownPatch,
  RoomCounts,
  RoomCountsPatch,
  Accommodations,
  AccommodationsPatch,
  AgendaItem,
  NewSession,
  SessionChanges,
  AddSessionOperation,
  UpdateSessionOperation,
  RemoveSessionOperation,
  AgendaOperation,
  Event,
  EventListItem,
  EventList,
  CreateEventRequest,
  UpdateEventRequest,
  CreatedEvent,
  FieldProblem,
  OrphanedSession,
  Problem,
  ValidationProblem,
  AgendaSessionsOrphanedProblem,
  ApiKeyActor,
  PersonActor,
  OperatorActor,
  Actor,
  PatchOperation,
  StatusChangeData,
  Change,
  Revision,
  ChangePage,
  RevisionPage,
  WebhookEndpoint,
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  WebhookEndpointList,
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookPayload,
];

// ---------------------------------------------------------------------------------------------------
// Headers

/** An Idempotency-Key: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,255}$';
/** One `*`, or a comma-separated list of entity tags (`"…"` or `W/"…"`), as RFC 9110 writes them. */
const ENTITY_TAG = '(W/)?"[\\x21\\x23-\\x7E\\x80-\\xFF]*"';
const ENTITY_TAGS_PATTERN = `^[ \\t]*(\\*|${ENTITY_TAG}([ \\t]*,[ \\t]*${ENTITY_TAG})*)[ \\t]*$`;

const requestIdHeader = Type.String({
  description:
    'Your id for this request (1-128 of `A-Z a-z 0-9 . _ : -`), echoed in the `x-request-id` response header, in error bodies and in every log line. Anything else is replaced by a generated id.',
  examples: ['checkout-5f2a91'],
});

export const CommonRequestHeaders = Type.Object({ 'x-request-id': Type.Optional(requestIdHeader) });

export const CreateEventHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description:
        'Makes the create safe to retry: the same key with the same body within 24 hours replays the first `201` (same id, body and `Location`, plus `Idempotent-Replayed: true`) instead of creating a second event. The same key with a different body is a 422; while the first request is still running, a 409. Keys are scoped to your organization; a request refused with 400 is not remembered. 1 to 255 printable ASCII characters, otherwise a 400 naming `header.idempotency-key`.',
      examples: ['4c1d2c6e-create-sales-kickoff'],
    }),
  ),
  'x-request-id': Type.Optional(requestIdHeader),
});

export const GetEventHeaders = Type.Object({
  'If-None-Match': Type.Optional(
    Type.String({
      pattern: ENTITY_TAGS_PATTERN,
      description:
        'ETags you hold (or `*`). When one matches the current event (weak comparison), the answer is a `304` without a body.',
      examples: ['"VaBVI4glteVJLWQSQtFG-Bc4DkhgePxC"'],
    }),
  ),
  'x-request-id': Type.Optional(requestIdHeader),
});

export const UpdateEventHeaders = Type.Object({
  'If-Match': Type.Optional(
    Type.String({
      pattern: ENTITY_TAGS_PATTERN,
      description:
        'Update only if the event is still as you read it: its current `ETag` must be listed (strong comparison); `*` matches any existing event. Otherwise a `412 precondition_failed` and nothing is written. Checked in the same transaction as the write, so of two planners sending the same ETag only one wins.',
      examples: ['"VaBVI4glteVJLWQSQtFG-Bc4DkhgePxC"'],
    }),
  ),
  'x-request-id': Type.Optional(requestIdHeader),
});

/** Response headers. `x-required` marks headers always present; openapi.ts turns it into `required`. */
const header = (schema: Record<string, unknown>, required = true) =>
  required ? { ...schema, 'x-required': true } : schema;

const RESPONSE_HEADERS = {
  requestId: header({
    type: 'string',
    description: 'The request id: yours from `x-request-id` when it was a safe token, or a generated one.',
  }),
  rateLimitLimit: header({ type: 'integer', minimum: 1, description: 'Requests allowed per minute.' }),
  rateLimitRemaining: header({
    type: 'integer',
    minimum: 0,
    description: 'Requests left in the current window.',
  }),
  rateLimitReset: header({
    type: 'integer',
    minimum: 0,
    description: 'Seconds until the current window ends.',
  }),
  retryAfter: header({
    type: 'integer',
    minimum: 0,
    description: 'Seconds to wait before a retry can succeed.',
  }),
  etag: header({
    type: 'string',
    pattern: '^"[\\x21\\x23-\\x7E]*"$',
    description:
      'Strong entity tag of the event; changes whenever the event changes. Send it in `If-None-Match` (GET) or `If-Match` (PATCH).',
  }),
  location: header({ type: 'string', description: 'Path of the new event: `/v1/events/{id}`.' }),
  link: header(
    {
      type: 'string',
      description:
        'RFC 8288 link to the next page, `</v1/…?after=…&limit=…>; rel="next"`; present when `hasMore` is true.',
    },
    false,
  ),
  replayed: header(
    {
      type: 'string',
      enum: ['true'],
      description: 'Present on a replay of an earlier create with the same `Idempotency-Key`.',
    },
    false,
  ),
};

const API_HEADERS = {
  'x-request-id': RESPONSE_HEADERS.requestId,
  'RateLimit-Limit': RESPONSE_HEADERS.rateLimitLimit,
  'RateLimit-Remaining': RESPONSE_HEADERS.rateLimitRemaining,
  'RateLimit-Reset': RESPONSE_HEADERS.rateLimitReset,
};

// ---------------------------------------------------------------------------------------------------
// Responses

export const JSON_MEDIA_TYPE = 'application/json';
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

function jsonResponse(description: string, schema: TSchema, headers: Record<string, unknown> = {}) {
  return { description, headers: { ...API_HEADERS, ...headers }, content: { [JSON_MEDIA_TYPE]: { schema } } };
}

/** A problem whose `status` and `code` are fixed, so a typed client can tell the cases apart. */
function problemOf(status: number, codes: string[]) {
  return Type.Unsafe({
    allOf: [
      ref(Problem),
      {
        type: 'object',
        properties: {
          status: { type: 'integer', enum: [status] },
          code: { type: 'string', enum: codes },
        },
      },
    ],
  });
}

function problemResponse(description: string, schema: TSchema, headers: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...API_HEADERS, ...headers },
    content: { [PROBLEM_MEDIA_TYPE]: { schema } },
  };
}

const ERRORS = {
  400: (what: string) =>
    problemResponse(
      `${what} Nothing was written; \`errors\` names every offending field. Safe to correct and retry.`,
      ref(ValidationProblem),
    ),
  401: problemResponse(
    'The `x-api-key` header is missing, or the key is invalid, revoked or its user deactivated.',
    problemOf(401, ['unauthorized']),
  ),
  404: problemResponse(
    'No event with this id in your organization (an event of another organization is a 404 too).',
    problemOf(404, ['not_found']),
  ),
  412: problemResponse(
    'The event changed since you read it: its ETag is not among those in `If-Match`. Nothing was written; read it again and retry.',
    problemOf(412, ['precondition_failed']),
  ),
  413: problemResponse('The body is larger than 1 MiB.', problemOf(413, ['payload_too_large'])),
  415: (types: string) =>
    problemResponse(`The body is not sent as ${types}.`, problemOf(415, ['unsupported_media_type'])),
  429: problemResponse(
    'Too many requests for this key (or, without a valid key, this address). Retry after `Retry-After` seconds.',
    problemOf(429, ['rate_limited']),
    { 'Retry-After': RESPONSE_HEADERS.retryAfter },
  ),
  // Headers set on the way in may be missing when the failure came first (for example in the rate limiter).
  default: {
    description:
      'An unexpected error (`internal_error`, never with internal details) or `service_unavailable`; the request was not applied.',
    headers: { 'x-request-id': RESPONSE_HEADERS.requestId },
    content: { [PROBLEM_MEDIA_TYPE]: { schema: ref(Problem) } },
  },
};

// ---------------------------------------------------------------------------------------------------
// Routes: everything @fastify/swagger documents about each operation

export const ListEventsRoute = {
  operationId: 'listEvents',
  tags: ['Events'],
  summary: 'List events',
  description:
    "The organization's events, newest first (by `createdAt`, then `id`), cancelled ones included. `page` >= 1 (default 1), `limit` 1 to 100 (default 20); anything else, or an unknown parameter, is a 400 naming `query.<name>`. Filters: `status` (comma-separated) and `updatedAfter`; `total` counts the events matching them.",
  querystring: ListQuery,
  headers: CommonRequestHeaders,
  response: {
    200: jsonResponse('A page of events.', ref(EventList)),
    400: ERRORS[400]('A query parameter is malformed, out of range or unknown.'),
    401: ERRORS[401],
    429: ERRORS[429],
    default: ERRORS.default,
  },
};

export const CreateEventRoute = {
  operationId: 'createEvent',
  tags: ['Events'],
  summary: 'Create an event',
  description:
    "Creates an event in the `draft` status, owned by the key's user and granted to that user and the user's approvers. `eventDates` becomes the initial `meetingRoomDates`. Check `grantedTo`: `0` is not an error. Send an `Idempotency-Key` to retry safely. Takes no query parameters: any is a 400 naming `query.<name>`, checked before the body.",
  querystring: NoQuery,
  headers: CreateEventHeaders,
  response: {
    201: jsonResponse(
      'Created (or, with `Idempotent-Replayed: true`, the replay of an earlier create).',
      ref(CreatedEvent),
      {
        Location: RESPONSE_HEADERS.location,
        'Idempotent-Replayed': RESPONSE_HEADERS.replayed,
      },
    ),
    400: ERRORS[400](
      'The body, the `Idempotency-Key` header or a query parameter (none is accepted) was refused.',
    ),
    401: ERRORS[401],
    409: problemResponse(
      'A request with the same `Idempotency-Key` is still in progress; retry after it has finished.',
      problemOf(409, ['idempotency_key_in_use']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
    422: problemResponse(
      'This `Idempotency-Key` was used in the last 24 hours with a different body. Nothing was created.',
      problemOf(422, ['idempotency_key_reused']),
    ),
    429: ERRORS[429],
    default: ERRORS.default,
  },
};

export const GetEventRoute = {
  operationId: 'getEvent',
  tags: ['Events'],
  summary: 'Read an event',
  description:
    'The full details view, with its `ETag`. Send the ETag back in `If-None-Match` to get a bodiless `304` while the event is unchanged, or in `If-Match` on a PATCH to update only what you read. Takes no query parameters: any is a 400 naming `query.<name>`.',
  params: EventIdParams,
  querystring: NoQuery,
  headers: GetEventHeaders,
  response: {
    200: jsonResponse('The event.', ref(Event), { ETag: RESPONSE_HEADERS.etag }),
    304: {
      type: 'null',
      description: 'Not modified: the event still has an ETag listed in `If-None-Match`. No body.',
      headers: { ...API_HEADERS, ETag: RESPONSE_HEADERS.etag },
    },
    400: ERRORS[400](
      'The id is not a UUID (`id`), a query parameter was sent (none is accepted: `query.<name>`), or a header is malformed.',
    ),
    401: ERRORS[401],
    404: ERRORS[404],
    429: ERRORS[429],
    default: ERRORS.default,
  },
};

export const UpdateEventRoute = {
  operationId: 'updateEvent',
  tags: ['Events'],
  summary: 'Update an event',
  description:
    'A JSON Merge Patch over the writable fields, plus `agendaOperations`. Takes no query parameters. Checks run in this order: key (401), rate limit (429), id format and query parameters (one 400 naming `id` and every `query.<name>`), body is a JSON object (400/413/415), a malformed `If-Match` (400, reported on its own), event exists (404), not cancelled (409), `If-Match` (412), every field and agenda problem at once (400), stranded sessions (409). Only then is it written. The response is the whole event with its new `ETag`.',
  consumes: [JSON_MEDIA_TYPE, 'application/merge-patch+json'],
  params: EventIdParams,
  querystring: NoQuery,
  headers: UpdateEventHeaders,
  response: {
    200: jsonResponse(
      'Updated (or unchanged, when the patch changes nothing): the whole event.',
      ref(Event),
      {
        ETag: RESPONSE_HEADERS.etag,
      },
    ),
    400: ERRORS[400]('The id, a query parameter (none is accepted), the body or a header was refused.'),
    401: ERRORS[401],
    404: ERRORS[404],
    409: problemResponse(
      'The event is cancelled (`event_cancelled`: only an operator can reopen it), or the change to `meetingRoomDates` would strand agenda sessions (`agenda_sessions_orphaned`, listed in `orphanedSessions`). Nothing was written.',
      Type.Unsafe({
        oneOf: [problemOf(409, ['event_cancelled']), ref(AgendaSessionsOrphanedProblem)],
      }),
    ),
    412: ERRORS[412],
    413: ERRORS[413],
    415: ERRORS[415]('`application/json` or `application/merge-patch+json`'),
    429: ERRORS[429],
    default: ERRORS.default,
  },
};

const pageHeaders = { Link: RESPONSE_HEADERS.link };

export const ListRevisionsRoute = {
  operationId: 'listEventRevisions',
  tags: ['Changes'],
  summary: "List an event's revisions",
  description:
    'Every committed change of the event, newest first, cursor-paged: `{ data, hasMore, nextCursor }` and, while there is more, a `Link: <…>; rel="next"` header. Nothing is recorded for a PATCH that changes nothing or for a refused one. An event created before the change log existed has revisions from its next change on.',
  params: EventIdParams,
  querystring: RevisionsQuery,
  headers: CommonRequestHeaders,
  response: {
    200: jsonResponse('A page of revisions, newest first.', ref(RevisionPage), pageHeaders),
    400: ERRORS[400](
      'The id is not a UUID (`id`), `limit` is out of range, `after` is not a cursor of this list (`query.after`), or a parameter is unknown.',
    ),
    401: ERRORS[401],
    404: ERRORS[404],
    429: ERRORS[429],
    default: ERRORS.default,
  },
};

export const GetRevisionRoute = {
  operationId: 'getEventRevision',
  tags: ['Changes'],
  summary: 'Read one revision',
  description:
    'The change that made this revision, plus `snapshot`: the full details view as it was right after it. Takes no query parameters.',
  params: RevisionParams,
  querystring: NoQuery,
  headers: CommonRequestHeaders,
  response: {
    200: jsonResponse('The revision.', ref(Revision)),
    400: ERRORS[400](
      'The id is not a UUID (`id`), the revision is not a whole number >= 1 (`revision`), or a query parameter was sent.',
    ),
    401: ERRORS[401],
    404: problemResponse(
      'No event with this id in your organization, or the event has no such revision.',
      problemOf(404, ['not_found']),
    ),
    429: ERRORS[429],
    default: ERRORS.default,
  },
};

export const ListChangesRoute = {
  operationId: 'listChanges',
  tags: ['Changes'],
  summary: 'Read the change feed',
  description:
    'Every committed change of the organization\'s events, oldest first, in `sequence` order, which is commit order: a reader paging along never skips a change committed late. Start without `after`; pass each page\'s `nextCursor` as `after`. `nextCursor` is present on every page, the last one included, so a reader at the end polls with it and receives each later change once. While `hasMore` is true a `Link: <…>; rel="next"` header points at the next page.',
  querystring: ChangesQuery,
  headers: CommonRequestHeaders,
  response: {
    200: jsonResponse('A page of changes, oldest first.', ref(ChangePage), pageHeaders),
    400: ERRORS[400](
      '`limit` is out of range, `after` is not a cursor of this feed (`query.after`), or a parameter is unknown.',
    ),
    401: ERRORS[401],
    429: ERRORS[429],
    default: ERRORS.default,
  },
};
// ---------------------------------------------------------------------------------------------------
// Webhook endpoint routes (D18)

const WEBHOOK_404 = problemResponse(
  'No webhook endpoint (or delivery) with this id in your organization (one of another organization is a 404 too).',
  problemOf(404, ['not_found']),
);

const webhookOperation = (
  operationId: string,
  summary: string,
  description: string,
  response: Record<string | number, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  operationId,
  tags: ['Webhooks'],
  summary,
  description,
  querystring: NoQuery,
  headers: CommonRequestHeaders,
  ...extra,
  response: { ...response, 401: ERRORS[401], 429: ERRORS[429], default: ERRORS.default },
});

export const CreateWebhookEndpointRoute = webhookOperation(
  'createWebhookEndpoint',
  'Create a webhook endpoint',
  'Starts delivering the changes of the enabled types committed from now on. The answer holds the signing `secret`, shown only this once.',
  {
    201: jsonResponse('Created, with its secret.', ref(CreatedWebhookEndpoint)),
    400: ERRORS[400]('The body was refused: `url` (not https, not public, malformed) or `enabledEvents`.'),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
);

export const ListWebhookEndpointsRoute = webhookOperation(
  'listWebhookEndpoints',
  'List webhook endpoints',
  "The organization's endpoints, oldest first, without their secrets.",
  {
    200: jsonResponse('The endpoints.', ref(WebhookEndpointList)),
    400: ERRORS[400]('A query parameter was sent.'),
  },
);

export const GetWebhookEndpointRoute = webhookOperation(
  'getWebhookEndpoint',
  'Read a webhook endpoint',
  'One endpoint, with its status and, when disabled, why.',
  {
    200: jsonResponse('The endpoint.', ref(WebhookEndpoint)),
    400: ERRORS[400]('The id is not a UUID.'),
    404: WEBHOOK_404,
  },
  { params: WebhookEndpointParams },
);

export const UpdateWebhookEndpointRoute = webhookOperation(
  'updateWebhookEndpoint',
  'Update a webhook endpoint',
  'Changes `url`, `enabledEvents` or `status`. Enabling a disabled endpoint clears its failure record; the changes committed while it was disabled are delivered then.',
  {
    200: jsonResponse('The endpoint as changed.', ref(WebhookEndpoint)),
    400: ERRORS[400]('The id or the body was refused.'),
    404: WEBHOOK_404,
    413: ERRORS[413],
    415: ERRORS[415]('`application/json` or `application/merge-patch+json`'),
  },
  { params: WebhookEndpointParams, consumes: [JSON_MEDIA_TYPE, 'application/merge-patch+json'] },
);

export const DeleteWebhookEndpointRoute = webhookOperation(
  'deleteWebhookEndpoint',
  'Delete a webhook endpoint',
  'Deletes the endpoint and its deliveries; nothing more is sent to it.',
  {
    204: { type: 'null', description: 'Deleted.', headers: API_HEADERS },
    400: ERRORS[400]('The id is not a UUID.'),
    404: WEBHOOK_404,
  },
  { params: WebhookEndpointParams },
);

export const RotateWebhookSecretRoute = webhookOperation(
  'rotateWebhookSecret',
  'Rotate the signing secret',
  'Makes a new secret (shown only in this answer). For 24 hours the previous one signs too: every delivery carries both signatures, so receivers can switch without missing one.',
  {
    200: jsonResponse('The endpoint and its new secret.', ref(RotatedWebhookSecret)),
    400: ERRORS[400]('The id is not a UUID.'),
    404: WEBHOOK_404,
  },
  { params: WebhookEndpointParams },
);

export const ListWebhookDeliveriesRoute = webhookOperation(
  'listWebhookDeliveries',
  'List deliveries',
  "The endpoint's deliveries, newest first, with the outcome of the last attempt and the start of its response body.",
  {
    200: jsonResponse('The deliveries.', ref(WebhookDeliveryList)),
    400: ERRORS[400]('The id or `limit` was refused.'),
    404: WEBHOOK_404,
  },
  { params: WebhookEndpointParams, querystring: DeliveryListQuery },
);

export const RetryWebhookDeliveryRoute = webhookOperation(
  'retryWebhookDelivery',
  'Retry a delivery',
  'Makes the delivery due now, whatever its status; failures then follow the retry schedule again. The `webhook-id` stays the same.',
  {
    202: jsonResponse('Queued.', ref(WebhookDelivery)),
    400: ERRORS[400]('An id is not a UUID.'),
    404: WEBHOOK_404,
  },
  { params: WebhookDeliveryParams },
);

export const TestWebhookEndpointRoute = webhookOperation(
  'testWebhookEndpoint',
  'Send a test delivery',
  'Queues a `webhook.test` delivery to the endpoint, due now, whatever types it enabled. Follow it in the delivery list.',
  {
    202: jsonResponse('Queued.', ref(WebhookDelivery)),
    400: ERRORS[400]('The id is not a UUID.'),
    404: WEBHOOK_404,
  },
  { params: WebhookEndpointParams },
);

export const OpenApiDocumentRoute = {
  operationId: 'getOpenApiDocument',
  tags: ['Reference'],
  summary: 'This document',
  description:
    'The OpenAPI 3.1 description of this API, generated from the schemas the routes declare. No API key needed. An interactive reference is served at `/docs`.',
  security: [],
  headers: CommonRequestHeaders,
  response: {
    200: {
      description: 'The OpenAPI document.',
      headers: { 'x-request-id': RESPONSE_HEADERS.requestId },
      content: {
        [JSON_MEDIA_TYPE]: {
          schema: Type.Object(
            { openapi: Type.String(), info: Type.Object({}), paths: Type.Object({}) },
            { description: 'An OpenAPI 3.1 document.' },
          ),
        },
      },
    },
  },
};
