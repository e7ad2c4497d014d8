import type { Proposal } from '../domain/proposal.js';
import type { VenueQuestion } from '../domain/questions.js';
import type { StoredRequestVersion } from '../domain/request-versions.js';
import type { VenueRequest } from '../domain/venue-request.js';
import type { TaskSubject } from './schedule.js';

/** A request for proposals with its latest proposal, as every read of a request shows it (D21). */
export interface RequestWithProposal {
  request: VenueRequest;
  /** The newest revision, or null before the venue proposes. */
  proposal: Proposal | null;
}

/** Where a request lives: what the venue's link and the operator's commands need to reach it. */
export interface RequestAddress {
  organizationId: string;
  eventId: string;
  requestId: string;
  venueId: string;
}

/** The requests a reminder round looks at (D28): every organization's, by reply date. */
export interface RemindersDueQuery {
  /** The scheduler's task: requests under a live lease of it are left out. */
  task: string;
  now: string;
  /** Reply dates from `from` to `to`, both included (reply-dates.ts `reminderWindow`). */
  from: string;
  to: string;
  limit: number;
}

/**
 * Reads of requests for proposals and their proposals (D21–D23). They are written only with their
 * event, through EventRepository.updateSourcing, so each change of a request is in the event's
 * transaction with its change records and mails. The request's venue is the directory's venue as it
 * is now (its name, email and city).
 */
export interface VenueRequestRepository {
  /** Every request of the event, oldest first, each with its latest proposal. */
  listForEvent(organizationId: string, eventId: string): Promise<RequestWithProposal[]>;
  /** One request of the event, undefined when the event has none with this id. */
  find(organizationId: string, eventId: string, requestId: string): Promise<RequestWithProposal | undefined>;
  /** Every revision of the request's proposal, newest first. */
  proposals(organizationId: string, requestId: string): Promise<Proposal[]>;
  /** The versions of the event's request as sent (D26), newest first, each with its snapshot. */
  versions(organizationId: string, eventId: string): Promise<StoredRequestVersion[]>;
  /**
   * The request whose venue's link token has this SHA-256 (hex): the token of its first mail or of a
   * later one (D26); undefined when none has.
   */
  findByTokenHash(tokenHash: string): Promise<RequestAddress | undefined>;
  /** The request with this id in any organization (operator commands address requests by id alone). */
  locate(requestId: string): Promise<RequestAddress | undefined>;
  /** The venues' questions of the event (D27), oldest first. */
  questions(organizationId: string, eventId: string): Promise<VenueQuestion[]>;
  /** Which of these events have a question still unanswered (D27: the event list's mark). */
  withUnansweredQuestions(organizationId: string, eventIds: readonly string[]): Promise<Set<string>>;
  /**
   * Requests whose reminder may be due, of any organization: still sent or viewed, their reminder not
   * settled, their reply date in the window, on an event still asking venues, and not leased for the
   * task; earliest reply date first. The write that reminds judges each again (reply-dates.ts).
   */
  remindersDue(query: RemindersDueQuery): Promise<TaskSubject[]>;
}
