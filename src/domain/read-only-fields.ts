/** Read-only fields: a client may send back what it read, but may not change it (D6). */
import { deepEqual } from './deep-equal.js';
import { READ_ONLY_FIELDS, type ReadOnlyField } from './event-field-table.js';
import type { Problems } from './problems.js';
import type { EventDetails } from './types.js';
import { canonicalUuid } from './values.js';

export function isReadOnlyField(key: string): key is ReadOnlyField {
  return (READ_ONLY_FIELDS as readonly string[]).includes(key);
}

/** Fields accepted and ignored everywhere: the organization always comes from the API key. */
export const IGNORED_FIELDS = ['organizationId'] as const;

export function checkReadOnlyField(
  key: ReadOnlyField,
  value: unknown,
  stored: EventDetails,
  problems: Problems,
): void {
  const storedValue = key === 'event_dates' ? stored.eventDates : stored[key];
  if (deepEqual(value, storedValue)) return;
  // The id is a UUID: sent back in another case, it is the same id (as in the path).
  if (key === 'id' && typeof value === 'string' && canonicalUuid(value) === canonicalUuid(stored.id)) return;
  const hint =
    key === 'agenda'
      ? 'use agendaOperations to add, update or remove sessions'
      : key === 'eventDates' || key === 'event_dates' || key === 'location'
        ? 'it is derived from the other fields'
        : 'it cannot be changed through the API';
  problems.add(key, 'read_only', `is read-only: ${hint}`);
}
