/** Derived, read-only fields, recomputed in one place after every change (D8). */
import { unionOfRanges } from './dates.js';
import type { EventDetails, EventListItem, FormattedLocation } from './types.js';

/** `"city, state, country"`; a part that is missing, empty or only whitespace is left out with its comma. */
export function formattedAddress(location: Pick<FormattedLocation, 'city' | 'state' | 'country'>): string {
  return [location.city, location.state, location.country]
    .filter((part) => part !== undefined && part.trim() !== '')
    .join(', ');
}

/** Nights holding at least one room, plus every meeting-room range, as sorted merged ranges. */
export function deriveEventDates(details: Pick<EventDetails, 'accommodations' | 'meetingRoomDates'>) {
  const nights = Object.entries(details.accommodations)
    .filter(([, rooms]) => Object.values(rooms).some((count) => (count ?? 0) > 0))
    .map(([night]) => night);
  return unionOfRanges(details.meetingRoomDates, nights);
}

/** Returns the details with `location`, `eventDates` and each `formatted_address` recomputed. */
export function withDerivedFields(details: EventDetails): EventDetails {
  const formattedLocations = details.formattedLocations.map(
    ({ city, state, country, formatted_address: _typed, ...resolved }): FormattedLocation => ({
      city,
      ...(state === undefined ? {} : { state }),
      ...(country === undefined ? {} : { country }),
      formatted_address: formattedAddress({ city, state, country }),
      // place_id, countryCode, latitude, longitude, timeZone: only when a place was resolved (src/app/places.ts).
      ...resolved,
    }),
  );
  return {
    ...details,
    location: formattedLocations.map((location) => location.formatted_address).join('; '),
    eventDates: deriveEventDates(details),
    formattedLocations,
  };
}

export function toListItem(details: EventDetails): EventListItem {
  return {
    id: details.id,
    name: details.name,
    dates: details.eventDates,
    locations: details.formattedLocations.map((location) => location.formatted_address),
    numPeople: details.numPeople,
    status: details.status,
    createdAt: details.createdAt,
  };
}
