/**
 * The planning dashboard's use cases (D15, D16): what a signed-in person sees and does. Visibility is
 * the person's grants, enforced here and in the store's queries; API keys stay organization-wide.
 */
import { actorUserId, type ChangeRecord } from '../domain/changes.js';
import { copyBody } from '../domain/create-event.js';
import { NotInAGroupError } from '../domain/errors.js';
import { EVENT_FIELDS } from '../domain/event-field-table.js';
import {
  allowedMoves,
  type Checklist,
  type Move,
  type MoveRequest,
  preSendChecklist,
  viewerOf,
} from '../domain/moves.js';
import { isOverdue } from '../domain/reply-dates.js';
import { type ChangeInWords, changeInWords } from '../domain/request-versions.js';
import type { EventDetails, EventStatus, StoredEvent } from '../domain/types.js';
import { isOpenRequest, type VenueRequest } from '../domain/venue-request.js';
import type { Grantee } from '../ports/event-repository.js';
import { changeEvent, createEventBy, type PersonRequester } from './change-event.js';
import { type ChangeValues, changeValues } from './change-values.js';
import { type AppDeps, nowText } from './deps.js';
import { etagOf } from './etag.js';
import { MOVE, UPDATE_DETAILS } from './event-changes.js';
import { assertEventId, notFound } from './event-ids.js';
import { type QuestionDocument, questionsOf } from './questions.js';
import { pendingChanges } from './request-versions.js';
import { shortlistedCount } from './sourcing.js';

/** Who is signed in: enough to scope every query and name the change log's actor. */
export interface PersonRef {
  organizationId: string;
  userId: string;
}

/** A signed-in person as the one who changes events: only those granted to them are in scope (D15). */
export const personRequester = (person: PersonRef): PersonRequester => ({
  scope: 'grants',
  organizationId: person.organizationId,
  actor: { type: 'person', userId: person.userId },
});

/** Statuses shown by default: everything still in planning or ahead (not completed, not cancelled). */
export const ACTIVE_STATUSES: readonly EventStatus[] = [
  'draft',
  'pending_approval',
  'wait_for_proposals',
  'proposals_received',
  'booked',
];

export const EVENTS_PER_PAGE = 25;

export interface EventRow {
  id: string;
  name: string;
  status: EventStatus;
  /** The candidate cities, as typed and resolved (the page writes them). */
  locations: EventDetails['formattedLocations'];
  eventDates: EventDetails['eventDates'];
  numPeople: number;
  totalBudget: number;
  currency: string;
  decisionDeadline: string | null;
  creator: Grantee;
  updatedAt: string;
  /** A venue's question waits for an answer (D27). */
  unansweredQuestions?: boolean;
}

/** The sum of a budget's lines, in cents first so that decimals add up exactly. */
export function totalBudget(budget: EventDetails['budgetBreakdown']): number {
  const cents = Object.values(budget).reduce<number>(
    (sum, amount) => sum + Math.round((amount ?? 0) * 100),
    0,
  );
  return cents / 100;
}

/** An event as a row of the event list. */
const rowOf = (details: EventDetails, creator: Grantee): EventRow => ({
  id: details.id,
  name: details.name,
  status: details.status,
  locations: details.formattedLocations,
  eventDates: details.eventDates,
  numPeople: details.numPeople,
  totalBudget: totalBudget(details.budgetBreakdown),
  currency: details.currency,
  decisionDeadline: details.decisionDeadline,
  creator,
  updatedAt: details.updatedAt,
});

export async function listMyEvents(
  deps: AppDeps,
  person: PersonRef,
  query: { statuses: readonly EventStatus[]; search: string; page: number },
) {
  const { items, total } = await deps.store.events.listGranted(person.organizationId, person.userId, {
    statuses: query.statuses,
    nameContains: query.search.trim(),
    offset: (query.page - 1) * EVENTS_PER_PAGE,
    limit: EVENTS_PER_PAGE,
  });
  const waiting = await deps.store.venueRequests.withUnansweredQuestions(
    person.organizationId,
    items.map(({ details }) => details.id),
  );
  const rows = items.map(({ details, createdBy }) => ({
    ...rowOf(details, createdBy),
    unansweredQuestions: waiting.has(details.id),
  }));
  return { rows, total, page: query.page, pageCount: Math.max(1, Math.ceil(total / EVENTS_PER_PAGE)) };
}

