/** A few real GeoNames places, enough to test resolution without loading the whole gazetteer. */
import { placeKey } from '../../src/domain/places.js';
import type { PlaceRow } from '../../src/ports/place-repository.js';

const place = (
  id: number,
  name: string,
  countryCode: string,
  adminCode: string,
  population: number,
  latitude: number,
  longitude: number,
  timeZone: string,
): PlaceRow => ({
  id,
  name,
  nameKey: placeKey(name),
  countryCode,
  adminCode,
  population,
  latitude,
  longitude,
  timeZone,
});

export const SAMPLE_PLACES: PlaceRow[] = [
  place(2267057, 'Lisbon', 'PT', '14', 517_802, 38.71667, -9.13333, 'Europe/Lisbon'),
  place(4974617, 'Lisbon', 'US', 'ME', 9_009, 44.03146, -70.10412, 'America/New_York'),
  place(2267095, 'Lagos', 'PT', '08', 22_094, 37.10202, -8.67422, 'Europe/Lisbon'),
  place(2332459, 'Lagos', 'NG', '25', 9_000_000, 6.45407, 3.39467, 'Africa/Lagos'),
  place(2988507, 'Paris', 'FR', '11', 2_138_551, 48.85341, 2.3488, 'Europe/Paris'),
  place(4717560, 'Paris', 'US', 'TX', 24_782, 33.66094, -95.55551, 'America/Chicago'),
  place(4409896, 'Springfield', 'US', 'MO', 166_810, 37.21533, -93.29824, 'America/Chicago'),
  place(4951788, 'Springfield', 'US', 'MA', 155_929, 42.10148, -72.58981, 'America/New_York'),
  place(4250542, 'Springfield', 'US', 'IL', 116_250, 39.80172, -89.64371, 'America/Chicago'),
  place(3448439, 'São Paulo', 'BR', '27', 10_021_295, -23.5475, -46.63611, 'America/Sao_Paulo'),
];
