/**
 * Events: the full details view, the list, the create and update bodies, and their operations. Event
 * bodies are documented here but checked by the domain, after the 404 and 409 checks (D5);
 * test/openapi/body-schemas.test.ts keeps the two in agreement.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import {
  EVENT_FIELDS,
  type EventField,
  type EventFieldDescription,
  FIELD_NAMES,
  isWritableField,
  WRITABLE_FIELDS,
  type WritableField,
} from '../../domain/event-field-table.js';
import { LIMITS, STATUSES } from '../../domain/types.js';
import { API_HEADERS, ENTITY_TAGS_PATTERN, RESPONSE_HEADERS, requestIdHeader } from '../schemas/headers.js';
import { JSON_MEDIA_TYPE, jsonResponse, operation } from '../schemas/operation.js';
import { Count, NonEmptyText, orNull, readOnly, ref, TextList, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';
import {
  AgendaItem,
  AgendaOperation,
  AgendaSessionsOrphanedProblem,
  EXAMPLE_SESSION,
  NewSession,
} from './agenda-schemas.js';
import {
  Accommodations,
  AccommodationsPatch,
  BudgetBreakdown,
  BudgetBreakdownPatch,
  DateRange,
  FormattedLocation,
  FormattedLocationInput,
  MeetingRoomDates,
} from './event-part-schemas.js';

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

export const EventIdParams = Type.Object({
  id: Type.String({
    format: 'uuid',
    description: "The event's id, a UUID. A malformed id is a 400 naming `id`.",
    examples: ['0b7f3c52-56b4-4d0a-9d64-4cf1f3a6f0c1'],
  }),
});

const CURRENCY_PATTERN = '^[A-Z]{3}$';
const Deadline = (description: string) =>
  Type.Unsafe<string>({
    anyOf: [
      { type: 'string', format: 'date' },
      { type: 'string', format: 'date-time', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt]' },
    ],
    description,
    examples: ['2027-01-15T17:00:00Z'],
  });

const Status = (description: string) =>
  Type.Unsafe<(typeof STATUSES)[number]>({ type: 'string', enum: [...STATUSES], description });
export const StatusSchema = Status(EVENT_FIELDS.status.description);
const Currency = (description: string) => Type.String({ pattern: CURRENCY_PATTERN, description });

/** A field of the full details view, from its description in the domain's table of fields. */
function shown(name: EventField): TSchema {
  const field: EventFieldDescription = EVENT_FIELDS[name];
  const schema = valueSchema(field);
  if (field.access !== 'writable') return readOnly(schema);
  return field.whenNull === 'null' ? orNull(schema) : schema;
}

function valueSchema(field: EventFieldDescription): TSchema {
  const { description } = field;
  switch (field.kind) {
    case 'text':
      if (field.notBlank) return NonEmptyText(description, field.maxLength);
      return Type.String({
        ...(field.maxLength === undefined ? {} : { maxLength: field.maxLength }),
        description,
      });
    case 'count':
      return Count(description);
    case 'deadline':
      return Deadline(description);
    case 'textList':
      return TextList(field.maxItems!, description);
    case 'locations':
      return Type.Array(ref(FormattedLocation), { maxItems: field.maxItems!, description });
    case 'dateRanges':
      return field.access === 'writable'
        ? MeetingRoomDates(description)
        : Type.Array(ref(DateRange), { description });
    case 'budget':
      return ref(BudgetBreakdown);
    case 'accommodations':
      return ref(Accommodations);
    case 'sessions':
      return Type.Array(ref(AgendaItem), { description });
    case 'uuid':
      return Uuid(description);
    case 'status':
      return Status(description);
    case 'currency':
      return Currency(description);
    case 'timestamp':
      return Timestamp(description);
  }
}

/**
 * A writable field as a merge patch takes it (D6): omitted leaves it as it is, `null` clears it (but for
 * a field that cannot be cleared); objects merge key by key, arrays are replaced whole.
 */
function patched(name: WritableField) {
  const field: EventFieldDescription = EVENT_FIELDS[name];
  const schema =
    field.kind === 'locations'
      ? Type.Array(ref(FormattedLocationInput), {
          maxItems: field.maxItems!,
          description: `${withoutFullStop(field.description)}; at most ${field.maxItems}. Replaced whole.`,
        })
      : field.kind === 'budget'
        ? ref(BudgetBreakdownPatch)
        : field.kind === 'accommodations'
          ? ref(AccommodationsPatch)
          : valueSchema(field);
  if (field.whenNull === 'refused') return Type.Optional(schema);
  const clearsToZero = field.whenNull === 'empty' && field.kind === 'count';
  return Type.Optional(
    orNull(
      schema,
      clearsToZero ? { description: `${withoutFullStop(field.description)}; \`null\` sets 0.` } : {},
    ),
  );
}

const withoutFullStop = (text: string) => text.replace(/\.$/, '');

const writableFields = Object.fromEntries(WRITABLE_FIELDS.map((name) => [name, patched(name)]));

/**
 * A read-only field in an update body (D6): sent back as read it is ignored, so a GET body is a valid
 * update. Described rather than marked `readOnly`: OpenAPI tools take `readOnly` as "not part of a
 * request" and would refuse a body the service accepts.
 */
