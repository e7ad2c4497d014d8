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
  const nights: string[] = [];
  for (const night in details.accommodations) {
    const rooms = details.accommodations[night] as Record<string, number | undefined>;
    for (const roomType in rooms) {
      if ((rooms[roomType] ?? 0) > 0) {
        nights.push(night);
        break;
      }
    }
  }
  return unionOfRanges(details.meetingRoomDates, nights);
}

/** The locations with each `formatted_address` recomputed, and `location`, the addresses joined. */
function derivedLocations(locations: readonly FormattedLocation[]) {
  const formattedLocations = locations.map(
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
    formattedLocations,
    location: formattedLocations.map((place) => place.formatted_address).join('; '),
  };
}

/** Returns the details with `location`, `eventDates` and each `formatted_address` recomputed. */
export function withDerivedFields(details: EventDetails): EventDetails {
  const { formattedLocations, location } = derivedLocations(details.formattedLocations);
  return { ...details, location, eventDates: deriveEventDates(details), formattedLocations };
}

/** `withDerivedFields` made in place, for details nothing else holds yet (a new event's). */
export function setDerivedFields(details: EventDetails): EventDetails {
  const { formattedLocations, location } = derivedLocations(details.formattedLocations);
  details.location = location;
  details.eventDates = deriveEventDates(details);
  details.formattedLocations = formattedLocations;
  return details;
}

/**
 * `withDerivedFields(details)` for details made from `before`, whose derived fields are sound, by a
 * change that replaces a field's value whenever it changes it: each derived field is made again only
 * when a field it derives from was replaced.
 */
export function withDerivedFieldsSince(before: EventDetails, details: EventDetails): EventDetails {
  const locationsReplaced = details.formattedLocations !== before.formattedLocations;
  const datesReplaced =
    details.accommodations !== before.accommodations || details.meetingRoomDates !== before.meetingRoomDates;
  if (!locationsReplaced && !datesReplaced) return details;
  return {
    ...details,
    ...(locationsReplaced ? derivedLocations(details.formattedLocations) : {}),
    ...(datesReplaced ? { eventDates: deriveEventDates(details) } : {}),
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
