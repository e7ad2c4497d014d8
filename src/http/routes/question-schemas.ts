/**
 * The schemas of venues' questions and the planners' answers (D27): reading an event's questions and
 * answering one. Bodies are checked by the domain (questions.ts), every problem named at its field.
 */
import { Type } from '@sinclair/typebox';
import { SHARED_WITH } from '../../domain/questions.js';
import { JSON_MEDIA_TYPE, jsonResponse, operation } from '../schemas/operation.js';
import { NonEmptyText, orNull, ref, Timestamp, Uuid } from '../schemas/parts.js';
import { ERRORS, problemOf, problemResponse } from '../schemas/problems.js';
import { Actor } from './change-schemas.js';
import { EventIdParams } from './event-schemas.js';

const SharedWith = Type.Unsafe<'all' | 'asker'>({
  type: 'string',
  enum: [...SHARED_WITH],
  description:
    "`all`: shown on the page of every request of the event that is open or sent later, without naming the venue that asked, and mailed to each open request's venue; `asker`: to the venue that asked alone.",
});

export const QuestionAnswer = Type.Object(
  {
    text: Type.String({ description: 'The answer, as plain text.' }),
    answeredAt: Timestamp('When it was answered (last, when answered again).'),
    answeredBy: ref(Actor),
    sharedWith: SharedWith,
  },
  {
    $id: 'QuestionAnswer',
    additionalProperties: false,
    description: "A planner's answer to a venue's question.",
  },
);

export const Question = Type.Object(
  {
    id: Uuid('The question.'),
    requestId: Uuid('The request of the venue that asked.'),
    venue: Type.Object(
      { id: Uuid('The venue.'), name: Type.String({ description: "The venue's name as it is now." }) },
      { additionalProperties: false, description: 'The venue that asked.' },
    ),
    text: Type.String({ description: 'The question, as plain text.' }),
    askedAt: Timestamp('When the venue asked.'),
    answer: orNull(ref(QuestionAnswer), { description: 'The answer, or null while unanswered.' }),
  },
  {
    $id: 'Question',
    additionalProperties: false,
    description: "A venue's question about the event's request (D27), asked on the venue's page.",
    examples: [
      {
        id: '3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f',
        requestId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        venue: { id: '5a3c1b2d-7e8f-4a9b-8c0d-1e2f3a4b5c6d', name: 'Hotel Central' },
        text: 'Can the breakout rooms be on another floor?',
        askedAt: '2027-02-03T10:00:00.000Z',
        answer: {
          text: 'Yes, any floor with step-free access.',
          answeredAt: '2027-02-03T15:00:00.000Z',
          answeredBy: { type: 'person', userId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' },
          sharedWith: 'all',
        },
      },
    ],
  },
);

export const QuestionList = Type.Object(
  { data: Type.Array(ref(Question), { description: 'Every question of the event, oldest first.' }) },
  { $id: 'QuestionList', additionalProperties: false, description: "The event's questions from venues." },
);

export const AnswerQuestion = Type.Object(
  {
    text: NonEmptyText('The answer, 1–1,000 characters, sent as plain text.'),
    sharedWith: SharedWith,
  },
  {
    $id: 'AnswerQuestion',
    additionalProperties: false,
    description: 'The answer and who sees it. Answering again replaces the answer.',
    examples: [{ text: 'Yes, any floor with step-free access.', sharedWith: 'all' }],
  },
);

export const QuestionParams = Type.Object({
  id: EventIdParams.properties.id,
  questionId: Type.String({
    format: 'uuid',
    description: "The question's id, a UUID. A malformed id is a 400 naming `questionId`.",
  }),
});

export const ListQuestionsRoute = operation({
  operationId: 'listQuestions',
  tag: 'Venue requests',
  summary: "List the venues' questions",
  description:
    "Every question venues asked on their pages about the event's request, oldest first, each with its answer or null.",
  params: EventIdParams,
  responses: {
    200: jsonResponse('The questions.', ref(QuestionList)),
    400: ERRORS[400]('The id is not a UUID, or a query parameter was sent.'),
    404: ERRORS[404],
  },
});

export const AnswerQuestionRoute = operation({
  operationId: 'answerQuestion',
  tag: 'Venue requests',
  summary: "Answer a venue's question",
  description:
    'Answers the question (answering again replaces the answer), shared with `all` venues of the event without naming the asker, or with the `asker` alone; each venue who sees it and whose request is open is mailed, in the same transaction, with a new link to its page. One `question.answered` change record. Checks: the event and the question (404), the event sourcing (409), the body (400).',
  params: QuestionParams,
  consumes: [JSON_MEDIA_TYPE],
  responses: {
    200: jsonResponse('Answered.', ref(Question)),
    400: ERRORS[400](
      'An id or the body was refused: `text` missing, empty or longer than 1,000 characters; `sharedWith` missing or not `all` or `asker`.',
    ),
    404: ERRORS[404],
    409: problemResponse(
      'The event is booked, completed or cancelled (`event_not_sourcing`). Nothing was written.',
      problemOf(409, ['event_not_sourcing']),
    ),
    413: ERRORS[413],
    415: ERRORS[415]('`application/json`'),
  },
});
