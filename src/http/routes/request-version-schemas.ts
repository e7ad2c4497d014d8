/**
 * The request as sent (D26): versions of what venues read, the changes not yet sent, and sending
 * them. Bodies are checked by the domain, after the event and its state (D5's order).
 */
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../../domain/types.js';
import { jsonResponse, operation } from '../schemas/operation.js';
import { Count, FreeText, orNull, ref, Time, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';
import { Actor } from './change-schemas.js';
import { Accommodations, DateRange } from './event-part-schemas.js';
import { EventIdParams } from './event-schemas.js';

export const RequestChange = Type.Object(
  {
    field: Type.String({
      description:
        "The API's path of what changed: a field (`numPeople`, `formattedLocations`), a room cell (`accommodations.2027-05-12.Single`) or a session (`agenda[<sessionId>]`).",
    }),
    label: Type.String({ description: 'The same in words, as the History names it.' }),
    before: Type.Unsafe<unknown>({
      description:
        "The value as venues read it before: a field's value, a room count, a session (`{ id, title, dates, startTime, endTime, roomType, capacity, … }`); null where there was none.",
    }),
    after: Type.Unsafe<unknown>({ description: 'The value venues read after; null where there is none.' }),
  },
  {
    $id: 'RequestChange',
    additionalProperties: false,
    description: 'One change of what venues read (D22), between two versions of the request.',
    examples: [{ field: 'numPeople', label: 'Attendees', before: 120, after: 140 }],
  },
);

export const RequestVersion = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: '1 for the first send, then 2, 3, … without gaps.' }),
    sentAt: Timestamp('When it was sent to the venues.'),
    sentBy: ref(Actor),
    message: orNull(FreeText('The message sent with it; null without one.')),
    changes: Type.Array(ref(RequestChange), {
      description: 'What changed from the version before; empty for version 1 and for a message alone.',
    }),
  },
  {
    $id: 'RequestVersion',
    additionalProperties: false,
    description: 'A version of the request as venues read it (D26).',
  },
);

const VenueSession = Type.Object(
  {
    id: Uuid("The session's id."),
    title: Type.String(),
    dates: Type.Array(Type.String({ format: 'date' })),
    startTime: Time('Start, `HH:MM`.'),
    endTime: Time('End, `HH:MM`.'),
    roomType: Type.String(),
    capacity: Count('Expected attendees.'),
    avRequirements: Type.Array(Type.String()),
    fbRequirements: Type.Array(Type.String()),
    avOtherText: Type.String(),
    fbOtherText: Type.String(),
  },
  { additionalProperties: false, description: 'A session as venues read it: never its notes.' },
);

export const RequestSnapshot = Type.Object(
  {
    name: Type.String(),
    currency: Type.String(),
    eventDates: Type.Array(ref(DateRange)),
    cities: Type.Array(Type.String(), { description: 'The candidate cities, as formatted.' }),
    numPeople: Count('Attendees.'),
    flexibility: orNull(Type.String()),
    accommodations: ref(Accommodations),
    meetingRoomDates: Type.Array(ref(DateRange)),
    numMeetingRoomsNeeded: orNull(Count('Meeting rooms needed.')),
    meetingRooms: orNull(Type.String()),
    agenda: Type.Array(VenueSession),
    foodBeverageRequirements: orNull(Type.String()),
    additionalServices: Type.Array(Type.String()),
    decisionFactors: Type.Array(Type.String()),
    decisionFactorOtherText: orNull(Type.String()),
    decisionDeadline: orNull(Type.String()),
    notesForVenue: orNull(Type.String()),
  },
  {
    $id: 'RequestSnapshot',
    additionalProperties: false,
    description:
      "The request as its venues read it (D22): never the budget, `otherNotes`, the approvers or a session's notes.",
  },
);

export const RequestVersionWithRequest = Type.Object(
  { ...RequestVersion.properties, request: ref(RequestSnapshot) },
  {
    $id: 'RequestVersionWithRequest',
    additionalProperties: false,
    description: 'A version with the request as venues read it then.',
  },
);

