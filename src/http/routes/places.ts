import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { searchPlaces } from '../../app/places.js';
import { strictQuery } from '../query.js';
import { type PlacesQuery, SearchPlacesRoute } from './place-schemas.js';

export function placeRoutes(deps: AppDeps) {
  return async function register(app: FastifyInstance) {
    app.get<{ Querystring: Static<typeof PlacesQuery> }>(
      '/places',
      { schema: SearchPlacesRoute, onRequest: strictQuery(SearchPlacesRoute.querystring) },
      async (request) => searchPlaces(deps, request.query),
    );
  };
}
