/**
 * Requests for proposals (D21), proposals (D23), awards and declines (D24): their schemas and
 * operations. Proposals' fields come from the domain's table (`PROPOSAL_FIELDS`); bodies are checked by
 * the domain, after the event, the request and its state (D5's order).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { CANCELLATION_LIMITS } from '../../domain/cancellation-ladder.js';
import { PROPOSAL_FIELDS } from '../../domain/proposal.js';
import { BUDGET_LINE_PARTS, TOTAL_PARTS, TOTALS_LABELS } from '../../domain/proposal-figures.js';
import { LIMITS, ROOM_TYPES } from '../../domain/types.js';
import {
  DECLINE_REASON_LABELS,
  DECLINE_REASONS,
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  TURN_DOWN_REASON_LABELS,
  TURN_DOWN_REASONS,
} from '../../domain/venue-request.js';
import { MAX_REQUESTS_PER_EVENT } from '../../domain/venue-request-steps.js';
import { createProperties, type KindSchemas, readProperties } from '../schemas/field-table.js';
import { API_HEADERS, RESPONSE_HEADERS } from '../schemas/headers.js';
import { JSON_MEDIA_TYPE, jsonResponse, operation } from '../schemas/operation.js';
import { Count, Day, FreeText, orNull, ref, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';
import { DateRange } from './event-part-schemas.js';
import { EventIdParams } from './event-schemas.js';

const codeList = (codes: readonly string[], labels: Record<string, string>) =>
  codes.map((code) => `\`${code}\` (${labels[code]!.toLowerCase()})`).join(', ');

const money = (description: string) => Type.Number({ minimum: 0, description });

export const RoomRate = Type.Object(
  {
    count: Count('Rooms of this type offered for the night.'),
    rate: money("Price per room for the night, in the proposal's currency (at most two decimals)."),
  },
  {
    $id: 'RoomRate',
    additionalProperties: false,
    description: 'Rooms offered of one type on one night, and their rate.',
    examples: [{ count: 40, rate: 165 }],
  },
);

export const NightRates = Type.Object(
  Object.fromEntries(ROOM_TYPES.map((roomType) => [roomType, Type.Optional(ref(RoomRate))])),
  {
    $id: 'NightRates',
    additionalProperties: false,
    description: `Rooms offered on one night, by room type (${ROOM_TYPES.join(', ')}).`,
  },
);

export const RoomRates = Type.Unsafe<Record<string, Record<string, { count: number; rate: number }>>>({
  $id: 'RoomRates',
  type: 'object',
  propertyNames: { format: 'date' },
  additionalProperties: ref(NightRates),
  maxProperties: LIMITS.accommodationNights,
  description: `Rooms offered per night (\`YYYY-MM-DD\`, inside \`offeredDates\`) and room type, at most ${LIMITS.accommodationNights} nights; nights in date order.`,
  examples: [
    {
      '2027-05-12': { Single: { count: 40, rate: 165 } },
      '2027-05-13': { Single: { count: 38, rate: 165 } },
    },
  ],
});

/** Rooms as sent: a night or a room type sent as `null` is not offered. */
export const RoomRatesInput = Type.Unsafe<
  Record<string, Record<string, { count: number; rate: number } | null> | null>
>({
  $id: 'RoomRatesInput',
  type: 'object',
  propertyNames: { format: 'date' },
  additionalProperties: orNull(
    Type.Object(
      Object.fromEntries(ROOM_TYPES.map((roomType) => [roomType, Type.Optional(orNull(ref(RoomRate)))])),
      { additionalProperties: false },
    ),
  ),
  maxProperties: LIMITS.accommodationNights,
  description: `Rooms offered per night (\`YYYY-MM-DD\`, inside \`offeredDates\`) and room type; every cell needs \`count\` and \`rate\`; a night or a cell sent as \`null\` is not offered. At most ${LIMITS.accommodationNights} nights.`,
  examples: [{ '2027-05-12': { Single: { count: 40, rate: 165 } } }],
});

