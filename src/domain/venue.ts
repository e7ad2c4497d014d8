/**
 * Venues (D20): the organization's directory of hotels and venues that requests for proposals go to.
 * Its fields are one plain-data table, from which create and merge-patch validation are derived.
 */
import { EMAIL_MAX_LENGTH } from './contact-values.js';
import { formattedAddress } from './derived.js';
import { ValidationError, VenueArchivedError } from './errors.js';
import { type FieldDescription, fieldLabels, mergeResource, readNewResource } from './field-descriptions.js';
import { placeKey } from './places.js';
import { Problems } from './problems.js';
import { isPlainObject } from './values.js';

export interface Venue {
  id: string;
  name: string;
  /** Where requests for proposals go: one address. */
  email: string;
  city: string;
  state: string | null;
  country: string | null;
  contactName: string | null;
  phone: string | null;
  /** An https:// URL. */
  website: string | null;
  guestRooms: number | null;
  largestMeetingRoomCapacity: number | null;
  notes: string | null;
  /** The place the city resolves to, when exactly one matches (set by the app layer; read-only). */
  place_id?: string;
  countryCode?: string;
  timeZone?: string;
  /** Set when the venue is archived (DELETE): it leaves lists and pickers, requests keep showing it. */
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const VENUE_LIMITS = {
  name: 200,
  place: 200,
  contactName: 200,
  phone: 50,
  website: 2000,
  notes: 1000,
} as const;

/** Every field of a venue, in the order the API writes them. */
export const VENUE_FIELDS = [
  { name: 'id', label: 'Id', access: 'read_only', source: 'service' },
  {
    name: 'name',
    label: 'Name',
    access: 'writable',
    kind: { type: 'line', maxLength: VENUE_LIMITS.name },
    required: true,
    whenNull: 'refused',
  },
  {
    name: 'email',
    label: 'Email',
    hint: 'Where requests for proposals are sent: one address.',
    access: 'writable',
    kind: { type: 'email', maxLength: EMAIL_MAX_LENGTH },
    required: true,
    whenNull: 'refused',
  },
  {
    name: 'city',
    label: 'City',
    access: 'writable',
    kind: { type: 'line', maxLength: VENUE_LIMITS.place },
    required: true,
    whenNull: 'refused',
  },
  {
    name: 'state',
    label: 'State or region',
    access: 'writable',
    kind: { type: 'line', maxLength: VENUE_LIMITS.place },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'country',
    label: 'Country',
    access: 'writable',
    kind: { type: 'line', maxLength: VENUE_LIMITS.place },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'contactName',
    label: 'Contact name',
    access: 'writable',
    kind: { type: 'line', maxLength: VENUE_LIMITS.contactName },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'phone',
    label: 'Phone',
    access: 'writable',
    kind: { type: 'line', maxLength: VENUE_LIMITS.phone },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'website',
    label: 'Website',
    hint: 'An https:// address.',
    access: 'writable',
    kind: { type: 'https_url', maxLength: VENUE_LIMITS.website },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'guestRooms',
    label: 'Guest rooms',
    access: 'writable',
    kind: { type: 'count' },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'largestMeetingRoomCapacity',
    label: 'Largest meeting room (people)',
    access: 'writable',
    kind: { type: 'count' },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'notes',
    label: 'Notes',
    hint: 'For the planners of the organization; never sent to the venue.',
    access: 'writable',
    kind: { type: 'text', maxLength: VENUE_LIMITS.notes },
    required: false,
    whenNull: 'null',
  },
  { name: 'place_id', label: 'Place', access: 'read_only', source: 'service' },
  { name: 'countryCode', label: 'Country code', access: 'read_only', source: 'service' },
  { name: 'timeZone', label: 'Time zone', access: 'read_only', source: 'service' },
  { name: 'archivedAt', label: 'Archived', access: 'read_only', source: 'service' },
  { name: 'createdAt', label: 'Added', access: 'read_only', source: 'service' },
  { name: 'updatedAt', label: 'Last changed', access: 'read_only', source: 'service' },
] as const satisfies readonly FieldDescription[];

export type VenueFieldName = (typeof VENUE_FIELDS)[number]['name'];

/** The label people read for each field of a venue. */
export const VENUE_FIELD_LABELS: Record<VenueFieldName, string> = fieldLabels(VENUE_FIELDS);

/** Fields accepted in a body and ignored: the organization always comes from the caller. */
const IGNORED = ['organizationId'];

/** The fields whose change makes the city resolve again. */
const PLACE_FIELDS = ['city', 'state', 'country'] as const;

function requireObject(body: unknown): asserts body is Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: '', code: 'invalid_type', message: 'the request body must be a JSON object' },
    ]);
  }
}

