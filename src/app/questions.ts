/**
 * Venues' questions and the planners' answers (D27), through `changeEvent` on the sourcing path: a
 * question is written with its `question.asked` record (the venue its actor) and the mails to the
 * people granted on the event; an answer with its `question.answered` record and the mails to the
 * venues who see it (the asker, or every open request), each with a link of its own.
 */
import { NotFoundError } from '../domain/errors.js';
import {
  answerAudience,
  answerQuestion,
  askQuestion,
  assertMayAnswer,
  assertMayAsk,
  readAnswer,
  readQuestion,
  type VenueQuestion,
} from '../domain/questions.js';
import type { VenueRequest } from '../domain/venue-request.js';
import { questionAnsweredMail } from '../domain/venue-request-mail.js';
import { changeEvent, type EventChange, type VenueRequester } from './change-event.js';
import type { AppDeps } from './deps.js';
import { assertUuid } from './resource-ids.js';
import { hashVenueToken, readParties, requestIn, type SourcingParties, venueLinkPath } from './sourcing.js';
import { eventInScope, type Planner } from './venue-requests.js';

/** A question as the API reads it: the venue that asked, by id and name. */
export interface QuestionDocument extends Omit<VenueQuestion, 'venueId' | 'eventId'> {
  venue: { id: string; name: string };
}

const document = (question: VenueQuestion, names: ReadonlyMap<string, string>): QuestionDocument => ({
  id: question.id,
  requestId: question.requestId,
  venue: { id: question.venueId, name: names.get(question.venueId) ?? 'A venue' },
  text: question.text,
  askedAt: question.askedAt,
  answer: question.answer,
});

const questionNotFound = (questionId: string) =>
  new NotFoundError(`The event has no question ${questionId}.`);

/** The venue asks a question on its page (D27): `{ text }`, while its request is open. */
export const ASK_QUESTION: EventChange<{ requestId: string; body: unknown }, undefined, VenueRequester> = {
  sourcing: true,
  tellsPeople: true,
  apply(current, { requestId, body }, context) {
    const { request } = requestIn(context.sourcing ?? [], requestId);
    // The request's state before the body: a closed request never answers with a 400.
    assertMayAsk(request, current.details.status);
    const { text } = readQuestion(body);
    const question = askQuestion({
      request,
      eventStatus: current.details.status,
      text,
      id: context.newId(),
      now: context.now,
    });
    return {
      event: current,
      questions: [question],
      asked: { question, venueName: request.venue.name },
      records: [
        {
          type: 'question.asked',
          data: { questionId: question.id, requestId: request.id, venueId: request.venue.id },
        },
      ],
    };
  },
};

interface AnswerPrepared {
  parties: SourcingParties;
  question: VenueQuestion | undefined;
}

/**
 * A planner answers a question (D27): `{ text, sharedWith }`, replacing any earlier answer; refused
 * once the event is booked, completed or cancelled (409). The venues who see the answer are mailed.
 */
export const ANSWER_QUESTION: EventChange<{ questionId: string; body: unknown }, AnswerPrepared> = {
  sourcing: true,
  async prepare(deps, organizationId, eventId, { questionId }) {
    const [parties, questions] = await Promise.all([
      readParties(deps, organizationId, eventId),
      deps.store.venueRequests.questions(organizationId, eventId),
    ]);
    return { parties, question: questions.find((question) => question.id === questionId) };
  },
  apply(current, { questionId, body }, context) {
    const { parties, question } = context.prepared;
    if (!question) throw questionNotFound(questionId);
    const status = current.details.status;
    // The event's state before the body.
    assertMayAnswer(status);
    const answered = answerQuestion(question, status, readAnswer(body), context.requester.actor, context.now);
    const requests = (context.sourcing ?? []).map(({ request }) => request);
    const mails = [];
    const links = [];
    for (const request of answerAudience(answered, requests)) {
      const token = context.newToken();
      links.push({ requestId: request.id, tokenHash: hashVenueToken(token) });
      const mailContext = {
        organizationName: parties.organizationName,
        planner: parties.planner,
        event: current.details,
        venue: request.venue,
      };
      mails.push(
        questionAnsweredMail(
          mailContext,
          { question: answered.text, answer: answered.answer!.text, own: request.id === answered.requestId },
          `${parties.publicBaseUrl}${venueLinkPath(token)}`,
        ),
      );
    }
    return {
      event: current,
      questions: [answered],
      mails,
      links,
      records: [
        {
          type: 'question.answered',
          data: {
            questionId: answered.id,
            requestId: answered.requestId,
            venueId: answered.venueId,
            sharedWith: answered.answer!.sharedWith,
          },
        },
      ],
    };
  },
};

/**
 * The event's questions with their venues' names, oldest first; the names from the event's requests,
 * read here unless the caller has them already.
 */
export async function questionsOf(
  deps: AppDeps,
  organizationId: string,
  eventId: string,
  requests?: readonly Pick<VenueRequest, 'venue'>[],
): Promise<QuestionDocument[]> {
  const [questions, named] = await Promise.all([
    deps.store.venueRequests.questions(organizationId, eventId),
    requests ??
      deps.store.venueRequests
        .listForEvent(organizationId, eventId)
        .then((found) => found.map(({ request }) => request)),
  ]);
  const names = new Map(named.map((request) => [request.venue.id, request.venue.name]));
  return questions.map((question) => document(question, names));
}

/** `GET /v1/events/{id}/questions`: every question of the event, oldest first. */
export async function listQuestions(deps: AppDeps, planner: Planner, eventId: string) {
  const event = await eventInScope(deps, planner, eventId);
  return { data: await questionsOf(deps, event.organizationId, event.details.id) };
}

/** `POST /v1/events/{id}/questions/{questionId}/answer` `{ text, sharedWith }`: the question answered. */
export async function answerVenueQuestion(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  questionId: string,
  body: unknown,
): Promise<QuestionDocument> {
  const id = assertUuid('questionId', questionId);
  const changed = await changeEvent(deps, planner, eventId, ANSWER_QUESTION, { questionId: id, body });
  const found = (await questionsOf(deps, changed.event.organizationId, changed.event.details.id)).find(
    (question) => question.id === id,
  );
  if (!found) throw questionNotFound(questionId);
  return found;
}