/** At most this many events are shown as waiting for a person's approval. */
export const AWAITING_SHOWN = 50;

/**
 * What waits for this person (D16): the events pending approval on which they are an approver, that
 * is granted and not the creator, newest first.
 */
export async function listAwaitingMyApproval(deps: AppDeps, person: PersonRef): Promise<EventRow[]> {
  const { items } = await deps.store.events.listGranted(person.organizationId, person.userId, {
    statuses: ['pending_approval'],
    nameContains: '',
    offset: 0,
    limit: AWAITING_SHOWN,
  });
  return items
    .filter(({ createdBy }) => createdBy.userId !== person.userId)
    .map(({ details, createdBy }) => rowOf(details, createdBy));
}

/** The event if the person holds a grant on it; otherwise the same 404 as an event that does not exist. */
async function findMine(deps: AppDeps, person: PersonRef, id: string): Promise<StoredEvent> {
  const eventId = assertEventId(id);
  const event = await deps.store.events.findGranted(person.organizationId, person.userId, eventId);
  if (!event) throw notFound(id);
  return event;
}

/** The version a form carries: the event's ETag when it was read. */
export const versionOf = (details: EventDetails): string => etagOf(JSON.stringify(details));

export interface EventView {
  details: EventDetails;
  version: string;
  creator: Grantee | undefined;
  approvers: Grantee[];
  isCreator: boolean;
  moves: Move[];
  checklist: Checklist;
  /** Newest first. */
  history: ChangeRecord[];
  /** What each change of the history set, by change id, when it is known. */
  changeValues: Map<string, ChangeValues>;
  /** Display names of everyone named in the history, by user id. */
  people: Record<string, Grantee>;
  /** Names of the venues the event's requests went to (and the history names), by venue id. */
  venues: Record<string, string>;
  /** The event's requests for proposals (D21), oldest first, each overdue or not (D28): the venue list and the history's reasons. */
  requests: (VenueRequest & { overdue: boolean })[];
  /** What venues read that changed since the latest version was sent (D26); null when nothing is pending. */
  unsent: UnsentChanges | null;
  /** The venues' questions (D27): unanswered first, then answered, each oldest first. */
  questions: QuestionDocument[];
}

/** The changes not yet sent to venues (D26), in words, and how many open requests they would go to. */
export interface UnsentChanges {
  changes: ChangeInWords[];
  openRequests: number;
}

/** While venues are asked, what they read against the latest version; null when nothing is pending. */
async function unsentChangesOf(
  deps: AppDeps,
  event: StoredEvent,
  requests: readonly VenueRequest[],
): Promise<UnsentChanges | null> {
  const { status } = event.details;
  if (status !== 'wait_for_proposals' && status !== 'proposals_received') return null;
  const [latest] = await deps.store.venueRequests.versions(event.organizationId, event.details.id);
  const changes = pendingChanges(event.details, latest);
  if (changes.length === 0) return null;
  return {
    changes: changes.map(changeInWords),
    openRequests: requests.filter((request) => isOpenRequest(request.status)).length,
  };
}

/** Questions waiting for an answer first, then those answered, each in the order asked. */
const unansweredFirst = (questions: QuestionDocument[]) => [
  ...questions.filter((question) => question.answer === null),
  ...questions.filter((question) => question.answer !== null),
];

/**
 * Whether the person's event, sent to venues, has changes venues have not been sent (D26): what a save
 * of a sent event says after it.
 */
export async function hasUnsentChanges(deps: AppDeps, person: PersonRef, id: string): Promise<boolean> {
  const event = await findMine(deps, person, id);
  return (await unsentChangesOf(deps, event, [])) !== null;
}