export interface NewVenueContext {
  id: string;
  now: string;
}

/**
 * A new venue from a create body (D20), or a ValidationError listing every problem. The place is not
 * resolved here: the app layer looks the city up and adds it with withVenuePlace.
 */
export function buildNewVenue(body: unknown, context: NewVenueContext): Venue {
  requireObject(body);
  const problems = new Problems();
  const values = readNewResource(VENUE_FIELDS, body, problems, { now: context.now, ignored: IGNORED });
  if (!problems.empty) throw new ValidationError(problems.list);
  return {
    id: context.id,
    ...(values as Omit<Venue, 'id' | 'archivedAt' | 'createdAt' | 'updatedAt'>),
    archivedAt: null,
    createdAt: context.now,
    updatedAt: context.now,
  };
}

export interface VenueUpdate {
  venue: Venue;
  changed: boolean;
  /** City, state or country changed: the place was dropped and must be resolved again (withVenuePlace). */
  placeChanged: boolean;
}

/**
 * Applies a merge patch (D6) to a venue: VenueArchivedError for an archived venue, ValidationError
 * listing every problem, else the updated venue (the same object when nothing changed).
 */
export function applyVenueUpdate(current: Venue, body: unknown, context: { now: string }): VenueUpdate {
  requireObject(body);
  if (current.archivedAt !== null) throw new VenueArchivedError(current.name);
  const problems = new Problems();
  const merged = mergeResource(VENUE_FIELDS, current as unknown as Record<string, unknown>, body, problems, {
    now: context.now,
    ignored: IGNORED,
  }) as unknown as Venue;
  if (!problems.empty) throw new ValidationError(problems.list);
  const changed = VENUE_FIELDS.some(
    (field) => field.access === 'writable' && merged[field.name] !== current[field.name],
  );
  if (!changed) return { venue: current, changed: false, placeChanged: false };
  const placeChanged = PLACE_FIELDS.some((key) => merged[key] !== current[key]);
  const updated: Venue = { ...merged, updatedAt: context.now };
  return { venue: placeChanged ? withVenuePlace(updated, null) : updated, changed: true, placeChanged };
}

/** The place a venue's city resolves to when exactly one matches (as for a candidate city, D20). */
export interface VenuePlace {
  place_id: string;
  countryCode: string;
  timeZone?: string;
}

/** The venue with the place its city resolved to, or with none, its fields in the table's order. */
export function withVenuePlace(venue: Venue, place: VenuePlace | null): Venue {
  const { place_id: _id, countryCode: _code, timeZone: _zone, ...rest } = venue;
  const source: Record<string, unknown> = { ...rest, ...place };
  const ordered: Record<string, unknown> = {};
  for (const { name } of VENUE_FIELDS) if (source[name] !== undefined) ordered[name] = source[name];
  return ordered as unknown as Venue;
}

/** The venue archived (D20's DELETE); archiving an archived venue changes nothing. */
export function archiveVenue(venue: Venue, now: string): Venue {
  if (venue.archivedAt !== null) return venue;
  return { ...venue, archivedAt: now, updatedAt: now };
}

/** What a request for proposals shows of its venue (D21). */
export interface VenueSummary {
  id: string;
  name: string;
  email: string;
  city: string;
}

export function venueSummary(venue: Venue): VenueSummary {
  return { id: venue.id, name: venue.name, email: venue.email, city: venue.city };
}

/** "city, state, country" without empty parts, as candidate cities are written (D8). */
export function venueAddress(venue: Pick<Venue, 'city' | 'state' | 'country'>): string {
  return formattedAddress({
    city: venue.city,
    state: venue.state ?? undefined,
    country: venue.country ?? undefined,
  });
}

/**
 * A venue's name or city as the directory sorts and searches it (D20): lower case, accents removed,
 * spaces collapsed, like a place's name ("São Paulo" and "sao paulo" are the same).
 */
export const venueSearchKey = (text: string): string => placeKey(text);
