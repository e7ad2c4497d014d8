/**
 * Venues (D20): the organization's directory, its bodies and its operations. The fields come from
 * the domain's table (`VENUE_FIELDS`); bodies are checked by the domain, every problem at once.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { VENUE_PAGE, VENUE_SEARCH_MAX } from '../../app/venues.js';
import { VENUE_FIELDS } from '../../domain/venue.js';
import { createProperties, patchProperties, readProperties } from '../schemas/field-table.js';
import { API_HEADERS, RESPONSE_HEADERS } from '../schemas/headers.js';
import { JSON_MEDIA_TYPE, jsonResponse, operation } from '../schemas/operation.js';
import { Count, orNull, ref, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';

/** The venue's read-only fields, as the API gives them. */
const VENUE_READ_ONLY: Record<string, TSchema> = {
  id: Uuid('The venue id.'),
  place_id: Type.Optional(
    Type.String({ description: 'Present only when the city names one place clearly: `geonames:<id>`.' }),
  ),
  countryCode: Type.Optional(
    Type.String({ description: "With `place_id`: the place's ISO 3166-1 alpha-2 country code." }),
  ),
  timeZone: Type.Optional(Type.String({ description: "With `place_id`: the place's IANA time zone." })),
  archivedAt: orNull(Timestamp('When the venue was archived (DELETE); null while it is in the directory.')),
  createdAt: Timestamp('When the venue was added.'),
  updatedAt: Timestamp('When the venue last changed.'),
};

const EXAMPLE_VENUE = {
  id: '5a3c1b2d-7e8f-4a9b-8c0d-1e2f3a4b5c6d',
  name: 'Harbourside Conference Hotel',
  email: 'events@harbourside.example',
  city: 'Lisbon',
  state: null,
  country: 'Portugal',
  contactName: 'Inês Duarte',
  phone: '+351 21 000 0000',
  website: 'https://harbourside.example',
  guestRooms: 180,
  largestMeetingRoomCapacity: 400,
  notes: 'Preferred for large plenaries.',
  place_id: 'geonames:2267057',
  countryCode: 'PT',
  timeZone: 'Europe/Lisbon',
  archivedAt: null,
  createdAt: '2027-01-10T09:00:00.000Z',
  updatedAt: '2027-01-10T09:00:00.000Z',
};

export const Venue = Type.Object(readProperties(VENUE_FIELDS, VENUE_READ_ONLY), {
  $id: 'Venue',
  additionalProperties: false,
  description:
    "A venue of your organization's directory: where requests for proposals go. Every key and every person of the organization sees the same directory.",
  examples: [EXAMPLE_VENUE],
});

export const VenueList = Type.Object(
  {
    data: Type.Array(ref(Venue), { description: 'In name order (case and accents ignored), then id.' }),
    page: Type.Integer({ minimum: 1, description: 'The page returned.' }),
    limit: Type.Integer({ minimum: 1, maximum: VENUE_PAGE.maxLimit, description: 'The page size used.' }),
    total: Count('Venues matching `q` (every venue not archived without it).'),
  },
  {
    $id: 'VenueList',
    additionalProperties: false,
    description:
      'One page of the directory; archived venues are left out. A page past the end has empty `data`.',
  },
);

const ignoredOrganizationId = Type.Optional(
  Type.Unknown({ description: 'Ignored: the organization always comes from the API key.' }),
);

export const CreateVenueRequest = Type.Object(
  { ...createProperties(VENUE_FIELDS), organizationId: ignoredOrganizationId },
  {
    $id: 'CreateVenueRequest',
    additionalProperties: false,
    description:
      '`name`, `email` and `city` are required. Every problem comes in one 400, nothing written; unknown fields and the fields the service sets are refused.',
    examples: [
      {
        name: 'Harbourside Conference Hotel',
        email: 'events@harbourside.example',
        city: 'Lisbon',
        country: 'Portugal',
        guestRooms: 180,
      },
    ],
  },
);

