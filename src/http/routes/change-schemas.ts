/** The change log (D17): an event's revisions, one revision, and the organization's change feed. */
import { type Static, Type } from '@sinclair/typebox';
import { CHANGE_TYPES } from '../../domain/changes.js';
import { RESPONSE_HEADERS } from '../schemas/headers.js';
import { jsonResponse, operation } from '../schemas/operation.js';
import { orNull, ref, SAFE_INTEGER, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';
import { Event, EventIdParams, StatusSchema } from './event-schemas.js';

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

export const SystemActor = Type.Object(
  { type: Type.Literal('system') },
  {
    $id: 'SystemActor',
    additionalProperties: false,
    description: 'eventplan itself, on a schedule: a reminder of a reply date (`venue_request.reminded`).',
  },
);

export const VenueActor = Type.Object(
  {
    type: Type.Literal('venue'),
    venueId: Type.String({ description: 'The venue, answering a request for proposals on its page.' }),
  },
  {
    $id: 'VenueActor',
    additionalProperties: false,
    description: 'A venue, through the link its request for proposals sent it (no account).',
  },
);

export const Actor = Type.Unsafe<
  | Static<typeof ApiKeyActor>
  | Static<typeof PersonActor>
  | Static<typeof OperatorActor>
  | Static<typeof VenueActor>
  | Static<typeof SystemActor>
>({
  $id: 'Actor',
  oneOf: [ref(ApiKeyActor), ref(PersonActor), ref(OperatorActor), ref(VenueActor), ref(SystemActor)],
  discriminator: {
    propertyName: 'type',
    mapping: {
      api_key: '#/components/schemas/ApiKeyActor',
      person: '#/components/schemas/PersonActor',
      operator: '#/components/schemas/OperatorActor',
      venue: '#/components/schemas/VenueActor',
      system: '#/components/schemas/SystemActor',
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

export const RequestChangeData = Type.Object(
  {
    requestId: Uuid('The venue request the step was made on.'),
    venueId: Uuid('Its venue.'),
    proposalRevision: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          '`proposal.submitted`: the revision submitted; `venue_request.revision_requested`: the revision the venue is asked to revise.',
      }),
    ),
    responseDueDate: Type.Optional(
      Type.String({
        format: 'date',
        description:
          '`venue_request.reminded`: the reply date the venue was reminded of; `venue_request.due_date_changed`: the new reply date.',
      }),
    ),
    previousResponseDueDate: Type.Optional(
      orNull(
        Type.String({
          format: 'date',
          description:
            '`venue_request.due_date_changed`: the reply date before the move; null for a shortlisted request that had none.',
        }),
      ),
    ),
  },
  {
    $id: 'RequestChangeData',
    additionalProperties: false,
    description: 'The step of a `venue_request.*` or `proposal.submitted` change.',
    examples: [
      { requestId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', venueId: '5a3c1b2d-7e8f-4a9b-8c0d-1e2f3a4b5c6d' },
    ],
  },
);

export const RequestRevisedData = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: 'The version of the request sent.' }),
    changedFields: Type.Array(Type.String(), {
      description: "The API's paths of what changed (`RequestChange.field`); empty for a message alone.",
    }),
  },
  {
    $id: 'RequestRevisedData',
    additionalProperties: false,
    description: 'The version of a `request.revised` change.',
    examples: [{ version: 2, changedFields: ['numPeople', 'accommodations.2027-05-12.Single'] }],
  },
);

export const QuestionChangeData = Type.Object(
  {
    questionId: Uuid('The question asked or answered.'),
    requestId: Uuid('The request of the venue that asked.'),
    venueId: Uuid('The venue that asked.'),
    sharedWith: Type.Optional(
      Type.Unsafe<'all' | 'asker'>({
        type: 'string',
        enum: ['all', 'asker'],
        description: '`question.answered`: every venue of the event (`all`), or the venue that asked alone.',
      }),
    ),
  },
  {
    $id: 'QuestionChangeData',
    additionalProperties: false,
    description: 'The question of a `question.asked` or `question.answered` change (D27).',
    examples: [
      {
        questionId: '3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f',
        requestId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        venueId: '5a3c1b2d-7e8f-4a9b-8c0d-1e2f3a4b5c6d',
        sharedWith: 'all',
      },
    ],
  },
);

