/**
 * Typed domain errors. Each carries a stable `code`; each driving adapter maps them to HTTP statuses in
 * one place: the API in http/problem.ts, the dashboard's error pages in web/plugin.ts.
 */

export interface Problem {
  field: string;
  code: string;
  message: string;
}

export interface OrphanedSession {
  sessionId: string;
  title: string;
  droppedDates: string[];
  fullyOrphaned: boolean;
}

export abstract class DomainError extends Error {
  abstract readonly code: string;
}

export class ValidationError extends DomainError {
  readonly code = 'validation_failed';
  constructor(readonly problems: Problem[]) {
    super(
      problems.length === 1
        ? `${problems[0]!.field}: ${problems[0]!.message}`
        : `The request has ${problems.length} problems; see errors.`,
    );
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
  constructor(message = 'A valid API key is required in the x-api-key header.') {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

export class EventCancelledError extends DomainError {
  readonly code = 'event_cancelled';
  constructor() {
    super('The event is cancelled and cannot be updated; an operator must reopen it first.');
  }
}

export class AgendaSessionsOrphanedError extends DomainError {
  readonly code = 'agenda_sessions_orphaned';
  constructor(readonly orphanedSessions: OrphanedSession[]) {
    super(
      `The change to meetingRoomDates would leave ${orphanedSessions.length} agenda session(s) without some of their dates; move or remove them in the same request and retry.`,
    );
  }
}

/** A conditional update (If-Match) whose entity tags no longer match the event. */
export class PreconditionFailedError extends DomainError {
  readonly code = 'precondition_failed';
  constructor() {
    super(
      'The event has changed since you read it (If-Match does not list its ETag); read it again and retry.',
    );
  }
}

/** An Idempotency-Key used again within its lifetime with a different request body. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';
  constructor() {
    super(
      'This Idempotency-Key was used in the last 24 hours with a different request body; use a new key for a new request.',
    );
  }
}

/** An Idempotency-Key whose first request is still being processed. */
export class IdempotencyKeyInUseError extends DomainError {
  readonly code = 'idempotency_key_in_use';
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry once it has finished.');
  }
}

/** A dashboard status move (D16) that this person may not make, or not from the event's status now. */
export class MoveNotAllowedError extends DomainError {
  readonly code = 'move_not_allowed';
}

export interface ChecklistItem {
  /** The field to fill in, named as in the API (and as the form control's `name`). */
  field: string;
  message: string;
}

/** "Request approval" or "Send to venues" while D16's pre-send checklist has missing items. */
export class ChecklistIncompleteError extends DomainError {
  readonly code = 'checklist_incomplete';
  constructor(readonly missing: ChecklistItem[]) {
    super(`The event is not ready to send: ${missing.map((item) => item.message).join(' ')}`);
  }
}

/** A dashboard create by a person in no group: the event would be granted to no one, its creator included (D11). */
export class NotInAGroupError extends DomainError {
  readonly code = 'not_in_a_group';
  constructor() {
    super(
      'You are in no group, so an event you create would be visible to no one, you included. Ask an operator to add you to a group; nothing was created.',
    );
  }
}

export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited';
  constructor(readonly retryAfterSeconds: number) {
    super(`Rate limit exceeded; retry after ${retryAfterSeconds} second(s).`);
  }
}

/** An operator command refers to something that does not fit (e.g. a status change that is not allowed). */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
}

export class ServiceUnavailableError extends DomainError {
  readonly code = 'service_unavailable';
}

/**
 * A sign-in that did not succeed. One message whatever the reason (unknown email, wrong password,
 * deactivated person, no password yet), so the answer never tells whether an account exists.
 */
export class SignInRefusedError extends DomainError {
  readonly code = 'sign_in_refused';
  constructor() {
    super('That email and password do not match an account.');
  }
}

/** Too many failed sign-ins for this email or from this address; says nothing of whether the email exists. */
export class SignInThrottledError extends DomainError {
  readonly code = 'sign_in_throttled';
  constructor(readonly retryAfterSeconds: number) {
    super(
      `Too many failed sign-in attempts. Try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minute(s).`,
    );
  }
}
