/**
 * The request as sent (D26): the snapshot of exactly what D22 lets venues read, and the changes
 * between two snapshots, field by field as the API names them (`accommodations.2027-05-12.Single`,
 * `agenda[<sessionId>]`), each with its label in words as the History names it and its value before
 * and after. What venues never read (the budget, `otherNotes`, the approvers) is not in a snapshot,
 * so it is never pending. Pure: the app layer stores versions and mails their changes.
 */
import type { Actor } from './changes.js';
import { deepEqual } from './deep-equal.js';
import { EVENT_FIELDS } from './event-field-table.js';
import { type AgendaItem, type DateRange, type EventDetails, ROOM_TYPES, type RoomCounts } from './types.js';

/** A session of the agenda as the venue reads it: times, room, people, AV and food and beverage needs. */
export type VenueSession = Pick<
  AgendaItem,
  | 'id'
  | 'title'
  | 'dates'
  | 'startTime'
  | 'endTime'
  | 'roomType'
  | 'capacity'
  | 'avRequirements'
  | 'fbRequirements'
  | 'avOtherText'
  | 'fbOtherText'
>;

/** The event as its venues read it (D22): never the budget, `otherNotes`, the approvers or the other venues. */
export interface VenueEventView {
  name: string;
  currency: string;
  eventDates: EventDetails['eventDates'];
  /** The candidate cities, as `city, state, country`. */
  cities: string[];
  numPeople: number;
  flexibility: string | null;
  accommodations: EventDetails['accommodations'];
  meetingRoomDates: EventDetails['meetingRoomDates'];
  numMeetingRoomsNeeded: number | null;
  meetingRooms: string | null;
  agenda: VenueSession[];
  foodBeverageRequirements: string | null;
  additionalServices: string[];
  decisionFactors: string[];
  decisionFactorOtherText: string | null;
  decisionDeadline: string | null;
  notesForVenue: string | null;
}

/** A version's snapshot: the request exactly as its venues read it. */
export type RequestSnapshot = VenueEventView;

/** What D22 lets venues read of an event: the snapshot a version keeps. */
export function venueEventView(details: EventDetails): VenueEventView {
  return {
    name: details.name,
    currency: details.currency,
    eventDates: details.eventDates,
    cities: details.formattedLocations.map((location) => location.formatted_address),
    numPeople: details.numPeople,
    flexibility: details.flexibility,
    accommodations: details.accommodations,
    meetingRoomDates: details.meetingRoomDates,
    numMeetingRoomsNeeded: details.numMeetingRoomsNeeded,
    meetingRooms: details.meetingRooms,
    agenda: details.agenda.map((session) => ({
      id: session.id,
      title: session.title,
      dates: session.dates,
      startTime: session.startTime,
      endTime: session.endTime,
      roomType: session.roomType,
      capacity: session.capacity,
      avRequirements: session.avRequirements,
      fbRequirements: session.fbRequirements,
      avOtherText: session.avOtherText,
      fbOtherText: session.fbOtherText,
    })),
    foodBeverageRequirements: details.foodBeverageRequirements,
    additionalServices: details.additionalServices,
    decisionFactors: details.decisionFactors,
    decisionFactorOtherText: details.decisionFactorOtherText,
    decisionDeadline: details.decisionDeadline,
    notesForVenue: details.notesForVenue,
  };
}

/** One change of what venues read: where (the API's path), in words, and the values before and after. */
export interface RequestChange {
  /** The API's path: `numPeople`, `accommodations.2027-05-12.Single`, `agenda[<sessionId>]`. */
  field: string;
  /** In words, as the History names it: "Attendees", "Single rooms, night of Wed, May 12, 2027". */
  label: string;
  /** The value as venues read it before; null where there was none (a room cell, a session added). */
  before: unknown;
  after: unknown;
}

const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `2027-03-01` → `Mon, Mar 1, 2027`, as the dashboard writes a day. */
export const dayWords = (date: string): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(date) ? DAY.format(new Date(`${date}T00:00:00Z`)) : date;

/** The fields of a snapshot compared whole, in the order of the details view, with the API's field name. */
const WHOLE_FIELDS = [
  ['name', 'name'],
  ['eventDates', 'eventDates'],
  ['cities', 'formattedLocations'],
  ['numPeople', 'numPeople'],
  ['flexibility', 'flexibility'],
  ['decisionDeadline', 'decisionDeadline'],
] as const satisfies readonly (readonly [keyof VenueEventView, keyof typeof EVENT_FIELDS])[];

const LATER_FIELDS = [
  ['meetingRoomDates', 'meetingRoomDates'],
  ['numMeetingRoomsNeeded', 'numMeetingRoomsNeeded'],
  ['foodBeverageRequirements', 'foodBeverageRequirements'],
  ['meetingRooms', 'meetingRooms'],
  ['notesForVenue', 'notesForVenue'],
  ['decisionFactors', 'decisionFactors'],
  ['decisionFactorOtherText', 'decisionFactorOtherText'],
  ['additionalServices', 'additionalServices'],
] as const satisfies readonly (readonly [keyof VenueEventView, keyof typeof EVENT_FIELDS])[];

/** A room cell as venues read it: a count, or null when the night has none of that type. */
const cell = (counts: RoomCounts | undefined, type: (typeof ROOM_TYPES)[number]): number | null => {
  const value = counts?.[type];
  return typeof value === 'number' && value > 0 ? value : null;
};

