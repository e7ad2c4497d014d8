/**
 * Typed domain errors. Each carries a stable `code`; each driving adapter maps them to HTTP statuses in
 * one place: the API in http/problem.ts; the dashboard in web/submit-form.ts (the refusals a form shows
 * again with its problems) and web/plugin.ts (every other error, as an error page).
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

/** Too many requests for a "Forgot password" link for this email or from this address; says nothing of the email. */
export class PasswordResetThrottledError extends DomainError {
  readonly code = 'password_reset_throttled';
  constructor(readonly retryAfterSeconds: number) {
    super(
      `Too many requests for a password link. Try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minute(s).`,
    );
  }
}

/** A change to an archived venue, or a request for proposals to one (D20: archived venues leave the pickers). */
export class VenueArchivedError extends DomainError {
  readonly code = 'venue_archived';
  constructor(venueName: string) {
    super(`The venue "${venueName}" is archived; it can no longer be changed or sent requests.`);
  }
}

/** A venue request on an event that is booked, completed or cancelled: its sourcing is over (D21). */
export class EventNotSourcingError extends DomainError {
  readonly code = 'event_not_sourcing';
  constructor(readonly status: string) {
    super(`The event is ${status.replaceAll('_', ' ')}: venues can no longer be asked for proposals.`);
  }
}

/** A second request to the same venue for the same event (D21: one per venue and event). */
export class VenueAlreadyRequestedError extends DomainError {
  readonly code = 'venue_already_requested';
  constructor(readonly requestId: string) {
    super('This venue already has a request for this event.');
  }
}

/** A step that needs the request sent while it is still only on the shortlist. */
export class RequestNotSentError extends DomainError {
  readonly code = 'request_not_sent';
  constructor() {
    super('The request is on the shortlist and has not been sent to the venue yet.');
  }
}

/** A proposal, turn-down or withdrawal on a request that is closed (turned down, awarded, declined, withdrawn, no response). */
export class RequestClosedError extends DomainError {
  readonly code = 'request_closed';
  constructor(readonly status: string) {
    super(`The request is closed (${status.replaceAll('_', ' ')}); nothing more can be done on it.`);
  }
}

/**
 * An award, a decline or a revision asked of a request that has no proposal standing (D24, D26: only a
 * `proposed` request).
 */
export class RequestNotProposedError extends DomainError {
  readonly code = 'request_not_proposed';
  constructor(
    readonly status: string,
    what = 'awarded or declined',
  ) {
    super(`Only a request with a proposal can be ${what}; this one is ${status.replaceAll('_', ' ')}.`);
  }
}

/** An award of a proposal whose validUntil date has passed (D24): the venue must send a revision first. */
export class ProposalExpiredError extends DomainError {
  readonly code = 'proposal_expired';
  constructor(readonly validUntil: string) {
    super(`The proposal was valid until ${validUntil}; ask the venue for a revision before awarding it.`);
  }
}

/** A version of the request sent with nothing to tell (D26): no change pending and no message, or the same one again. */
export class NothingToSendError extends DomainError {
  readonly code = 'nothing_to_send';
  constructor(message = 'Venues already read the request as it is: there are no changes to send.') {
    super(message);
  }
}

/** A venue's proposal written on a version of the request that is no longer the latest (D26): not stored. */
export class RequestChangedError extends DomainError {
  readonly code = 'request_changed';
  constructor(readonly openedOn: number) {
    super('The request changed while the proposal was being written: nothing was stored.');
  }
}

/** Changes sent to venues before the request went out, or after the event is booked (D26). */
export class EventNotAskingVenuesError extends DomainError {
  readonly code = 'event_not_asking_venues';
  constructor(readonly status: string) {
    super(
      `The event is ${status.replaceAll('_', ' ')}: changes are sent to venues only while they are asked for proposals.`,
    );
  }
}