export const CancellationStep = Type.Object(
  {
    daysBefore: Type.Integer({
      minimum: 0,
      maximum: CANCELLATION_LIMITS.daysBefore,
      description: 'Applies when the event is cancelled fewer than this many days before its first day.',
    }),
    percent: Type.Number({ minimum: 0, maximum: 100, description: 'Share of the total charged, 0 to 100.' }),
  },
  {
    $id: 'CancellationStep',
    additionalProperties: false,
    description: 'One step of the cancellation terms.',
    examples: [{ daysBefore: 30, percent: 50 }],
  },
);

const KIND_SCHEMAS: KindSchemas = {
  dateRange: ref(DateRange),
  roomRates: ref(RoomRates),
  cancellationLadder: Type.Array(ref(CancellationStep), {
    maxItems: CANCELLATION_LIMITS.steps,
    description: `Cancellation terms, furthest step first; at most ${CANCELLATION_LIMITS.steps} steps, one per \`daysBefore\`, a nearer step never charging less.`,
  }),
};

const amount = (description: string) =>
  Type.Number({ description: `${description} In the proposal's currency, rounded to the cent.` });

export const ProposalTotals = Type.Object(
  Object.fromEntries(
    [...TOTAL_PARTS, 'total' as const].map((part) => [part, amount(`${TOTALS_LABELS[part]}.`)]),
  ),
  {
    $id: 'ProposalTotals',
    additionalProperties: false,
    description:
      '`rooms` (Σ count × rate), `roomTax` (rooms × roomTaxPercent), `meetingRooms`, `foodBeverage` (minimum × (1 + serviceChargePercent)), `av`, `other`, and `total`, exactly their sum.',
  },
);

export const ProposalCoverage = Type.Object(
  {
    requestedRoomNights: Count('Σ of the rooms the event asks for, per night and type.'),
    offeredRoomNights: Count('Σ of the rooms offered, on any night and of any type.'),
    coveredRoomNights: Count('Σ per night and type of min(requested, offered).'),
    percent: orNull(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description: 'covered ÷ requested × 100, one decimal; null when the event asks for no rooms.',
      }),
    ),
    shortfall: Type.Unsafe<Record<string, Record<string, number>>>({
      type: 'object',
      propertyNames: { format: 'date' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: [...ROOM_TYPES] },
        additionalProperties: { type: 'integer', minimum: 1 },
      },
      description: 'Rooms still missing per night and room type.',
    }),
  },
  {
    $id: 'ProposalCoverage',
    additionalProperties: false,
    description: "How much of the event's room block the proposal covers, night by night and type by type.",
  },
);

export const BudgetComparison = Type.Object(
  {
    budgeted: money("The event's budget line."),
    proposed: money('What the proposal charges against it.'),
  },
  {
    $id: 'BudgetComparison',
    additionalProperties: false,
    description: 'One budget line against the proposal.',
  },
);

export const ProposalBudget = Type.Object(
  Object.fromEntries(
    Object.entries(BUDGET_LINE_PARTS).map(([line, parts]) => [
      line,
      Type.Optional({ ...ref(BudgetComparison), description: `\`${line}\` against ${parts.join(' + ')}.` }),
    ]),
  ),
  {
    $id: 'ProposalBudget',
    additionalProperties: false,
    description:
      "The event's budget lines it has (`venue` ↔ rooms + roomTax + meetingRooms, `fb` ↔ foodBeverage, `av`, `other`) against the proposal.",
  },
);