export const UpdateVenueRequest = Type.Object(
  { ...patchProperties(VENUE_FIELDS, VENUE_READ_ONLY), organizationId: ignoredOrganizationId },
  {
    $id: 'UpdateVenueRequest',
    additionalProperties: false,
    description:
      'A JSON Merge Patch (RFC 7396): omitted fields are unchanged, `null` clears a field (not `name`, `email` or `city`). A venue read back may be sent unchanged. A changed city, state or country resolves the place again.',
    examples: [{ contactName: 'Rui Matos', phone: null }],
  },
);

export const VenueIdParams = Type.Object({
  id: Type.String({
    format: 'uuid',
    description: "The venue's id, a UUID. A malformed id is a 400 naming `id`.",
  }),
});

export const ListVenuesQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: VENUE_SEARCH_MAX,
        description: `Only venues whose name or city contains this text, case and accents ignored; at most ${VENUE_SEARCH_MAX} characters.`,
        examples: ['lisbon'],
      }),
    ),
    page: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      default: 1,
      description: 'Page number, from 1.',
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: VENUE_PAGE.maxLimit,
      default: VENUE_PAGE.defaultLimit,
      description: `Venues per page, 1 to ${VENUE_PAGE.maxLimit}.`,
    }),
  },
  { additionalProperties: false },
);

const VENUE_404 = problemResponse(
  'No venue with this id in your organization (one of another organization is a 404 too).',
  problemOf(404, ['not_found']),
);

export const CreateVenueRoute = operation({
  operationId: 'createVenue',
  tag: 'Venues',
  summary: 'Add a venue',
  description:
    "Adds a venue to the organization's directory. The city is resolved to a place like an event's candidate city (`place_id`, `countryCode`, `timeZone` when one place is clearly meant). A name or email with a line break is a 400: they end up in mail headers.",
  responses: {
    201: jsonResponse('Added.', ref(Venue), { Location: RESPONSE_HEADERS.location }),
    400: ERRORS[400]('The body was refused.'),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});

export const ListVenuesRoute = operation({
  operationId: 'listVenues',
  tag: 'Venues',
  summary: 'List venues',
  description:
    'The directory in name order, archived venues left out. `q` matches the name or the city; `page` and `limit` as for events.',
  querystring: ListVenuesQuery,
  responses: {
    200: jsonResponse('A page of venues.', ref(VenueList)),
    400: ERRORS[400]('A query parameter is malformed, out of range or unknown.'),
  },
});

export const GetVenueRoute = operation({
  operationId: 'getVenue',
  tag: 'Venues',
  summary: 'Read a venue',
  description: 'One venue, archived or not (requests already made keep showing an archived venue).',
  params: VenueIdParams,
  responses: {
    200: jsonResponse('The venue.', ref(Venue)),
    400: ERRORS[400]('The id is not a UUID, or a query parameter was sent.'),
    404: VENUE_404,
  },
});

export const UpdateVenueRoute = operation({
  operationId: 'updateVenue',
  tag: 'Venues',
  summary: 'Update a venue',
  description:
    'A JSON Merge Patch over the writable fields. Checks: id (400), venue exists (404), not archived (409 `venue_archived`), every problem of the body (400).',
  params: VenueIdParams,
  consumes: [JSON_MEDIA_TYPE, 'application/merge-patch+json'],
  responses: {
    200: jsonResponse('The venue as changed (or unchanged, when the patch changes nothing).', ref(Venue)),
    400: ERRORS[400]('The id or the body was refused.'),
    404: VENUE_404,
    409: problemResponse(
      'The venue is archived: it can no longer be changed. Nothing was written.',
      problemOf(409, ['venue_archived']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json` or `application/merge-patch+json`'),
  },
});

export const ArchiveVenueRoute = operation({
  operationId: 'archiveVenue',
  tag: 'Venues',
  summary: 'Archive a venue',
  description:
    'Archives the venue: it leaves the list and can no longer be sent requests; requests already made keep showing it. Archiving an archived venue changes nothing.',
  params: VenueIdParams,
  responses: {
    204: { type: 'null', description: 'Archived.', headers: API_HEADERS },
    400: ERRORS[400]('The id is not a UUID, or a query parameter was sent.'),
    404: VENUE_404,
  },
});
