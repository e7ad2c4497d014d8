/**
 * The agenda (D7): a session as the API shows it, the operations that edit the agenda, and the 409 of a
 * change to the meeting-room dates that would strand sessions.
 */
import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '../../domain/types.js';
import { Count, Day, FreeText, NonEmptyText, orNull, ref, TextList, Time, Uuid } from '../schemas/parts.js';
import { problemFields } from '../schemas/problems.js';

/** The session shown in the document's examples (the agenda item and the event's agenda). */
export const EXAMPLE_SESSION = {
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
    // Not marked readOnly: an update may send the agenda back as read (D6), and OpenAPI tools refuse a
    // readOnly property in a request. The event's `agenda` as a whole is read-only in responses.
    id: Uuid('Stable session id, assigned by the service (read-only); address the session by it.'),
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

export const OrphanedSession = Type.Object(
  {
    sessionId: Uuid('The session.'),
    title: Type.String({ description: 'Its title.' }),
    droppedDates: Type.Array(Day(), { description: 'Its days no longer inside `meetingRoomDates`.' }),
    fullyOrphaned: Type.Boolean({ description: 'None of its days is covered any more.' }),
  },
  { $id: 'OrphanedSession', additionalProperties: false, description: 'A session the change would strand.' },
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