const PROPOSAL_READ_ONLY: Record<string, TSchema> = {
  id: Uuid('The revision id.'),
  requestId: Uuid('The request it answers.'),
  revision: Type.Integer({
    minimum: 1,
    description: 'The revision: 1 for the first submission, then 2, 3, …',
  }),
  submittedAt: Timestamp('When it was submitted.'),
  submittedBy: Type.Unsafe<'venue' | 'planner'>({
    type: 'string',
    enum: ['venue', 'planner'],
    description:
      '`venue` (on its page) or `planner` (entered on its behalf through the API or the dashboard).',
  }),
  requestVersion: Type.Integer({
    minimum: 1,
    description:
      'The version of the request the proposal answers (`GET …/request-versions/{n}`). One older than the latest is marked in the Proposals tab, where the planner may ask the venue for a revision.',
  }),
  late: Type.Boolean({
    description: 'Submitted after the reply date then in force had ended everywhere on Earth (D28).',
  }),
  totals: ref(ProposalTotals),
  coverage: ref(ProposalCoverage),
  budget: orNull(ref(ProposalBudget), {
    description: "Against the event's budget; null when the proposal's currency is not the event's.",
  }),
  attritionExposureAt80: orNull(
    Type.Number({
      minimum: 0,
      description:
        'What the venue may charge if only 80% of the offered rooms are used: rooms × max(0, 0.2 − attritionPercent / 100); null without an attrition percent.',
    }),
  ),
};

const EXAMPLE_PROPOSAL = {
  id: '8b7a6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
  requestId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  revision: 1,
  submittedAt: '2027-02-01T10:00:00.000Z',
  submittedBy: 'venue',
  requestVersion: 1,
  late: false,
  validUntil: '2027-03-01',
  currency: 'EUR',
  offeredDates: { startDate: '2027-05-12', endDate: '2027-05-14' },
  holdOption: 'first',
  rooms: { '2027-05-12': { Single: { count: 40, rate: 165 } } },
  meetingRoomRental: 2400,
  foodBeverageMinimum: 6000,
  avEstimate: null,
  otherCharges: null,
  roomTaxPercent: 6,
  serviceChargePercent: 10,
  attritionPercent: 10,
  depositPercent: 30,
  commissionPercent: 10,
  cutoffDate: '2027-04-12',
  cancellation: [
    { daysBefore: 60, percent: 25 },
    { daysBefore: 30, percent: 50 },
  ],
  notes: 'Sea-view rooms on request.',
  totals: {
    rooms: 6600,
    roomTax: 396,
    meetingRooms: 2400,
    foodBeverage: 6600,
    av: 0,
    other: 0,
    total: 15996,
  },
  coverage: {
    requestedRoomNights: 40,
    offeredRoomNights: 40,
    coveredRoomNights: 40,
    percent: 100,
    shortfall: {},
  },
  budget: { venue: { budgeted: 10000, proposed: 9396 }, fb: { budgeted: 5000, proposed: 6600 } },
  attritionExposureAt80: 660,
};

export const Proposal = Type.Object(readProperties(PROPOSAL_FIELDS, PROPOSAL_READ_ONLY, KIND_SCHEMAS), {
  $id: 'Proposal',
  additionalProperties: false,
  description:
    "One revision of a venue's proposal, with `totals`, `coverage`, `budget` and `attritionExposureAt80` computed on every read against the event as it is now.",
  examples: [EXAMPLE_PROPOSAL],
});

export const ProposalList = Type.Object(
  { data: Type.Array(ref(Proposal), { description: 'Every revision, newest first.' }) },
  { $id: 'ProposalList', additionalProperties: false, description: "The request's proposal revisions." },
);

export const SubmitProposalRequest = Type.Object(
  {
    ...createProperties(PROPOSAL_FIELDS, KIND_SCHEMAS, { rooms: ref(RoomRatesInput) }),
    requestVersion: Type.Optional(
      orNull(
        Type.Integer({
          minimum: 1,
          description:
            'The version of the request the venue answered, from 1 to the latest; the latest when not given.',
        }),
      ),
    ),
  },
  {
    $id: 'SubmitProposalRequest',
    additionalProperties: false,
    description:
      "A proposal received from the venue (by phone, mail or PDF), entered on its behalf: `validUntil` is required; `currency` defaults to the event's, `offeredDates` to the event's first to last day, `holdOption` to `none`. It must price something: rooms, a meeting-room rental or a food and beverage minimum. Each submission is a new revision.",
    examples: [
      {
        validUntil: '2027-03-01',
        holdOption: 'first',
        rooms: { '2027-05-12': { Single: { count: 40, rate: 165 } } },
        meetingRoomRental: 2400,
        roomTaxPercent: 6,
        attritionPercent: 10,
        cancellation: [{ daysBefore: 30, percent: 50 }],
      },
    ],
  },
);

