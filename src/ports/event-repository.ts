import type { StoredEvent } from '../domain/types.js';
import type { IdempotencyClaim } from './idempotency-repository.js';

export interface EventPage {
  /** Each list item as ready-to-send JSON, newest first. */
  items: string[];
  total: number;
}

export interface EventRepository {
  /**
   * Stores a new event and grants it to its creator and the creator's approvers, in one transaction.
   * With a claim, the idempotency key is recorded in that transaction too; when the key already has a
   * live record, nothing is written and it rejects with IdempotencyKeyTakenError.
   */
  insert(event: StoredEvent, idempotency?: IdempotencyClaim): Promise<{ grantedTo: number }>;
  /** The full details view as ready-to-send JSON, or undefined outside the organization. */
  findDocument(organizationId: string, id: string): Promise<string | undefined>;
  find(organizationId: string, id: string): Promise<StoredEvent | undefined>;
  /** The organization that owns an event (operator commands address events by id alone). */
  findOrganizationOf(id: string): Promise<string | undefined>;
  /**
   * Reads, changes and writes one event atomically, so concurrent updates never lose each other.
   * `change` returns its argument unchanged for "nothing to write" and throws to abort with nothing written.
   * Resolves to undefined when the event is not in the organization.
   */
  update(
    organizationId: string,
    id: string,
    change: (current: StoredEvent) => StoredEvent,
  ): Promise<StoredEvent | undefined>;
  list(organizationId: string, page: { offset: number; limit: number }): Promise<EventPage>;
}
