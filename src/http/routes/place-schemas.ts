/** The city search (the gazetteer): its query, its answer and its operation. */
import { Type } from '@sinclair/typebox';
import { jsonResponse, operation } from '../schemas/operation.js';
import { ref } from '../schemas/parts.js';
import { ERRORS } from '../schemas/problems.js';

export const PlacesQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The start of a city name; case and accents do not matter.',
      examples: ['lis'],
    }),
    country: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'Only places in this country: an ISO 3166-1 code or an English name.',
      }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Places to return, 1 to 50.' }),
  },
  { additionalProperties: false },
);

export const Place = Type.Object(
  {
    name: Type.String({ description: 'The city, as GeoNames spells it.' }),
    adminCode: Type.String({
      description: "GeoNames admin1 code: a US state's postal code, elsewhere usually digits.",
    }),
    population: Type.Integer({ minimum: 0 }),
    place_id: Type.String({ description: '`geonames:<id>`, as set on a resolved location.' }),
    countryCode: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
    latitude: Type.Number(),
    longitude: Type.Number(),
    timeZone: Type.String({ description: 'IANA time zone.' }),
  },
  {
    $id: 'Place',
    additionalProperties: false,
    description: 'A city of the gazetteer (GeoNames, 1,000 people or more).',
    examples: [
      {
        name: 'Lisbon',
        adminCode: '14',
        population: 517802,
        place_id: 'geonames:2267057',
        countryCode: 'PT',
        latitude: 38.71667,
        longitude: -9.13333,
        timeZone: 'Europe/Lisbon',
      },
    ],
  },
);

export const SearchPlacesRoute = operation({
  operationId: 'searchPlaces',
  tag: 'Places',
  summary: 'Search cities',
  description:
    'Cities whose name starts with `q` (case and accents ignored), most populous first, optionally in one `country`: for city pickers. The `place_id` is the one a candidate location naming that city gets.',
  querystring: PlacesQuery,
  responses: {
    200: jsonResponse(
      'Matching places, most populous first.',
      Type.Object({ data: Type.Array(ref(Place)) }, { additionalProperties: false }),
    ),
    400: ERRORS[400]('A query parameter is missing, malformed, out of range or unknown.'),
  },
});