const HISTORY_SHOWN = 50;

export async function viewMyEvent(deps: AppDeps, person: PersonRef, id: string): Promise<EventView> {
  const event = await findMine(deps, person, id);
  const [grantees, history, requests] = await Promise.all([
    deps.store.events.grantees(person.organizationId, event.details.id),
    deps.store.events.changes(person.organizationId, event.details.id, { limit: HISTORY_SHOWN }),
    deps.store.venueRequests.listForEvent(person.organizationId, event.details.id),
  ]);
  const values = await changeValues(deps, person.organizationId, event.details.id, history);
  const viewer = viewerOf(
    event,
    grantees.map((grantee) => grantee.userId),
    person.userId,
  );
  const people: Record<string, Grantee> = Object.fromEntries(
    grantees.map((grantee) => [grantee.userId, grantee]),
  );
  for (const change of history) {
    const userId = actorUserId(change.actor);
    if (userId && !people[userId]) {
      const user = await deps.store.identity.findUser(userId);
      if (user) people[userId] = { userId, email: user.email, name: user.name };
    }
  }
  const plain = requests.map(({ request }) => request);
  let creator = people[event.createdBy];
  if (!creator) {
    const user = await deps.store.identity.findUser(event.createdBy);
    creator = user ? { userId: user.id, email: user.email, name: user.name } : undefined;
  }
  return {
    details: event.details,
    version: versionOf(event.details),
    creator,
    approvers: grantees.filter((grantee) => grantee.userId !== event.createdBy),
    isCreator: viewer.isCreator,
    moves: allowedMoves(event, viewer),
    checklist: preSendChecklist(event.details, nowText(deps), shortlistedCount(requests)),
    history,
    changeValues: values,
    people,
    venues: Object.fromEntries(plain.map((request) => [request.venue.id, request.venue.name])),
    requests: requests.map(({ request }) => ({ ...request, overdue: isOverdue(request, nowText(deps)) })),
    questions: unansweredFirst(await questionsOf(deps, event.organizationId, event.details.id, plain)),
    unsent: await unsentChangesOf(deps, event, plain),
  };
}

/**
 * A new event created in the dashboard: the person is its creator, granted like an API create. A person
 * in no group would get no grant (D11) and lose sight of it at once, so the dashboard refuses instead.
 */
export async function createMyEvent(deps: AppDeps, person: PersonRef, body: Record<string, unknown>) {
  if ((await deps.store.identity.countMemberships(person.organizationId, person.userId)) === 0) {
    throw new NotInAGroupError();
  }
  return createEventBy(deps, personRequester(person), body);
}

const COPY_SUFFIX = ' (copy)';

/** "Duplicate": a new draft with every writable field of the original, named "… (copy)". */
export async function duplicateMyEvent(deps: AppDeps, person: PersonRef, id: string) {
  const original = await findMine(deps, person, id);
  const body = copyBody(original.details);
  const name = [...original.details.name].slice(0, EVENT_FIELDS.name.maxLength - COPY_SUFFIX.length).join('');
  return createMyEvent(deps, person, { ...body, name: `${name}${COPY_SUFFIX}` });
}

/**
 * A dashboard edit (the details, rooms or agenda forms): the same rules as PATCH (D5–D7), applied only
 * if the event is still at `version`, the version the form was read at; otherwise
 * PreconditionFailedError and nothing is written.
 */
export async function updateMyEvent(
  deps: AppDeps,
  person: PersonRef,
  id: string,
  body: Record<string, unknown>,
  version: string,
): Promise<EventDetails> {
  const { event } = await changeEvent(deps, personRequester(person), id, UPDATE_DETAILS, body, { version });
  return event.details;
}

/** A D16 move by a person (event-changes.ts `MOVE`). */
export async function moveMyEvent(
  deps: AppDeps,
  person: PersonRef,
  id: string,
  request: MoveRequest,
): Promise<EventStatus> {
  const { event } = await changeEvent(deps, personRequester(person), id, MOVE, request);
  return event.details.status;
}