const Reasoned = (id: string, reasons: readonly string[], labels: Record<string, string>, what: string) =>
  Type.Object(
    {
      reason: Type.Unsafe<string>({
        type: 'string',
        enum: [...reasons],
        description: `${what}: ${codeList(reasons, labels)}.`,
      }),
      comment: orNull(FreeText('Given with the reason; required for `other`.')),
    },
    { $id: id, additionalProperties: false, description: `${what}, with a comment.` },
  );

export const TurnDown = Reasoned(
  'TurnDown',
  TURN_DOWN_REASONS,
  TURN_DOWN_REASON_LABELS,
  'Why the venue declined to bid',
);

export const Decision = Type.Object(
  {
    reason: orNull(
      Type.Unsafe<string>({
        type: 'string',
        enum: [...DECLINE_REASONS],
        description: `Why the proposal was declined: ${codeList(DECLINE_REASONS, DECLINE_REASON_LABELS)}.`,
      }),
      { description: 'Null for an award.' },
    ),
    comment: orNull(FreeText('The comment given with the decision.')),
  },
  {
    $id: 'Decision',
    additionalProperties: false,
    description: "The planner's decision: an award (no reason) or a decline (a reason).",
  },
);

export const VenueRequestStatus = Type.Unsafe<(typeof REQUEST_STATUSES)[number]>({
  $id: 'VenueRequestStatus',
  type: 'string',
  enum: [...REQUEST_STATUSES],
  description: `${codeList(REQUEST_STATUSES, REQUEST_STATUS_LABELS)}. \`shortlisted\` is on the shortlist (nothing sent); \`sent\`, \`viewed\` and \`proposed\` are open; the others are closed.`,
});

export const VenueRequest = Type.Object(
  {
    id: Uuid('The request id.'),
    eventId: Uuid('The event.'),
    venue: Type.Object(
      {
        id: Uuid('The venue.'),
        name: Type.String({ description: "The venue's name, as the directory has it now." }),
        email: Type.String({ description: 'Where its mails go.' }),
        city: Type.String({ description: "The venue's city." }),
      },
      { additionalProperties: false, description: 'The venue asked.' },
    ),
    status: ref(VenueRequestStatus),
    responseDueDate: orNull(
      Day(
        "The date the venue should answer by: the one given, else the date of the event's decision deadline, else 14 days after sending. Null on the shortlist until one is given.",
      ),
    ),
    sentAt: orNull(Timestamp('When the request was sent to the venue.')),
    viewedAt: orNull(Timestamp('When the venue first opened its link.')),
    respondedAt: orNull(Timestamp("The venue's first answer: its first proposal or its turn-down.")),
    turnDown: orNull(ref(TurnDown)),
    decision: orNull(ref(Decision)),
    remindedAt: orNull(
      Timestamp(
        'When the venue was reminded of its reply date (`RFP_REMINDER_DAYS` before it); null until then, and again once the date moves.',
      ),
    ),
    overdue: Type.Boolean({
      description:
        'True while the request waits for the venue (`sent` or `viewed`) after its reply date has ended everywhere on Earth (UTC−12).',
    }),
    proposal: orNull(ref(Proposal), { description: 'The latest proposal, or null.' }),
    createdAt: Timestamp('When the venue was added to the event.'),
    updatedAt: Timestamp(
      'When the request last changed by someone: a planner, the venue, or a move of the event. A reminder leaves it as it is.',
    ),
  },
  {
    $id: 'VenueRequest',
    additionalProperties: false,
    description: 'A request for proposals to one venue for one event, with its latest proposal.',
  },
);

export const VenueRequestList = Type.Object(
  { data: Type.Array(ref(VenueRequest), { description: 'Oldest first.' }) },
  {
    $id: 'VenueRequestList',
    additionalProperties: false,
    description: "The event's requests for proposals.",
  },
);

