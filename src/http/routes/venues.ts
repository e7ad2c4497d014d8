/** The venue directory API (D20): thin handlers over the use cases of app/venues. */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { archiveVenueOf, createVenue, getVenue, listVenues, updateVenue } from '../../app/venues.js';
import { ValidationError } from '../../domain/errors.js';
import { documentedBody } from '../openapi.js';
import { checkRequestShape, requireObjectBody } from '../request-shape.js';
import {
  ArchiveVenueRoute,
  CreateVenueRequest,
  CreateVenueRoute,
  GetVenueRoute,
  ListVenuesRoute,
  UpdateVenueRequest,
  UpdateVenueRoute,
} from './venue-schemas.js';

type Params = { id: string };

export function venueRoutes(deps: AppDeps) {
  return async function register(app: FastifyInstance) {
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));

    app.post(
      '/venues',
      {
        schema: CreateVenueRoute,
        config: documentedBody(CreateVenueRequest),
        onRequest: checkRequestShape(CreateVenueRoute),
        preValidation: requireObjectBody(),
      },
      async (request, reply) => {
        const venue = await createVenue(deps, request.principal, request.body);
        return reply.code(201).header('location', `/v1/venues/${venue.id}`).send(venue);
      },
    );
    app.get<{ Querystring: { q?: string | string[]; page: number; limit: number } }>(
      '/venues',
      { schema: ListVenuesRoute, onRequest: checkRequestShape(ListVenuesRoute) },
      async (request) => {
        const { q, page, limit } = request.query;
        if (Array.isArray(q)) {
          throw new ValidationError([{ field: 'query.q', code: 'duplicate', message: 'may be given once' }]);
        }
        return listVenues(deps, request.principal, { q, page, limit });
      },
    );
    app.get<{ Params: Params }>(
      '/venues/:id',
      { schema: GetVenueRoute, onRequest: checkRequestShape(GetVenueRoute) },
      async (request) => getVenue(deps, request.principal, request.params.id),
    );
    app.patch<{ Params: Params }>(
      '/venues/:id',
      {
        schema: UpdateVenueRoute,
        config: documentedBody(UpdateVenueRequest),
        onRequest: checkRequestShape(UpdateVenueRoute),
        preValidation: requireObjectBody(),
      },
      async (request) => updateVenue(deps, request.principal, request.params.id, request.body),
    );
    app.delete<{ Params: Params }>(
      '/venues/:id',
      { schema: ArchiveVenueRoute, onRequest: checkRequestShape(ArchiveVenueRoute) },
      async (request, reply) => {
        await archiveVenueOf(deps, request.principal, request.params.id);
        return reply.code(204).send();
      },
    );
  };
}