function wholeChanges(
  fields: readonly (readonly [keyof VenueEventView, keyof typeof EVENT_FIELDS])[],
  before: VenueEventView,
  after: VenueEventView,
): RequestChange[] {
  return fields
    .filter(([key]) => !deepEqual(before[key] ?? null, after[key] ?? null))
    .map(([key, field]) => ({
      field,
      label: EVENT_FIELDS[field].label,
      before: before[key] ?? null,
      after: after[key] ?? null,
    }));
}

function roomChanges(before: VenueEventView, after: VenueEventView): RequestChange[] {
  const nights = [...new Set([...Object.keys(before.accommodations), ...Object.keys(after.accommodations)])];
  return nights.sort().flatMap((night) =>
    ROOM_TYPES.flatMap((type) => {
      const [from, to] = [cell(before.accommodations[night], type), cell(after.accommodations[night], type)];
      if (from === to) return [];
      return [
        {
          field: `accommodations.${night}.${type}`,
          label: `${type} rooms, night of ${dayWords(night)}`,
          before: from,
          after: to,
        },
      ];
    }),
  );
}

/** The first day a session is held on, for ordering; sessions without days come last. */
const firstDay = (session: VenueSession): string => [...session.dates].sort()[0] ?? '9999-12-31';

function agendaChanges(before: VenueEventView, after: VenueEventView): RequestChange[] {
  const from = new Map(before.agenda.map((session) => [session.id, session]));
  const to = new Map(after.agenda.map((session) => [session.id, session]));
  // Sessions in the order venues read them: by first day and time; removed ones where they were.
  const ids = [...new Set([...to.keys(), ...from.keys()])];
  const key = (id: string) => {
    const session = (to.get(id) ?? from.get(id))!;
    return `${firstDay(session)} ${session.startTime} ${id}`;
  };
  ids.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return ids.flatMap((id) => {
    const [was, is] = [from.get(id) ?? null, to.get(id) ?? null];
    if (deepEqual(was, is)) return [];
    return [{ field: `agenda[${id}]`, label: `Session “${(is ?? was)!.title}”`, before: was, after: is }];
  });
}

/**
 * What changed for venues from one snapshot to the next, in the order of the details view: each
 * whole field that differs, each room cell (night × type) added, changed or cleared, each session
 * added, changed (moved included) or removed. Empty when venues would read the same request, as
 * after a change and its undo.
 */
export function requestChanges(before: VenueEventView, after: VenueEventView): RequestChange[] {
  return [
    ...wholeChanges(WHOLE_FIELDS, before, after),
    ...roomChanges(before, after),
    ...wholeChanges(LATER_FIELDS, before, after),
    ...agendaChanges(before, after),
  ];
}

/** The API paths of some changes, each once, in order: a version's `changedFields`. */
export const changedPaths = (changes: readonly RequestChange[]): string[] => [
  ...new Set(changes.map((change) => change.field)),
];

/** A change in words, as a mail, the venue's page and the dashboard say it: "Attendees: 120 → 140". */
export interface ChangeInWords {
  label: string;
  before: string;
  after: string;
}

const NONE = '—';
const NUMBER = new Intl.NumberFormat('en-US');

function rangeWords(range: DateRange): string {
  return range.startDate === range.endDate
    ? dayWords(range.startDate)
    : `${dayWords(range.startDate)} – ${dayWords(range.endDate)}`;
}

function sessionWords(value: unknown): string {
  if (value === null || typeof value !== 'object') return 'not on the agenda';
  const session = value as VenueSession;
  const needs = [
    ...session.avRequirements,
    session.avOtherText,
    ...session.fbRequirements,
    session.fbOtherText,
  ]
    .map((need) => need.trim())
    .filter(Boolean);
  return [
    `“${session.title}”`,
    session.dates.map(dayWords).join(', '),
    `${session.startTime}–${session.endTime}`,
    session.roomType,
    session.capacity > 0 ? `${NUMBER.format(session.capacity)} people` : '',
    needs.length > 0 ? `needs: ${needs.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function valueWords(field: string, value: unknown): string {
  if (field.startsWith('agenda[')) return sessionWords(value);
  if (field.startsWith('accommodations.')) {
    return typeof value === 'number' ? `${NUMBER.format(value)} ${value === 1 ? 'room' : 'rooms'}` : 'none';
  }
  if (value === null || value === undefined) return NONE;
  if (typeof value === 'number') return NUMBER.format(value);
  if (field === 'eventDates' || field === 'meetingRoomDates') {
    const ranges = value as DateRange[];
    return ranges.length === 0 ? NONE : ranges.map(rangeWords).join('; ');
  }
  if (field === 'decisionDeadline' && typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dayWords(value);
    const moment = new Date(value);
    if (Number.isNaN(moment.getTime())) return value;
    const utc = moment.toISOString();
    return `${dayWords(utc.slice(0, 10))}, ${utc.slice(11, 16)} UTC`;
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? NONE : value.map(String).join(field === 'formattedLocations' ? '; ' : ', ');
  }
  if (typeof value === 'string') return value.trim() === '' ? NONE : value;
  return String(value);
}

/** A change's values in words: counts with separators, days as the dashboard writes them, sessions summed up. */
export function changeInWords(change: RequestChange): ChangeInWords {
  return {
    label: change.label,
    before: valueWords(change.field, change.before),
    after: valueWords(change.field, change.after),
  };
}

/** A version of the request as sent (D26): version 1 at the first send, then each send of changes. */
export interface RequestVersion {
  version: number;
  sentAt: string;
  sentBy: Actor;
  message: string | null;
  /** What changed from the version before; empty for version 1 and for a message alone. */
  changes: RequestChange[];
}

/** A version with its snapshot, as the store keeps it. */
export interface StoredRequestVersion extends RequestVersion {
  snapshot: RequestSnapshot;
}
