/** How both stores read and write a row of `venue_questions` (D27): the answer as JSON, or null while unanswered. */
import type { VenueQuestion } from '../domain/questions.js';

export interface QuestionRow {
  id: string;
  event_id: string;
  request_id: string;
  venue_id: string;
  text: string;
  asked_at: string | Date;
  answer: string | null;
}

const isoOf = (value: string | Date) => (typeof value === 'string' ? value : value.toISOString());

export function toQuestion(row: QuestionRow): VenueQuestion {
  return {
    id: row.id,
    eventId: row.event_id,
    requestId: row.request_id,
    venueId: row.venue_id,
    text: row.text,
    askedAt: isoOf(row.asked_at),
    answer: row.answer === null ? null : JSON.parse(row.answer),
  };
}

/** The answer column of a question: its JSON, or null. */
export const answerColumn = (question: VenueQuestion): string | null =>
  question.answer === null ? null : JSON.stringify(question.answer);