export const RequestVersionList = Type.Object(
  {
    data: Type.Array(ref(RequestVersion), { description: 'Newest first; empty before the first send.' }),
    pending: orNull(
      Type.Object(
        { changes: Type.Array(ref(RequestChange)) },
        { additionalProperties: false, description: 'What venues would read differently once sent.' },
      ),
      {
        description:
          'The changes not yet sent to venues: what D22 lists, against the latest version. Null when there are none (changes to the budget, `otherNotes` or the approvers are never pending).',
      },
    ),
  },
  {
    $id: 'RequestVersionList',
    additionalProperties: false,
    description: "The versions of the event's request and the changes not yet sent.",
  },
);

export const SendRequestVersion = Type.Object(
  {
    message: Type.Optional(
      orNull(
        Type.String({
          maxLength: LIMITS.freeText,
          description: 'Told to every venue with the changes, as plain text (markup is shown as typed).',
        }),
      ),
    ),
  },
  {
    $id: 'SendRequestVersion',
    additionalProperties: false,
    description: 'An optional message; send no body, or `{}`, without one.',
    examples: [{ message: 'We now expect 140 guests; please update your room offer.' }],
  },
);

export const RequestVersionParams = Type.Object({
  id: EventIdParams.properties.id,
  version: Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    description:
      "The version's number, from 1. Plain decimal digits; anything else is a 400 naming `version`.",
    examples: [1],
  }),
});

export const ListRequestVersionsRoute = operation({
  operationId: 'listRequestVersions',
  tag: 'Venue requests',
  summary: 'List the versions of the request as sent',
  description:
    'Every version venues were sent, newest first (version 1 is taken when the requests are first sent), and `pending`: the changes of what venues read (D22) not yet sent.',
  params: EventIdParams,
  responses: {
    200: jsonResponse('The versions.', ref(RequestVersionList)),
    400: ERRORS[400]('The id is not a UUID, or a query parameter was sent.'),
    404: ERRORS[404],
  },
});

export const GetRequestVersionRoute = operation({
  operationId: 'getRequestVersion',
  tag: 'Venue requests',
  summary: 'Read one version of the request',
  description: 'One version, plus `request`: what venues read in it.',
  params: RequestVersionParams,
  responses: {
    200: jsonResponse('The version.', ref(RequestVersionWithRequest)),
    400: ERRORS[400](
      'The id is not a UUID (`id`), the version is not a whole number >= 1 (`version`), or a query parameter was sent.',
    ),
    404: problemResponse(
      'No event with this id in your organization, or the event has no such version.',
      problemOf(404, ['not_found']),
    ),
  },
});

export const SendRequestVersionRoute = operation({
  operationId: 'sendRequestVersion',
  tag: 'Venue requests',
  summary: 'Send the changes to the venues',
  description:
    'Sends the pending changes as the next version, with an optional `message` (at most 1,000 characters); with nothing pending, a message alone is sent as a version without changes. Every open request (`sent`, `viewed`, `proposed`) gets a mail, in the same transaction: "Updated request: {event name}", each change before → after, the message and a new link to its page (earlier links keep working). One `request.revised` change record. A second click is refused: `409 nothing_to_send` (the changes, or the same message, were just sent). Checks: the event (404), its status (409), the body (400), something to send (409).',
  params: EventIdParams,
  responses: {
    201: jsonResponse('Sent.', ref(RequestVersion)),
    400: ERRORS[400]('The id or the body was refused (`message` longer than 1,000 characters, or not text).'),
    404: ERRORS[404],
    409: problemResponse(
      'The event is not asking venues (`event_not_asking_venues`: only while `wait_for_proposals` or `proposals_received`), or there is nothing to send (`nothing_to_send`). Nothing was written.',
      problemOf(409, ['event_not_asking_venues', 'nothing_to_send']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});