export const NewVenueRequest = Type.Object(
  {
    venueId: Uuid('A venue of your organization, not archived.'),
    responseDueDate: Type.Optional(
      orNull(
        Day(
          "When the venue should answer by; not a day that has ended everywhere on Earth. Default: the date of the event's decision deadline, else 14 days after sending.",
        ),
      ),
    ),
  },
  {
    $id: 'NewVenueRequest',
    additionalProperties: false,
    description: 'A venue to ask for a proposal.',
    examples: [{ venueId: '5a3c1b2d-7e8f-4a9b-8c0d-1e2f3a4b5c6d', responseDueDate: '2027-02-15' }],
  },
);

export const MoveReplyDate = Type.Object(
  {
    responseDueDate: Day(
      'The new reply date; not a day that has ended everywhere on Earth. The venue of an open request is told by mail, and its reminder is set again for the new date.',
    ),
  },
  {
    $id: 'MoveReplyDate',
    additionalProperties: false,
    description: "A request's new reply date (D28).",
    examples: [{ responseDueDate: '2027-02-22' }],
  },
);

export const RequestRevision = Type.Object(
  {
    message: Type.Optional(
      orNull(
        Type.String({
          maxLength: LIMITS.freeText,
          description: 'Told to the venue with the request, as plain text (markup is shown as typed).',
        }),
      ),
    ),
  },
  {
    $id: 'RequestRevision',
    additionalProperties: false,
    description: 'An optional message; send no body, or `{}`, without one.',
    examples: [{ message: 'We now expect 140 guests: could you offer 20 more rooms on the first night?' }],
  },
);

export const AwardVenueRequest = Type.Object(
  { comment: Type.Optional(orNull(FreeText('Told to the venue with the award.'))) },
  {
    $id: 'AwardVenueRequest',
    additionalProperties: false,
    description: 'An optional comment; send no body, or `{}`, without one.',
    examples: [{ comment: 'Thank you: we look forward to the contract.' }],
  },
);

export const DeclineVenueRequest = Type.Object(
  {
    reason: Type.Unsafe<string>({
      type: 'string',
      enum: [...DECLINE_REASONS],
      description: `${codeList(DECLINE_REASONS, DECLINE_REASON_LABELS)}.`,
    }),
    comment: Type.Optional(orNull(FreeText('Told to the venue with the reason; required for `other`.'))),
  },
  {
    $id: 'DeclineVenueRequest',
    additionalProperties: false,
    description: 'Why the proposal is declined.',
    examples: [{ reason: 'rate_too_high' }],
  },
);

export const VenueRequestParams = Type.Object({
  id: EventIdParams.properties.id,
  requestId: Type.String({
    format: 'uuid',
    description: "The request's id, a UUID. A malformed id is a 400 naming `requestId`.",
  }),
});

const REQUEST_404 = problemResponse(
  'No event with this id in your organization, or the event has no such request.',
  problemOf(404, ['not_found']),
);

