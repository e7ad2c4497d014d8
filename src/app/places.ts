/** Places: loading the gazetteer into the store, the places search, and resolving candidate locations. */
import { type Problem, ValidationError } from '../domain/errors.js';
import { chooseClearPlace, countryCodeOf, placeKey } from '../domain/places.js';
import type { EventDetails, FormattedLocation } from '../domain/types.js';
import type { Place, PlaceRow } from '../ports/place-repository.js';
import type { AppDeps } from './deps.js';

export interface Gazetteer {
  version(): string;
  /** Every place; read only when the store needs them, as the store writes them. */
  read(): Iterable<PlaceRow>;
}

/**
 * Loads the gazetteer when the store holds none or another version; resolves to the rows loaded (0:
 * current, or loaded meanwhile by another instance starting at the same time).
 */
export async function ensurePlaces(deps: Pick<AppDeps, 'store'>, gazetteer: Gazetteer): Promise<number> {
  const version = gazetteer.version();
  if ((await deps.store.places.loadedVersion()) === version) return 0;
  return deps.store.places.replaceAll(gazetteer.read(), version);
}

/** What a resolved location carries, as the API shows it. */
export interface ResolvedPlace {
  place_id: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  timeZone: string;
}

export const RESOLVED_FIELDS = ['place_id', 'countryCode', 'latitude', 'longitude', 'timeZone'] as const;

function resolvedOf(place: Place): ResolvedPlace {
  return {
    place_id: `geonames:${place.id}`,
    countryCode: place.countryCode,
    latitude: place.latitude,
    longitude: place.longitude,
    timeZone: place.timeZone,
  };
}

/** What a location names, as resolving it reads it. */
export type LocationQuery = Pick<FormattedLocation, 'city' | 'state' | 'country'>;

/** The place each location clearly names, or undefined (ambiguous or unknown: kept as typed). */
export async function resolvePlaces(
  deps: Pick<AppDeps, 'store'>,
  locations: readonly LocationQuery[],
): Promise<(ResolvedPlace | undefined)[]> {
  return Promise.all(
    locations.map(async (location) => {
      if (location.city.trim() === '') return undefined;
      return clearPlaceOf(await deps.store.places.named(placeKey(location.city)), location);
    }),
  );
}

/**
 * The place each country and state typed with a city clearly names, per array of the city's
 * candidates: the stores hand out one array per name for as long as the gazetteer stays the same, so
 * a location typed again is not judged again. Client input chooses them: a full map is emptied.
 */
const clearPlaces = new WeakMap<readonly Place[], Map<string, ResolvedPlace | undefined>>();
const LOCATIONS_PER_NAME = 64;

function clearPlaceOf(candidates: readonly Place[], location: LocationQuery): ResolvedPlace | undefined {
  let answers = clearPlaces.get(candidates);
  if (!answers) {
    answers = new Map();
    clearPlaces.set(candidates, answers);
  }
  const key = `${location.state ?? '\u0001'}\u0000${location.country ?? '\u0001'}`;
  if (answers.has(key)) return answers.get(key);
  const place = chooseClearPlace(candidates, location);
  // Shared by every event naming it: frozen, as the candidates are.
  const resolved = place && Object.freeze(resolvedOf(place));
  if (answers.size >= LOCATIONS_PER_NAME) answers.clear();
  answers.set(key, resolved);
  return resolved;
}

/**
 * The locations a PATCH body sends when it replaces `formattedLocations`, read as leniently as the
 * domain will judge them; undefined when it sends none (locations unchanged, nothing to resolve).
 */
export function sentLocations(body: unknown): LocationQuery[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const sent = (body as { formattedLocations?: unknown }).formattedLocations;
  if (!Array.isArray(sent)) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return sent.map((item) => {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    return { city: text(entry.city) ?? '', state: text(entry.state), country: text(entry.country) };
  });
}

/**
 * The details with each location's resolved fields set from `resolved` (or removed). A resolved field
 * that was sent must equal what eventplan resolves, or the whole change is a 400 naming it (`read_only`).
 */
export function withResolvedPlaces(details: EventDetails, resolved: readonly (ResolvedPlace | undefined)[]) {
  return { ...details, formattedLocations: resolvedLocations(details.formattedLocations, resolved) };
}

/** The locations with their resolved fields set from `resolved`, as withResolvedPlaces makes them. */
export function resolvedLocations(
  locations: EventDetails['formattedLocations'],
  resolved: readonly (ResolvedPlace | undefined)[],
) {
  const problems: Problem[] = [];
  const formattedLocations = locations.map((location, index) => {
    const place = resolved[index];
    let sentResolved = false;
    for (const field of RESOLVED_FIELDS) {
      const sent = location[field];
      if (sent === undefined) continue;
      sentResolved = true;
      if (sent !== place?.[field]) {
        problems.push({
          field: `formattedLocations[${index}].${field}`,
          code: 'read_only',
          message: place
            ? `is read-only: it is set from the place the location names (${place[field]})`
            : 'is read-only: this location names no single known place',
        });
      }
    }
    // Locations usually come without resolved fields: only those that have them are copied without.
    const typed = sentResolved ? withoutResolvedFields(location) : location;
    return place ? { ...typed, ...place } : typed;
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return formattedLocations;
}

function withoutResolvedFields(location: EventDetails['formattedLocations'][number]) {
  const { place_id, countryCode, latitude, longitude, timeZone, ...typed } = location;
  return typed;
}

/** Prefixes this short match thousands of places; their answers are kept (the gazetteer changes only on a restart). */
const CACHED_PREFIX_LENGTH = 2;
const CACHE_ENTRIES = 2000;
const shortPrefixAnswers = new WeakMap<object, Map<string, Promise<Place[]>>>();

function searchStore(
  deps: Pick<AppDeps, 'store'>,
  query: { prefix: string; countryCode?: string; limit: number },
) {
  if ([...query.prefix].length > CACHED_PREFIX_LENGTH) return deps.store.places.search(query);
  let cache = shortPrefixAnswers.get(deps.store.places);
  if (!cache) {
    cache = new Map();
    shortPrefixAnswers.set(deps.store.places, cache);
  }
  const key = `${query.countryCode ?? ''}|${query.limit}|${query.prefix}`;
  let answer = cache.get(key);
  if (!answer) {
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    answer = deps.store.places.search(query);
    answer.catch(() => cache.delete(key));
    cache.set(key, answer);
  }
  return answer;
}

/** `GET /v1/places`: prefix search, most populous first. */
export async function searchPlaces(
  deps: Pick<AppDeps, 'store'>,
  query: { q: string; country?: string; limit: number },
) {
  const countryCode = query.country === undefined ? undefined : countryCodeOf(query.country);
  if (query.country !== undefined && countryCode === undefined) {
    throw new ValidationError([
      {
        field: 'query.country',
        code: 'invalid_value',
        message: 'must be an ISO 3166-1 code or a country name',
      },
    ]);
  }
  const places = await searchStore(deps, {
    prefix: placeKey(query.q),
    ...(countryCode === undefined ? {} : { countryCode }),
    limit: query.limit,
  });
  return {
    data: places.map((place) => ({
      name: place.name,
      adminCode: place.adminCode,
      population: place.population,
      ...resolvedOf(place),
    })),
  };
}