function sentBack(name: EventField): TSchema {
  const field: EventFieldDescription = EVENT_FIELDS[name];
  const hint =
    field.access === 'agenda-operations'
      ? 'use `agendaOperations` to change it'
      : field.access === 'derived'
        ? 'it is derived from the other fields'
        : 'it cannot be changed';
  return valueSchema({
    ...field,
    description: `${field.description} Read-only: sent back unchanged it is ignored; a different value is a 400 \`read_only\` (${hint}).`,
  });
}

const readOnlyFields = Object.fromEntries(
  FIELD_NAMES.filter((name) => !isWritableField(name)).map((name) => [name, sentBack(name)]),
);

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

export const Event = Type.Object(Object.fromEntries(FIELD_NAMES.map((name) => [name, shown(name)])), {
  $id: 'Event',
  additionalProperties: false,
  description:
    'The full details view, returned by GET and PATCH. Its fields use the names of the update request, so it can be read, changed and sent back.',
  examples: [eventExample],
});

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

/** The fields a create refuses: `eventDates`, though derived, is taken as the initial `meetingRoomDates`. */
const setByService = FIELD_NAMES.filter((name) => {
  const { access } = EVENT_FIELDS[name];
  return name !== 'eventDates' && (access === 'service' || access === 'derived');
})
  .map((name) => `\`${name}\``)
  .join(', ');

export const CreateEventRequest = Type.Object(
  {
    ...writableFields,
    name: valueSchema(EVENT_FIELDS.name),
    currency: Type.Optional(
      orNull(Currency(EVENT_FIELDS.currency.description), {
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
    description: `\`name\` is required; every writable field of the update may be set, plus \`currency\` and \`agenda\`. Unknown fields, and the fields the service sets (${setByService}), are a 400.`,
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
      Object.entries(readOnlyFields).map(([key, schema]) => [key, Type.Optional(schema)]),
    ),
    event_dates: Type.Optional(sentBack('eventDates')),
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

/** An Idempotency-Key: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,255}$';

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

export const ListEventsRoute = operation({
  operationId: 'listEvents',
  tag: 'Events',
  summary: 'List events',
  description:
    "The organization's events, newest first (by `createdAt`, then `id`), cancelled ones included. `page` >= 1 (default 1), `limit` 1 to 100 (default 20); anything else, or an unknown parameter, is a 400 naming `query.<name>`. Filters: `status` (comma-separated) and `updatedAfter`; `total` counts the events matching them.",
  querystring: ListQuery,
  responses: {
    200: jsonResponse('A page of events.', ref(EventList)),
    400: ERRORS[400]('A query parameter is malformed, out of range or unknown.'),
  },
});

export const CreateEventRoute = operation({
  operationId: 'createEvent',
  tag: 'Events',
  summary: 'Create an event',
  description:
    "Creates an event in the `draft` status, owned by the key's user and granted to that user and the user's approvers. `eventDates` becomes the initial `meetingRoomDates`. Check `grantedTo`: `0` is not an error. Send an `Idempotency-Key` to retry safely. Takes no query parameters: any is a 400 naming `query.<name>`, checked before the body.",
  headers: CreateEventHeaders,
  responses: {
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
  },
});

export const GetEventRoute = operation({
  operationId: 'getEvent',
  tag: 'Events',
  summary: 'Read an event',
  description:
    'The full details view, with its `ETag`. Send the ETag back in `If-None-Match` to get a bodiless `304` while the event is unchanged, or in `If-Match` on a PATCH to update only what you read. Takes no query parameters: any is a 400 naming `query.<name>`.',
  params: EventIdParams,
  headers: GetEventHeaders,
  responses: {
    200: jsonResponse('The event.', ref(Event), { ETag: RESPONSE_HEADERS.etag }),
    304: {
      type: 'null',
      description: 'Not modified: the event still has an ETag listed in `If-None-Match`. No body.',
      headers: { ...API_HEADERS, ETag: RESPONSE_HEADERS.etag },
    },
    400: ERRORS[400](
      'The id is not a UUID (`id`), a query parameter was sent (none is accepted: `query.<name>`), or a header is malformed.',
    ),
    404: ERRORS[404],
  },
});

export const UpdateEventRoute = operation({
  operationId: 'updateEvent',
  tag: 'Events',
  summary: 'Update an event',
  description:
    'A JSON Merge Patch over the writable fields, plus `agendaOperations`. Takes no query parameters. Checks run in this order: key (401), rate limit (429), id format and query parameters (one 400 naming `id` and every `query.<name>`), body is a JSON object (400/413/415), a malformed `If-Match` (400, reported on its own), event exists (404), not cancelled (409), `If-Match` (412), every field and agenda problem at once (400), stranded sessions (409). Only then is it written. The response is the whole event with its new `ETag`.',
  consumes: [JSON_MEDIA_TYPE, 'application/merge-patch+json'],
  params: EventIdParams,
  headers: UpdateEventHeaders,
  responses: {
    200: jsonResponse(
      'Updated (or unchanged, when the patch changes nothing): the whole event.',
      ref(Event),
      {
        ETag: RESPONSE_HEADERS.etag,
      },
    ),
    400: ERRORS[400]('The id, a query parameter (none is accepted), the body or a header was refused.'),
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
  },
});