export const CreateVenueRequestRoute = operation({
  operationId: 'createVenueRequest',
  tag: 'Venue requests',
  summary: 'Ask a venue for a proposal',
  description: `While the event is \`draft\` or \`pending_approval\` the venue is put on the shortlist (\`shortlisted\`, nothing sent); every shortlisted request is sent when the event moves to \`wait_for_proposals\`. While the event is \`wait_for_proposals\` or \`proposals_received\` the request is sent at once: the venue gets a mail with a link to a page where it answers, no account needed. One request per venue and event, at most ${MAX_REQUESTS_PER_EVENT} per event. Checks: the event (404), its status (409 \`event_not_sourcing\`), the body and the venue (400), the venue (409 \`venue_archived\`, \`venue_already_requested\`).`,
  params: EventIdParams,
  responses: {
    201: jsonResponse('Shortlisted or sent.', ref(VenueRequest), { Location: RESPONSE_HEADERS.location }),
    400: ERRORS[400](
      `The id or the body was refused: \`venueId\` names no venue of your organization (\`unknown_venue\`), or the event already has ${MAX_REQUESTS_PER_EVENT} requests (\`too_many\`).`,
    ),
    404: ERRORS[404],
    409: problemResponse(
      'The event is booked, completed or cancelled (`event_not_sourcing`), the venue is archived (`venue_archived`) or already has a request for this event (`venue_already_requested`). Nothing was written.',
      problemOf(409, ['event_not_sourcing', 'venue_archived', 'venue_already_requested']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const ListVenueRequestsRoute = operation({
  operationId: 'listVenueRequests',
  tag: 'Venue requests',
  summary: "List an event's requests",
  description: 'Every request of the event, oldest first, each with its latest proposal.',
  params: EventIdParams,
  responses: {
    200: jsonResponse('The requests.', ref(VenueRequestList)),
    400: ERRORS[400]('The id is not a UUID, or a query parameter was sent.'),
    404: ERRORS[404],
  },
});

export const GetVenueRequestRoute = operation({
  operationId: 'getVenueRequest',
  tag: 'Venue requests',
  summary: 'Read a request',
  description: 'One request with its latest proposal.',
  params: VenueRequestParams,
  responses: {
    200: jsonResponse('The request.', ref(VenueRequest)),
    400: ERRORS[400]('An id is not a UUID, or a query parameter was sent.'),
    404: REQUEST_404,
  },
});

export const DeleteVenueRequestRoute = operation({
  operationId: 'deleteVenueRequest',
  tag: 'Venue requests',
  summary: 'Remove or withdraw a request',
  description:
    'A shortlisted request is removed (`204`): nothing was ever sent. An open one (`sent`, `viewed`, `proposed`) is withdrawn (`200` with the request) and the venue is told by mail. A closed one is a `409 request_closed`.',
  params: VenueRequestParams,
  responses: {
    200: jsonResponse('Withdrawn; the venue is told.', ref(VenueRequest)),
    204: { type: 'null', description: 'Removed from the shortlist.', headers: API_HEADERS },
    400: ERRORS[400]('An id is not a UUID, or a query parameter was sent.'),
    404: REQUEST_404,
    409: problemResponse(
      'The request is closed (turned down, awarded, declined, withdrawn or not answered). Nothing was written.',
      problemOf(409, ['request_closed']),
    ),
  },
});

export const MoveReplyDateRoute = operation({
  operationId: 'moveReplyDate',
  tag: 'Venue requests',
  summary: "Move a request's reply date",
  description:
    'Sets `responseDueDate`. On the shortlist, the date the request will be sent with. On an open request (`sent`, `viewed`, `proposed`) the venue is mailed the new date with its link, and the reminder is set again for it; `overdue` is judged on the new date. The same date again changes nothing. Recorded as `venue_request.due_date_changed`. Checks: the event and the request (404), the event sourcing and the request not closed (409), the body (400).',
  params: VenueRequestParams,
  consumes: [JSON_MEDIA_TYPE, 'application/merge-patch+json'],
  responses: {
    200: jsonResponse('The request with its new reply date.', ref(VenueRequest)),
    400: ERRORS[400]('An id or the body was refused: `responseDueDate` missing, not a date, or in the past.'),
    404: REQUEST_404,
    409: problemResponse(
      'The event is booked, completed or cancelled (`event_not_sourcing`), or the request is closed (`request_closed`). Nothing was written.',
      problemOf(409, ['event_not_sourcing', 'request_closed']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json` or `application/merge-patch+json`'),
  },
});

export const RequestRevisionRoute = operation({
  operationId: 'requestRevision',
  tag: 'Venue requests',
  summary: 'Ask the venue for a revised proposal',
  description:
    'For a proposal that answers an older version of the request (`requestVersion` below the latest) or has expired. The venue is mailed, in the same transaction, "Please revise your proposal: {event name}" with the version its proposal answers, what changed since (before → after), the optional `message` and a new link to its page (earlier links keep working). The request is unchanged but for `updatedAt`; one `venue_request.revision_requested` change record. Checks: the event and the request (404), the event sourcing and the request `proposed` (409), the body (400).',
  params: VenueRequestParams,
  responses: {
    200: jsonResponse('Asked; the venue is told.', ref(VenueRequest)),
    400: ERRORS[400]('An id or the body was refused (`message` longer than 1,000 characters, or not text).'),
    404: REQUEST_404,
    409: problemResponse(
      'The event is booked, completed or cancelled (`event_not_sourcing`), or the request has no standing proposal (`request_not_proposed`). Nothing was written.',
      problemOf(409, ['event_not_sourcing', 'request_not_proposed']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const SubmitProposalRoute = operation({
  operationId: 'submitProposal',
  tag: 'Venue requests',
  summary: "Enter a proposal on the venue's behalf",
  description:
    "For a proposal the venue sent by phone, mail or PDF. A new revision (earlier ones are kept); the request becomes `proposed`, and the event's first proposal moves it from `wait_for_proposals` to `proposals_received`. The change record names your key's user. Checks: the event and the request (404), the request open and the event sourcing (409), every problem of the body (400).",
  params: VenueRequestParams,
  responses: {
    201: jsonResponse('The new revision, with its figures.', ref(Proposal)),
    400: ERRORS[400](
      'An id or the body was refused; every field is named by its path (`rooms.2027-05-12.Single.rate`).',
    ),
    404: REQUEST_404,
    409: problemResponse(
      'The request is still on the shortlist (`request_not_sent`) or closed (`request_closed`), or the event is booked, completed or cancelled (`event_not_sourcing`). Nothing was written.',
      problemOf(409, ['request_not_sent', 'request_closed', 'event_not_sourcing']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const ListProposalsRoute = operation({
  operationId: 'listProposals',
  tag: 'Venue requests',
  summary: "List a request's proposals",
  description: 'Every revision, newest first, each with its figures computed against the event as it is now.',
  params: VenueRequestParams,
  responses: {
    200: jsonResponse('The revisions.', ref(ProposalList)),
    400: ERRORS[400]('An id is not a UUID, or a query parameter was sent.'),
    404: REQUEST_404,
  },
});

export const AwardVenueRequestRoute = operation({
  operationId: 'awardVenueRequest',
  tag: 'Venue requests',
  summary: 'Award a request',
  description:
    "In one transaction: the request becomes `awarded` and the event `booked`; every other `proposed` request is declined (`selected_other_venue`), every `sent` or `viewed` one becomes `no_response`, a shortlisted one is withdrawn; every venue asked is told by mail. Only a `proposed` request whose proposal's `validUntil` has not passed. Of two awards at the same moment one wins; the other gets a 409.",
  params: VenueRequestParams,
  responses: {
    200: jsonResponse('Awarded.', ref(VenueRequest)),
    400: ERRORS[400]('An id or the body was refused.'),
    404: REQUEST_404,
    409: problemResponse(
      "The event is booked, completed or cancelled (`event_not_sourcing`: another venue may have been awarded), the request has no standing proposal (`request_not_proposed`), or the proposal's `validUntil` has passed (`proposal_expired`: ask the venue for a revision). Nothing was written.",
      problemOf(409, ['event_not_sourcing', 'request_not_proposed', 'proposal_expired']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const DeclineVenueRequestRoute = operation({
  operationId: 'declineVenueRequest',
  tag: 'Venue requests',
  summary: 'Decline a proposal',
  description:
    'The request becomes `declined` with the reason, and the venue is told by mail; the event and the other requests do not change. Only a `proposed` request.',
  params: VenueRequestParams,
  responses: {
    200: jsonResponse('Declined.', ref(VenueRequest)),
    400: ERRORS[400](
      'An id or the body was refused: `reason` missing or unknown, or `comment` missing for `other`.',
    ),
    404: REQUEST_404,
    409: problemResponse(
      'The event is cancelled (`event_not_sourcing`), or the request has no standing proposal (`request_not_proposed`). Nothing was written.',
      problemOf(409, ['event_not_sourcing', 'request_not_proposed']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});