/** What each type of change is, for people reading the document. */
export const CHANGE_TYPES_DESCRIPTION =
  "`event.created`, `event.updated` (through the API or the dashboard), `event.status_changed` (a status move by the dashboard, an operator or a proposal's arrival), and the steps of the event's requests for proposals (D21): `venue_request.sent`, `venue_request.turned_down`, `venue_request.awarded`, `venue_request.declined`, `venue_request.withdrawn`, `venue_request.no_response`, `venue_request.reminded` (eventplan reminded the venue of its reply date, D28), `venue_request.due_date_changed` (a planner moved the reply date, D28), `venue_request.revision_requested` (a planner asked the venue to revise its proposal, D26) and `proposal.submitted` (a proposal or a revision); `request.revised`: a version of the request sent to the venues (D26); `question.asked` (a venue asked on its page) and `question.answered` (a planner answered it), D27.";

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
    description: CHANGE_TYPES_DESCRIPTION,
  }),
  occurredAt: Timestamp(
    "When the change was made: the `updatedAt` of the event it produced; for a request's step, which leaves the event as it is, when the step was made.",
  ),
  actor: ref(Actor),
  changedFields: Type.Array(Type.String(), {
    description:
      "The top-level fields whose value changed (`updatedAt`, which every change moves, is left out). On a create, every field the new event has; empty for a request's step.",
  }),
  diff: Type.Array(ref(PatchOperation), {
    description:
      "RFC 6902 operations from the details before the change to the details after it; empty for a request's step.",
  }),
  data: Type.Optional(
    Type.Unsafe({
      oneOf: [
        ref(StatusChangeData),
        ref(RequestChangeData),
        ref(RequestRevisedData),
        ref(QuestionChangeData),
      ],
      description:
        "`event.status_changed`: the move; a request's step: the request, its venue and the proposal revision; `request.revised`: the version sent and what it changed; `question.asked` and `question.answered`: the question, its request and venue, and who sees the answer.",
    }),
  ),
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
    "One committed change of an event. `data` is present on `event.status_changed` and on a request's step. An event created before the change log existed has revisions from its next change on.",
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

const pageHeaders = { Link: RESPONSE_HEADERS.link };

export const ListRevisionsRoute = operation({
  operationId: 'listEventRevisions',
  tag: 'Changes',
  summary: "List an event's revisions",
  description:
    'Every committed change of the event, newest first, cursor-paged: `{ data, hasMore, nextCursor }` and, while there is more, a `Link: <…>; rel="next"` header. Nothing is recorded for a PATCH that changes nothing or for a refused one. An event created before the change log existed has revisions from its next change on.',
  params: EventIdParams,
  querystring: RevisionsQuery,
  responses: {
    200: jsonResponse('A page of revisions, newest first.', ref(RevisionPage), pageHeaders),
    400: ERRORS[400](
      'The id is not a UUID (`id`), `limit` is out of range, `after` is not a cursor of this list (`query.after`), or a parameter is unknown.',
    ),
    404: ERRORS[404],
  },
});

export const GetRevisionRoute = operation({
  operationId: 'getEventRevision',
  tag: 'Changes',
  summary: 'Read one revision',
  description:
    'The change that made this revision, plus `snapshot`: the full details view as it was right after it. Takes no query parameters.',
  params: RevisionParams,
  responses: {
    200: jsonResponse('The revision.', ref(Revision)),
    400: ERRORS[400](
      'The id is not a UUID (`id`), the revision is not a whole number >= 1 (`revision`), or a query parameter was sent.',
    ),
    404: problemResponse(
      'No event with this id in your organization, or the event has no such revision.',
      problemOf(404, ['not_found']),
    ),
  },
});

export const ListChangesRoute = operation({
  operationId: 'listChanges',
  tag: 'Changes',
  summary: 'Read the change feed',
  description:
    'Every committed change of the organization\'s events, oldest first, in `sequence` order, which is commit order: a reader paging along never skips a change committed late. Start without `after`; pass each page\'s `nextCursor` as `after`. `nextCursor` is present on every page, the last one included, so a reader at the end polls with it and receives each later change once. While `hasMore` is true a `Link: <…>; rel="next"` header points at the next page.',
  querystring: ChangesQuery,
  responses: {
    200: jsonResponse('A page of changes, oldest first.', ref(ChangePage), pageHeaders),
    400: ERRORS[400](
      '`limit` is out of range, `after` is not a cursor of this feed (`query.after`), or a parameter is unknown.',
    ),
  },
});
