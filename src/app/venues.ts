/**
 * The organization's directory of venues (D20): every API key and every signed-in person of the
 * organization sees and edits the same venues (grants do not apply). Cities resolve to places as an
 * event's candidate cities do.
 */
import { NotFoundError, ValidationError } from '../domain/errors.js';
import {
  applyVenueUpdate,
  archiveVenue,
  buildNewVenue,
  type Venue,
  type VenuePlace,
  venueSearchKey,
  withVenuePlace,
} from '../domain/venue.js';
import { type AppDeps, nowText } from './deps.js';
import { resolvePlaces } from './places.js';
import { assertUuid } from './resource-ids.js';

/** Who uses the directory: an API key or a person, of one organization. */
export interface DirectoryUser {
  organizationId: string;
}

/** The directory's pages: D10's bounds. */
export const VENUE_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
/** The longest search text; longer is a 400 naming `query.q`. */
export const VENUE_SEARCH_MAX = 200;

const venueNotFound = (id: string) => new NotFoundError(`No venue with id ${id}.`);

type Located = Pick<Venue, 'city' | 'state' | 'country'>;

/** The place a venue's city names when exactly one is clearly meant (places.ts), else null. */
async function placeOf(deps: AppDeps, venue: Located): Promise<VenuePlace | null> {
  const [place] = await resolvePlaces(deps, [
    { city: venue.city, state: venue.state ?? undefined, country: venue.country ?? undefined },
  ]);
  return place
    ? { place_id: place.place_id, countryCode: place.countryCode, timeZone: place.timeZone }
    : null;
}

const sameLocation = (a: Located, b: Located) =>
  a.city === b.city && a.state === b.state && a.country === b.country;

/** `POST /v1/venues` and the Venues page's "Add": every problem at once, nothing written on a 400. */
export async function createVenue(deps: AppDeps, user: DirectoryUser, body: unknown): Promise<Venue> {
  const built = buildNewVenue(body, { id: deps.ids.uuid(), now: nowText(deps) });
  const venue = withVenuePlace(built, await placeOf(deps, built));
  await deps.store.venues.insert(user.organizationId, venue);
  return venue;
}

/** One venue of the organization, archived or not; 404 for any other id (another organization's too). */
export async function getVenue(deps: AppDeps, user: DirectoryUser, id: string): Promise<Venue> {
  const venue = await deps.store.venues.find(user.organizationId, assertUuid('id', id));
  if (!venue) throw venueNotFound(id);
  return venue;
}

export interface VenueListQuery {
  /** Matched in the name or the city, ignoring case and accents; empty lists every venue. */
  q?: string;
  /** True: the archived venues instead (the Venues page's "Show archived venues"); the API lists none. */
  archived?: boolean;
  page: number;
  limit: number;
}

/** The venues not archived (or only the archived ones), in name order, `q` matching the name or the city (D20). */
export async function listVenues(deps: AppDeps, user: DirectoryUser, query: VenueListQuery) {
  const search = (query.q ?? '').trim();
  if ([...search].length > VENUE_SEARCH_MAX) {
    throw new ValidationError([
      { field: 'query.q', code: 'too_long', message: `must be at most ${VENUE_SEARCH_MAX} characters` },
    ]);
  }
  const { items, total } = await deps.store.venues.list(user.organizationId, {
    search: venueSearchKey(search),
    archived: query.archived ?? false,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { data: items, page: query.page, limit: query.limit, total };
}

/**
 * A merge patch of a venue (D6 semantics): an archived venue is refused (409), every problem of the
 * body at once (400). A changed city, state or country resolves the place again.
 */
export async function updateVenue(
  deps: AppDeps,
  user: DirectoryUser,
  id: string,
  body: unknown,
): Promise<Venue> {
  const current = await getVenue(deps, user, id);
  const now = nowText(deps);
  // Judged once before the write, to look the new place up; the write judges the venue as stored again.
  const planned = applyVenueUpdate(current, body, { now });
  const place = planned.placeChanged ? await placeOf(deps, planned.venue) : null;
  const updated = await deps.store.venues.update(user.organizationId, current.id, (stored) => {
    const { venue, changed, placeChanged } = applyVenueUpdate(stored, body, { now });
    if (!changed) return undefined;
    // A place looked up for another location (the venue changed meanwhile) is not used: it stays unresolved.
    return placeChanged && sameLocation(venue, planned.venue) ? withVenuePlace(venue, place) : venue;
  });
  if (!updated) throw venueNotFound(id);
  return updated;
}

/**
 * Archives a venue (D20's DELETE): it leaves lists and pickers, requests already made keep showing it.
 * Archiving an archived venue changes nothing.
 */
export async function archiveVenueOf(deps: AppDeps, user: DirectoryUser, id: string): Promise<Venue> {
  const now = nowText(deps);
  const archived = await deps.store.venues.update(user.organizationId, assertUuid('id', id), (stored) =>
    stored.archivedAt === null ? archiveVenue(stored, now) : undefined,
  );
  if (!archived) throw venueNotFound(id);
  return archived;
}
