/**
 * Derived, read-only fields (D8): each location's `formatted_address` and the place it resolves to,
 * the event's `location`, and `eventDates` (nights holding rooms plus the meeting-room ranges).
 */
import { unionOfRanges } from '../../src/domain/dates.js';
import type { Problem } from './checks.js';
import type { DateRange, Details, Location } from './event-model.js';
import { invalid } from './refusal.js';

/** What a location that names one known place carries (src/app/places.ts in the service). */
export interface ResolvedPlace {
  place_id: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  timeZone: string;
}

const RESOLVED_FIELDS = ['place_id', 'countryCode', 'latitude', 'longitude', 'timeZone'] as const;

/** `"city, state, country"`; a missing or blank part is left out with its comma. */
export function formattedAddress(location: Pick<Location, 'city' | 'state' | 'country'>): string {
  let address = '';
  for (const part of [location.city, location.state, location.country]) {
    if (part === undefined || part.trim() === '') continue;
    address = address === '' ? part : `${address}, ${part}`;
  }
  return address;
}

/**
 * Sets the locations as stored (typed parts, the derived address, the resolved place's fields) and the
 * event's `location`. A resolved field sent back must be what the place says: otherwise a 400.
 */
export function settlePlaces(details: Details, resolved: readonly (ResolvedPlace | undefined)[]): void {
  const problems: Problem[] = [];
  const locations = details.formattedLocations.map((location, index) => {
    const place = resolved[index];
    for (const field of RESOLVED_FIELDS) {
      const sent = location[field];
      if (sent !== undefined && sent !== place?.[field]) {
        problems.push({
          field: `formattedLocations[${index}].${field}`,
          code: 'read_only',
          message: place
            ? `is read-only: it is set from the place the location names (${place[field]})`
            : 'is read-only: this location names no single known place',
        });
      }
    }
    // Built in the service's field order: typed parts, the address, then the place.
    const settled = { city: location.city } as Location;
    if (location.state !== undefined) settled.state = location.state;
    if (location.country !== undefined) settled.country = location.country;
    settled.formatted_address = formattedAddress(location);
    return place ? { ...settled, ...place } : settled;
  });
  if (problems.length > 0) throw invalid(problems);
  details.formattedLocations = locations;
  details.location = locations.map((location) => location.formatted_address).join('; ');
}

/** Nights holding at least one room, plus every meeting-room range, as sorted merged ranges. */
export function eventDatesOf(details: Pick<Details, 'accommodations' | 'meetingRoomDates'>): DateRange[] {
  const nights: string[] = [];
  for (const night in details.accommodations) {
    const rooms = details.accommodations[night]!;
    for (const type in rooms) {
      if (rooms[type]! > 0) {
        nights.push(night);
        break;
      }
    }
  }
  return unionOfRanges(details.meetingRoomDates, nights);
}
