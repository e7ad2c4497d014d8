/**
 * Venues' questions and the planners' answers (D27): a venue asks while its request is open; a planner
 * answers, to every venue of the event or to the asker alone, and may answer again (the answer is
 * replaced) until sourcing is over. What a venue sees of the questions is decided here: its own, and
 * the answers shared with all, never naming the venue that asked.
 */
import type { Actor } from './changes.js';
import { EventNotSourcingError, RequestClosedError, RequestNotSentError, ValidationError } from './errors.js';
import { INVALID, Problems } from './problems.js';
import type { EventStatus } from './types.js';
import { LIMITS } from './types.js';
import { checkText, isPlainObject, rejectUnknownKeys } from './values.js';
import { isClosedRequest, isSourcing, type VenueRequest } from './venue-request.js';

/** Who sees an answer: every venue of the event (without the asker's name), or the asker alone. */
export const SHARED_WITH = ['all', 'asker'] as const;
export type SharedWith = (typeof SHARED_WITH)[number];

export interface QuestionAnswer {
  text: string;
  answeredAt: string;
  answeredBy: Actor;
  sharedWith: SharedWith;
}

export interface VenueQuestion {
  id: string;
  eventId: string;
  requestId: string;
  /** The venue that asked; the API names it (`venue: { id, name }`) from the event's requests. */
  venueId: string;
  text: string;
  askedAt: string;
  answer: QuestionAnswer | null;
}

/** A question or an answer is 1 to 1,000 characters, trimmed. */
export const QUESTION_MAX = LIMITS.freeText;

function requireObject(body: unknown): asserts body is Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: '', code: 'invalid_type', message: 'the request body must be a JSON object' },
    ]);
  }
}

function readText(value: unknown, problems: Problems): string {
  if (value === undefined || value === null) {
    problems.add('text', 'required', 'is required');
    return '';
  }
  const text = checkText(value, 'text', problems, { max: QUESTION_MAX, nonEmpty: true });
  return text === INVALID ? '' : text.trim();
}

/** `{ text }`: a venue's question, 1–1,000 characters. */
export function readQuestion(body: unknown): { text: string } {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['text'], '', problems);
  const text = readText(body.text, problems);
  if (!problems.empty) throw new ValidationError(problems.list);
  return { text };
}

/** `{ text, sharedWith }`: an answer of 1–1,000 characters, shared with `all` or the `asker`. */
export function readAnswer(body: unknown): { text: string; sharedWith: SharedWith } {
  requireObject(body);
  const problems = new Problems();
  rejectUnknownKeys(body, ['text', 'sharedWith'], '', problems);
  const text = readText(body.text, problems);
  let sharedWith: SharedWith = 'all';
  if (body.sharedWith === undefined || body.sharedWith === null) {
    problems.add('sharedWith', 'required', 'is required: all or asker');
  } else if (!(SHARED_WITH as readonly unknown[]).includes(body.sharedWith)) {
    problems.add(
      'sharedWith',
      'invalid_choice',
      'must be all (every venue, without naming the asker) or asker',
    );
  } else {
    sharedWith = body.sharedWith as SharedWith;
  }
  if (!problems.empty) throw new ValidationError(problems.list);
  return { text, sharedWith };
}

/** A venue asks while its request is open and the event sourcing: RequestNotSentError, RequestClosedError, EventNotSourcingError. */
export function assertMayAsk(request: Pick<VenueRequest, 'status'>, eventStatus: EventStatus): void {
  if (request.status === 'shortlisted') throw new RequestNotSentError();
  if (isClosedRequest(request.status)) throw new RequestClosedError(request.status);
  if (!isSourcing(eventStatus)) throw new EventNotSourcingError(eventStatus);
}

/** A planner answers until the event is booked, completed or cancelled (EventNotSourcingError). */
export function assertMayAnswer(eventStatus: EventStatus): void {
  if (!isSourcing(eventStatus)) throw new EventNotSourcingError(eventStatus);
}

/**
 * A venue's question on its request: while the request is open (not shortlisted, not closed) and the
 * event still sourcing. Throws RequestNotSentError, RequestClosedError or EventNotSourcingError.
 */
export function askQuestion(input: {
  request: VenueRequest;
  eventStatus: EventStatus;
  text: string;
  id: string;
  now: string;
}): VenueQuestion {
  const { request } = input;
  assertMayAsk(request, input.eventStatus);
  return {
    id: input.id,
    eventId: request.eventId,
    requestId: request.id,
    venueId: request.venue.id,
    text: input.text,
    askedAt: input.now,
    answer: null,
  };
}

/** The planner's answer, replacing any earlier one; refused (EventNotSourcingError) once sourcing is over. */
export function answerQuestion(
  question: VenueQuestion,
  eventStatus: EventStatus,
  answer: { text: string; sharedWith: SharedWith },
  answeredBy: Actor,
  now: string,
): VenueQuestion {
  assertMayAnswer(eventStatus);
  return { ...question, answer: { ...answer, answeredAt: now, answeredBy } };
}

/** A question as a venue's page shows it: never another venue's name, nor its unanswered question. */
export interface QuestionForVenue {
  id: string;
  text: string;
  askedAt: string;
  /** Asked by this venue. */
  own: boolean;
  answer: { text: string; answeredAt: string } | null;
}

/**
 * What the venue of `requestId` sees, oldest first: its own questions (answered or not), and every
 * other venue's question answered to all, without naming that venue.
 */
export function questionsForVenue(
  questions: readonly VenueQuestion[],
  requestId: string,
): QuestionForVenue[] {
  return questions.flatMap((question) => {
    const own = question.requestId === requestId;
    if (!own && question.answer?.sharedWith !== 'all') return [];
    const answer = question.answer
      ? { text: question.answer.text, answeredAt: question.answer.answeredAt }
      : null;
    return [{ id: question.id, text: question.text, askedAt: question.askedAt, own, answer }];
  });
}

/** The requests whose venue is told of an answer: the asker alone, or every open request of the event. */
export function answerAudience<R extends Pick<VenueRequest, 'id' | 'status'>>(
  question: VenueQuestion,
  requests: readonly R[],
): R[] {
  return requests.filter(
    (request) =>
      !isClosedRequest(request.status) &&
      request.status !== 'shortlisted' &&
      (question.answer?.sharedWith === 'all' || request.id === question.requestId),
  );
}
