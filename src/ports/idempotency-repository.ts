/**
 * Idempotency keys of creates (Stripe's semantics): per organization, a key remembers the request it
 * came with and the event it created, for 24 hours. The record is written in the same transaction
 * as the event (see EventRepository.insert), so it survives a restart and never exists without it.
 */

export interface IdempotencyRecord {
  organizationId: string;
  key: string;
  /** A digest of the request body, to tell a replay from a reuse of the key. */
  requestHash: string;
  eventId: string;
  /** The `grantedTo` of the original answer, replayed as it was. */
  grantedTo: number;
  createdAt: string;
}

/** The key a create claims; EventRepository.insert stores it with the event. */
export interface IdempotencyClaim {
  key: string;
  requestHash: string;
  /** A record of the same key created before this instant has expired and is replaced. */
  expiredBefore: string;
}

export interface IdempotencyRepository {
  /** The record of a key in the organization, unless it was created before `notBefore`. */
  find(organizationId: string, key: string, notBefore: string): Promise<IdempotencyRecord | undefined>;
  /** Forgets every record created before `before`; resolves to how many there were. */
  deleteExpired(before: string): Promise<number>;
}

/**
 * Thrown by EventRepository.insert when the claimed key already has a live record (another request
 * with the key committed first): nothing was written.
 */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`idempotency key ${JSON.stringify(key)} is already recorded`);
    this.name = 'IdempotencyKeyTakenError';
  }
}
