/** The request and response headers of the API, written once and shared by every resource. */
import { Type } from '@sinclair/typebox';

/** One `*`, or a comma-separated list of entity tags (`"…"` or `W/"…"`), as RFC 9110 writes them. */
const ENTITY_TAG = '(W/)?"[\\x21\\x23-\\x7E\\x80-\\xFF]*"';
export const ENTITY_TAGS_PATTERN = `^[ \\t]*(\\*|${ENTITY_TAG}([ \\t]*,[ \\t]*${ENTITY_TAG})*)[ \\t]*$`;

export const requestIdHeader = Type.String({
  description:
    'Your id for this request (1-128 of `A-Z a-z 0-9 . _ : -`), echoed in the `x-request-id` response header, in error bodies and in every log line. Anything else is replaced by a generated id.',
  examples: ['checkout-5f2a91'],
});

export const CommonRequestHeaders = Type.Object({ 'x-request-id': Type.Optional(requestIdHeader) });

/** Response headers. `x-required` marks headers always present; ../openapi.ts turns it into `required`. */
const header = (schema: Record<string, unknown>, required = true) =>
  required ? { ...schema, 'x-required': true } : schema;

export const RESPONSE_HEADERS = {
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

/** The headers of every API response. */
export const API_HEADERS = {
  'x-request-id': RESPONSE_HEADERS.requestId,
  'RateLimit-Limit': RESPONSE_HEADERS.rateLimitLimit,
  'RateLimit-Remaining': RESPONSE_HEADERS.rateLimitRemaining,
  'RateLimit-Reset': RESPONSE_HEADERS.rateLimitReset,
};
