/**
 * Everything @fastify/swagger documents about an operation, built one way for every route: its tag,
 * its query string and headers (none but `x-request-id` unless it says so), and the error responses
 * every API operation shares (401, 429 and unexpected errors).
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { API_HEADERS, CommonRequestHeaders } from './headers.js';
import { NoQuery } from './parts.js';
import { ERRORS } from './problems.js';

export const JSON_MEDIA_TYPE = 'application/json';

export function jsonResponse(description: string, schema: TSchema, headers: Record<string, unknown> = {}) {
  return { description, headers: { ...API_HEADERS, ...headers }, content: { [JSON_MEDIA_TYPE]: { schema } } };
}

/** The document's tags, one per resource; an operation can only be tagged with one of these. */
export const TAGS = [
  { name: 'Events', description: "Planning records of events, scoped to the API key's organization." },
  {
    name: 'Changes',
    description:
      "The change log: each event's revisions and the organization's change feed, one record per committed change.",
  },
  {
    name: 'Webhooks',
    description:
      'Signed notifications of changes to your events (Standard Webhooks 1.0), POSTed to endpoints you register. See `webhooks` for the payload.',
  },
  {
    name: 'Venues',
    description:
      "The organization's directory of venues: where requests for proposals go. Shared by every key and person of the organization.",
  },
  {
    name: 'Venue requests',
    description:
      "An event's requests for proposals, one per venue: the shortlist, sending, the venues' proposals (with computed totals, room-block coverage and budget comparison), awards and declines.",
  },
  {
    name: 'Places',
    description:
      'The cities of the gazetteer, for city pickers: each with the `place_id` that a candidate location naming it gets.',
  },
  { name: 'Reference', description: 'This description of the API.' },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

interface OperationSpec {
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  params?: TObject;
  /** Without one, the operation takes no query parameters: any is a 400 naming `query.<name>`. */
  querystring?: TObject;
  headers?: TObject;
  /** Media types of the request body, when there are several. */
  consumes?: string[];
  responses: Record<number, unknown>;
  /**
   * Anyone may call it, without a key or a rate limit, so it answers only what it lists. Otherwise it
   * also answers 401, 429 and unexpected errors, like every operation of the API.
   */
  public?: true;
}

export function operation<Spec extends OperationSpec>(spec: Spec) {
  const { tag, responses, querystring, headers, public: isPublic, ...rest } = spec;
  return {
    ...rest,
    tags: [tag],
    ...(isPublic ? { security: [] } : {}),
    querystring: (querystring ?? NoQuery) as Spec['querystring'] extends TObject
      ? Spec['querystring']
      : typeof NoQuery,
    headers: headers ?? CommonRequestHeaders,
    response: (isPublic
      ? responses
      : { ...responses, 401: ERRORS[401], 429: ERRORS[429], default: ERRORS.default }) as Spec['responses'] &
      SharedResponses,
  };
}

type SharedResponses = {
  401: (typeof ERRORS)[401];
  429: (typeof ERRORS)[429];
  default: (typeof ERRORS)['default'];
};
