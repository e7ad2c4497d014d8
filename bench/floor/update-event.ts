/** An update body (D5–D7) applied to the stored details: every field checked, merged, derived again. */
import {
  applyAgendaOperations,
  judgeAgendaDates,
  type OrphanedSession,
  type RejectedDates,
} from './agenda.js';
import { isUuid, jsonEqual, type Problem } from './checks.js';
import { eventDatesOf, formattedAddress } from './derived.js';
import { applyWritableField, WRITABLE_FIELDS } from './event-fields.js';
import type { Details, Location } from './event-model.js';
import { invalid, Refusal } from './refusal.js';

const READ_ONLY_FIELDS = new Set([
  'id',
  'status',
  'currency',
  'location',
  'eventDates',
  'event_dates',
  'agenda',
  'createdAt',
  'updatedAt',
]);

export interface UpdateContext {
  now: string;
  newId: () => string;
}

const canonical = (id: string) => (isUuid(id) ? id.toLowerCase() : id);

/** A client may send back what it read, but may not change it (D6). */
function checkReadOnlyField(key: string, value: unknown, stored: Details, problems: Problem[]): void {
  const storedValue = key === 'event_dates' ? stored.eventDates : stored[key as keyof Details];
  if (jsonEqual(value, storedValue)) return;
  if (key === 'id' && typeof value === 'string' && canonical(value) === canonical(stored.id)) return;
  const hint =
    key === 'agenda'
      ? 'use agendaOperations to add, update or remove sessions'
      : key === 'eventDates' || key === 'event_dates' || key === 'location'
        ? 'it is derived from the other fields'
        : 'it cannot be changed through the API';
  problems.push({ field: key, code: 'read_only', message: `is read-only: ${hint}` });
}

/** A location as derived before its place is looked up: what the service compares to decide "changed". */
function derivedLocation({
  city,
  state,
  country,
  formatted_address: _typed,
  ...sentPlace
}: Location): Location {
  return {
    city,
    ...(state === undefined ? {} : { state }),
    ...(country === undefined ? {} : { country }),
    formatted_address: formattedAddress({ city, state, country }),
    ...sentPlace,
  };
}

const orphaned = (orphans: OrphanedSession[]) =>
  new Refusal(
    409,
    'agenda_sessions_orphaned',
    `The change to meetingRoomDates would leave ${orphans.length} agenda session(s) without some of their dates; move or remove them in the same request and retry.`,
    { orphanedSessions: orphans },
  );

/**
 * The details after the update, or undefined when it changes nothing. Throws a Refusal: 409 for a
 * cancelled event, 400 with every problem, 409 for sessions a meetingRoomDates change would orphan.
 * `current` is never modified; the result shares every value the update left alone. The caller
 * settles the locations' places when `formattedLocations` changed (settlePlaces).
 */
export function applyUpdate(
  current: Details,
  body: Record<string, unknown>,
  context: UpdateContext,
): Details | undefined {
  if (current.status === 'cancelled') {
    throw new Refusal(
      409,
      'event_cancelled',
      'The event is cancelled and cannot be updated; an operator must reopen it first.',
    );
  }
  const problems: Problem[] = [];
  const draft: Details = { ...current };
  let meetingRoomDatesValid = true;
  for (const key in body) {
    if (key === 'organizationId' || key === 'agendaOperations') continue;
    const value = body[key];
    if (READ_ONLY_FIELDS.has(key)) checkReadOnlyField(key, value, current, problems);
    else if (WRITABLE_FIELDS.has(key)) {
      const before = problems.length;
      applyWritableField(draft, key, value, problems);
      if (key === 'meetingRoomDates' && problems.length > before) meetingRoomDatesValid = false;
    } else problems.push({ field: key, code: 'unknown_field', message: 'is not a field of an event' });
  }

  let datesSetAt = new Map<string, string>();
  let rejectedDates: RejectedDates[] = [];
  if (body.agendaOperations !== undefined && body.agendaOperations !== null) {
    const result = applyAgendaOperations(current.agenda, body.agendaOperations, problems, context.newId);
    draft.agenda = result.agenda;
    datesSetAt = result.datesSetAt;
    rejectedDates = result.rejectedDates;
  } else if (body.agendaOperations === null) {
    problems.push({
      field: 'agendaOperations',
      code: 'invalid_type',
      message: 'must be an array of operations',
    });
  }
  const orphans = meetingRoomDatesValid
    ? judgeAgendaDates(draft.agenda, draft.meetingRoomDates, datesSetAt, rejectedDates, problems)
    : [];
  if (problems.length > 0) throw invalid(problems);
  if (orphans.length > 0) throw orphaned(orphans);

  // Derived fields follow what they derive from; untouched ones stay as stored.
  if (draft.accommodations !== current.accommodations || draft.meetingRoomDates !== current.meetingRoomDates)
    draft.eventDates = eventDatesOf(draft);
  if (draft.formattedLocations !== current.formattedLocations) {
    draft.formattedLocations = draft.formattedLocations.map(derivedLocation);
    draft.location = draft.formattedLocations.map((location) => location.formatted_address).join('; ');
  }
  let changed = false;
  for (const key in draft) {
    const field = key as keyof Details;
    if (draft[field] !== current[field] && !jsonEqual(draft[field], current[field])) {
      changed = true;
      break;
    }
  }
  if (!changed) return undefined;
  draft.updatedAt = context.now;
  return draft;
}

/** The candidate locations a body sends, read as they are, for looking their places up before the write. */
export function locationsSent(
  body: Record<string, unknown>,
): Array<Pick<Location, 'city' | 'state' | 'country'>> | undefined {
  const sent = body.formattedLocations;
  if (!Array.isArray(sent)) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return sent.map((item) => {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    return { city: text(entry.city) ?? '', state: text(entry.state), country: text(entry.country) };
  });
}
