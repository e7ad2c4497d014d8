/**
 * The small bodies of the request steps (D21, D22, D24): adding a venue, turning down, declining and
 * awarding. Each is read from plain JSON (or a form turned into it) with every problem named at once.
 */
import { isPastDate } from './anywhere-on-earth.js';
import { ValidationError } from './errors.js';
import { INVALID, Problems } from './problems.js';
import { LIMITS } from './types.js';
import {
  canonicalUuid,
  checkDate,
  checkText,
  describeType,
  isPlainObject,
  isUuid,
  rejectUnknownKeys,
} from './values.js';
import {
  DECLINE_REASONS,
  type Decision,
  type DeclineReason,
  TURN_DOWN_REASONS,
  type TurnDown,
  type TurnDownReason,
} from './venue-request.js';

function requireObject(body: unknown): asserts body is Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: '', code: 'invalid_type', message: 'the request body must be a JSON object' },
    ]);
  }
}

export interface NewVenueRequest {
  venueId: string;
  /** Given by the planner; null lets the default apply when the request is sent. */
  responseDueDate: string | null;
}

/** `{ venueId, responseDueDate? }` (D21): the venue's id and a due date that is not in the past. */
export function readNewVenueRequest(body: unknown, now: string): NewVenueRequest {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['venueId', 'responseDueDate'], '', problems);
  let venueId = '';
  if (body.venueId === undefined || body.venueId === null) {
    problems.add('venueId', 'required', 'is required');
  } else if (typeof body.venueId !== 'string' || !isUuid(body.venueId)) {
    problems.add('venueId', 'invalid_format', 'must be the id (a UUID) of a venue of the organization');
  } else {
    venueId = canonicalUuid(body.venueId);
  }
  let responseDueDate: string | null = null;
  if (body.responseDueDate !== undefined && body.responseDueDate !== null) {
    const date = checkResponseDueDate(body.responseDueDate, problems, now);
    if (date !== INVALID) responseDueDate = date;
  }
  if (!problems.empty) throw new ValidationError(problems.list);
  return { venueId, responseDueDate };
}

/**
 * `{ responseDueDate }` (D28): a request's new reply date, required, a calendar date not in the past
 * (D21's rule).
 */
export function readReplyDateMove(body: unknown, now: string): { responseDueDate: string } {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['responseDueDate'], '', problems);
  let responseDueDate = '';
  if (body.responseDueDate === undefined || body.responseDueDate === null) {
    problems.add('responseDueDate', 'required', 'is required');
  } else {
    const date = checkResponseDueDate(body.responseDueDate, problems, now);
    if (date !== INVALID) responseDueDate = date;
  }
  if (!problems.empty) throw new ValidationError(problems.list);
  return { responseDueDate };
}

function checkResponseDueDate(value: unknown, problems: Problems, now: string): string | typeof INVALID {
  const date = checkDate(value, 'responseDueDate', problems);
  if (date === INVALID) return INVALID;
  if (isPastDate(date, now)) {
    problems.add('responseDueDate', 'in_the_past', `must not be in the past (got ${date})`);
    return INVALID;
  }
  return date;
}

/**
 * `{ reason, comment? }` against a list of reasons: the reason is required, the comment is optional
 * (at most 1,000 characters, trimmed; blank is none) except for `other`, which needs one.
 */
function readReasoned<Reason extends string>(
  body: unknown,
  reasons: readonly Reason[],
): { reason: Reason; comment: string | null } {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['reason', 'comment'], '', problems);
  let reason: Reason | undefined;
  if (body.reason === undefined || body.reason === null || body.reason === '') {
    problems.add('reason', 'required', `is required: one of ${reasons.join(', ')}`);
  } else if (typeof body.reason !== 'string' || !(reasons as readonly string[]).includes(body.reason)) {
    problems.add(
      'reason',
      'invalid_value',
      `must be one of ${reasons.join(', ')}${typeof body.reason === 'string' ? '' : `, not ${describeType(body.reason)}`}`,
    );
  } else {
    reason = body.reason as Reason;
  }
  const comment = readComment(body.comment, problems);
  if (
    reason === 'other' &&
    comment === null &&
    !problems.list.some((problem) => problem.field === 'comment')
  ) {
    problems.add('comment', 'required', 'is required when the reason is "other": say why');
  }
  if (!problems.empty || reason === undefined) throw new ValidationError(problems.list);
  return { reason, comment };
}

/** An optional comment: trimmed, blank is none, at most 1,000 characters. Records a problem as `comment`. */
function readComment(value: unknown, problems: Problems): string | null {
  if (value === undefined || value === null) return null;
  const text = checkText(value, 'comment', problems, { max: LIMITS.freeText });
  if (text === INVALID) return null;
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** A venue turning a request down (D22): `{ reason, comment? }`. */
export function readTurnDown(body: unknown): TurnDown {
  return readReasoned<TurnDownReason>(body, TURN_DOWN_REASONS);
}

/** A planner declining a proposal (D24): `{ reason, comment? }`. */
export function readDecline(body: unknown): Decision & { reason: DeclineReason } {
  return readReasoned<DeclineReason>(body, DECLINE_REASONS);
}

/** An award (D24): `{ comment? }`. */
export function readAward(body: unknown): { comment: string | null } {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['comment'], '', problems);
  const comment = readComment(body.comment, problems);
  if (!problems.empty) throw new ValidationError(problems.list);
  return { comment };
}

/** A version sent to venues (D26): `{ message? }`, at most 1,000 characters; blank is no message. */
export function readVersionMessage(body: unknown): { message: string | null } {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['message'], '', problems);
  let message: string | null = null;
  if (body.message !== undefined && body.message !== null) {
    const text = checkText(body.message, 'message', problems, { max: LIMITS.freeText });
    if (text !== INVALID && text.trim() !== '') message = text.trim();
  }
  if (!problems.empty) throw new ValidationError(problems.list);
  return { message };
}
