/**
 * Problems (RFC 9457, D4): their schemas and the error responses every operation shares. Each problem
 * response fixes its `status` and `code`, so a typed client can tell the cases apart.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { API_HEADERS, RESPONSE_HEADERS } from './headers.js';
import { ref } from './parts.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export const FieldProblem = Type.Object(
  {
    field: Type.String({
      description:
        "Path of the offending field from the body's root (`accommodations.2027-03-01.Kingsize`, `agendaOperations[3].session.startTime`), `query.<name>` for query parameters, `header.<name>` for headers, `id` for the path id, `body` for the body as a whole.",
    }),
    code: Type.String({
      pattern: '^[a-z][a-z0-9_]*$',
      description:
        'Stable snake_case word: `required`, `invalid_type`, `invalid_format`, `invalid_date`, `invalid_value`, `invalid_characters`, `empty`, `too_long`, `too_many`, `out_of_range`, `duplicate`, `unknown_field`, `read_only`, `not_allowed`, `conflict`, `unknown_session`, `outside_meeting_room_dates`, `invalid_cursor`, `invalid_json`, `duplicate_key` (a key repeated in one object), `too_deep` (nesting deeper than 32 levels); venue sourcing adds `line_break`, `in_the_past`, `unknown_venue`, `outside_offered_dates`, `nothing_priced`.',
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

export const problemFields = {
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
      'Stable snake_case word for programs: `validation_failed`, `unauthorized`, `not_found`, `event_cancelled`, `agenda_sessions_orphaned`, `precondition_failed`, `idempotency_key_in_use`, `idempotency_key_reused`, `payload_too_large`, `unsupported_media_type`, `rate_limited`, `internal_error`, `service_unavailable`; venue sourcing adds `venue_archived`, `event_not_sourcing`, `venue_already_requested`, `request_not_sent`, `request_closed`, `request_not_proposed`, `proposal_expired`, `event_not_asking_venues`, `nothing_to_send`.',
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

/** A problem whose `status` and `code` are fixed, so a typed client can tell the cases apart. */
export function problemOf(status: number, codes: string[]) {
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

export function problemResponse(description: string, schema: TSchema, headers: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...API_HEADERS, ...headers },
    content: { [PROBLEM_MEDIA_TYPE]: { schema } },
  };
}

/** The error responses shared by the operations; 401, 429 and `default` are on every one. */
export const ERRORS = {
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
