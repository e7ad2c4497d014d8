/**
 * The place a candidate location names, by the service's rules (domain/places.ts: the gazetteer's
 * places of the city's name, narrowed by country and state, one clearly meant), remembered per
 * location typed: the gazetteer does not change while a server runs.
 */
import { chooseClearPlace, placeKey } from '../../src/domain/places.js';
import type { ResolvedPlace } from './derived.js';
import type { Location } from './event-model.js';

export interface PlaceRow {
  id: number;
  countryCode: string;
  adminCode: string;
  population: number;
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** Columns of a place as PlaceRow names them (the same on both stores). */
export const PLACE_COLUMNS = `id, country_code AS "countryCode", admin_code AS "adminCode", population, latitude,
  longitude, time_zone AS "timeZone"`;

/** Locations remembered; client input chooses them, so the memory is emptied when full. */
const MAX_REMEMBERED = 4096;

type Typed = Pick<Location, 'city' | 'state' | 'country'>;

/** Answers for the locations seen so far; a location not yet seen needs its city's places looked up. */
export function createPlaceMemory() {
  let answers = new Map<string, ResolvedPlace | undefined>();
  const keyOf = (location: Typed) =>
    `${location.city}\u0000${location.state ?? '\u0001'}\u0000${location.country ?? '\u0001'}`;
  return {
    /** The name key to look up, or undefined when the answer is known (then `answer` gives it). */
    missing(location: Typed): string | undefined {
      if (location.city.trim() === '' || answers.has(keyOf(location))) return undefined;
      return placeKey(location.city);
    },
    answer(location: Typed): ResolvedPlace | undefined {
      return location.city.trim() === '' ? undefined : answers.get(keyOf(location));
    },
    learn(location: Typed, candidates: readonly PlaceRow[]) {
      const place = chooseClearPlace(candidates, location);
      if (answers.size >= MAX_REMEMBERED) answers = new Map();
      answers.set(
        keyOf(location),
        place && {
          place_id: `geonames:${place.id}`,
          countryCode: place.countryCode,
          latitude: place.latitude,
          longitude: place.longitude,
          timeZone: place.timeZone,
        },
      );
    },
  };
}
