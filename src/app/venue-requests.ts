/**
 * A planner's side of requests for proposals (D21, D23, D24), whoever asks: an API key (its
 * organization's events), a signed-in person (the events granted to them) or the operator (any event,
 * requests addressed by id alone). Every change goes through `changeEvent` (sourcing-changes.ts);
 * every read shows a request with its latest proposal and that proposal's figures.
 */

import { NotFoundError, type Problem, ValidationError } from '../domain/errors.js';
import { comparisonMarks } from '../domain/proposal-comparison.js';
import { type ProposalView, proposalView } from '../domain/proposal-figures.js';
import { changeInWords, requestChanges, type StoredRequestVersion } from '../domain/request-versions.js';
import type { StoredEvent } from '../domain/types.js';
import { readNewVenueRequest } from '../domain/venue-request-bodies.js';
import {
  type ChangedEvent,
  changeEvent,
  type KeyRequester,
  OPERATOR,
  type OperatorRequester,
  organizationInScope,
  type PersonRequester,
  type Precondition,
} from './change-event.js';
import { type AppDeps, nowText } from './deps.js';
import { assertEventId, notFound } from './event-ids.js';
import { assertUuid } from './resource-ids.js';
import {
  figuresEventOf,
  type RequestDocument,
  requestDocument,
  shortlistedCount,
  sourcingVersion,
} from './sourcing.js';
import {
  ADD_REQUEST,
  AWARD,
  DECLINE,
  MOVE_REPLY_DATE,
  SUBMIT_PROPOSAL,
  WITHDRAW_REQUEST,
} from './sourcing-changes.js';

/** Who works on an event's requests for proposals. */
export type Planner = KeyRequester | PersonRequester | OperatorRequester;

/** The event `id` names in the planner's scope (an API key's organization, a person's grants, any). */
export async function eventInScope(deps: AppDeps, planner: Planner, id: string): Promise<StoredEvent> {
  const eventId = assertEventId(id);
  const organizationId =
    planner.scope === 'organization'
      ? planner.organizationId
      : await organizationInScope(deps, planner, eventId, id);
  const event = await deps.store.events.find(organizationId, eventId);
  if (!event) throw notFound(id);
  return event;
}

const requestNotFound = (requestId: string) =>
  new NotFoundError(`The event has no venue request ${requestId}.`);

/** One request of the event as read now, or a 404. */
export async function readRequest(
  deps: AppDeps,
  event: StoredEvent,
  requestId: string,
): Promise<RequestDocument> {
  const [found, figuresEvent] = await Promise.all([
    deps.store.venueRequests.find(event.organizationId, event.details.id, requestId),
    figuresEventOf(deps, event),
  ]);
  if (!found) throw requestNotFound(requestId);
  return requestDocument(found, figuresEvent, nowText(deps));
}

/** The id of the request a change's first step made or changed. */
function steppedRequestId(changed: ChangedEvent): string {
  const step = changed.outcome?.steps?.[0];
  const request = step?.after ?? step?.before;
  if (!request) throw new Error('a request step names its request');
  return request.id;
}

/** `GET /v1/events/{id}/venue-requests`: every request of the event, oldest first. */
export async function listVenueRequests(deps: AppDeps, planner: Planner, eventId: string) {
  const event = await eventInScope(deps, planner, eventId);
  const [requests, figuresEvent] = await Promise.all([
    deps.store.venueRequests.listForEvent(event.organizationId, event.details.id),
    figuresEventOf(deps, event),
  ]);
  const now = nowText(deps);
  return { data: requests.map((request) => requestDocument(request, figuresEvent, now)) };
}

/** `GET …/venue-requests/{requestId}`. */
export async function getVenueRequest(deps: AppDeps, planner: Planner, eventId: string, requestId: string) {
  const id = assertUuid('requestId', requestId);
  return readRequest(deps, await eventInScope(deps, planner, eventId), id);
}

/**
 * `POST /v1/events/{id}/venue-requests` `{ venueId, responseDueDate? }` (D21): the venue on the
 * shortlist (draft, pending approval) or sent at once (while venues are asked), one per venue, at most
 * 50. Checks: the event (404), its status (409), the body and the venue (400), the venue (409 archived,
 * 409 already requested).
 */
export async function addVenueRequest(
  deps: AppDeps,
  planner: KeyRequester | PersonRequester,
  eventId: string,
  body: unknown,
): Promise<RequestDocument> {
  let read: ReturnType<typeof readNewVenueRequest> | null = null;
  let problems: Problem[] = [];
  try {
    read = readNewVenueRequest(body, nowText(deps));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems = error.problems;
  }
  const venue = read ? await deps.store.venues.find(planner.organizationId, read.venueId) : undefined;
  const changed = await changeEvent(deps, planner, eventId, ADD_REQUEST, { venue, body: read, problems });
  return readRequest(deps, changed.event, steppedRequestId(changed));
}

/**
 * `DELETE …/venue-requests/{requestId}` (D21): a shortlisted request is removed (`removed: true`); an
 * open one is withdrawn and its venue told (the request as it is now); a closed one is a 409.
 */
export async function withdrawVenueRequest(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  requestId: string,
): Promise<{ removed: true } | { removed: false; request: RequestDocument }> {
  const id = assertUuid('requestId', requestId);
  const changed = await changeEvent(deps, planner, eventId, WITHDRAW_REQUEST, { requestId: id });
  const step = changed.outcome?.steps?.[0];
  if (step && step.after === null) return { removed: true };
  return { removed: false, request: await readRequest(deps, changed.event, id) };
}

/**
 * `PATCH …/venue-requests/{requestId}` `{ responseDueDate }` (D28): the request's new reply date, its
 * venue told when the request is open. With a precondition (a page's `sourcingVersion`), nothing is
 * written if anything changed since the page was read (412).
 */
export async function moveReplyDate(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  requestId: string,
  body: unknown,
  precondition?: Precondition,
): Promise<RequestDocument> {
  const id = assertUuid('requestId', requestId);
  const changed = await changeEvent(
    deps,
    planner,
    eventId,
    MOVE_REPLY_DATE,
    { requestId: id, body },
    precondition,
  );
  return readRequest(deps, changed.event, id);
}

/** The dashboard's "Move for every open request" (D28): how many requests' dates moved. */
export async function moveOpenReplyDates(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  body: unknown,
  precondition?: Precondition,
): Promise<number> {
  const changed = await changeEvent(
    deps,
    planner,
    eventId,
    MOVE_REPLY_DATE,
    { allOpen: true, body },
    precondition,
  );
  return changed.outcome?.steps?.length ?? 0;
}

/**
 * `POST …/venue-requests/{requestId}/proposals` (D23): a proposal a planner enters on the venue's
 * behalf (received by phone or PDF), recorded with the planner as its actor.
 */
export async function submitProposalFor(
  deps: AppDeps,
  planner: KeyRequester | PersonRequester,
  eventId: string,
  requestId: string,
  body: unknown,
): Promise<ProposalView> {
  const id = assertUuid('requestId', requestId);
  const changed = await changeEvent(deps, planner, eventId, SUBMIT_PROPOSAL, {
    requestId: id,
    body,
    submittedBy: 'planner',
  });
  const proposal = changed.outcome?.proposals?.[0];
  if (!proposal) throw new Error('a submission adds a proposal');
  return proposalView(proposal, await figuresEventOf(deps, changed.event));
}

/** `GET …/venue-requests/{requestId}/proposals`: every revision, newest first, with its figures. */
export async function listProposals(deps: AppDeps, planner: Planner, eventId: string, requestId: string) {
  const id = assertUuid('requestId', requestId);
  const event = await eventInScope(deps, planner, eventId);
  const found = await deps.store.venueRequests.find(event.organizationId, event.details.id, id);
  if (!found) throw requestNotFound(requestId);
  const [proposals, figuresEvent] = await Promise.all([
    deps.store.venueRequests.proposals(event.organizationId, id),
    figuresEventOf(deps, event),
  ]);
  return { data: proposals.map((proposal) => proposalView(proposal, figuresEvent)) };
}

/**
 * Awards a request (D24): `{ comment? }`. Atomic: the event booked, every other request closed, every
 * venue asked told by mail, all in the event's transaction. With a precondition (a page's
 * `sourcingVersion`), nothing is written if anything changed since the page was read (412).
 */
export async function awardVenueRequest(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  requestId: string,
  body: unknown,
  precondition?: Precondition,
): Promise<RequestDocument> {
  const id = assertUuid('requestId', requestId);
  const changed = await changeEvent(deps, planner, eventId, AWARD, { requestId: id, body }, precondition);
  return readRequest(deps, changed.event, id);
}

/** Declines one proposal (D24): `{ reason, comment? }` (`comment` required for `other`); its venue is told. */
export async function declineVenueRequest(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  requestId: string,
  body: unknown,
  precondition?: Precondition,
): Promise<RequestDocument> {
  const id = assertUuid('requestId', requestId);
  const changed = await changeEvent(deps, planner, eventId, DECLINE, { requestId: id, body }, precondition);
  return readRequest(deps, changed.event, id);
}

/** The event of a request addressed by id alone (the operator's commands); 404 when there is none. */
async function locateRequest(deps: AppDeps, requestId: string) {
  const id = assertUuid('request', requestId);
  const address = await deps.store.venueRequests.locate(id);
  if (!address) throw new NotFoundError(`No venue request with id ${requestId}.`);
  return address;
}

/** What the operator's `rfp` commands print. */
export type OperatorDecision = {
  id: string;
  eventId: string;
  status: string;
  eventStatus: string;
};

async function operatorDecision(deps: AppDeps, requestId: string, decided: RequestDocument) {
  const address = await locateRequest(deps, requestId);
  const event = await deps.store.events.find(address.organizationId, address.eventId);
  return {
    id: decided.id,
    eventId: decided.eventId,
    status: decided.status,
    eventStatus: event!.details.status,
  };
}

/** `eventplan rfp award --request ID [--comment TEXT]` (D24). */
export async function awardByOperator(
  deps: AppDeps,
  requestId: string,
  comment?: string,
): Promise<OperatorDecision> {
  const { eventId, requestId: id } = await locateRequest(deps, requestId);
  const body = comment === undefined ? {} : { comment };
  return operatorDecision(deps, id, await awardVenueRequest(deps, OPERATOR, eventId, id, body));
}

/** `eventplan rfp decline --request ID --reason REASON [--comment TEXT]` (D24). */
export async function declineByOperator(
  deps: AppDeps,
  requestId: string,
  reason: string,
  comment?: string,
): Promise<OperatorDecision> {
  const { eventId, requestId: id } = await locateRequest(deps, requestId);
  const body = { reason, ...(comment === undefined ? {} : { comment }) };
  return operatorDecision(deps, id, await declineVenueRequest(deps, OPERATOR, eventId, id, body));
}

/** `eventplan rfp move-reply-date --request ID --date YYYY-MM-DD` (D28): the request's new reply date. */
export async function moveReplyDateByOperator(deps: AppDeps, requestId: string, date: string) {
  const { eventId, requestId: id } = await locateRequest(deps, requestId);
  const moved = await moveReplyDate(deps, OPERATOR, eventId, id, { responseDueDate: date });
  return {
    id: moved.id,
    eventId: moved.eventId,
    status: moved.status,
    responseDueDate: moved.responseDueDate,
  };
}

/** What the dashboard shows of an event's sourcing: its requests, the comparison's marks, and the page's version. */
export interface EventSourcingView {
  event: StoredEvent;
  /** Oldest first, each with its latest proposal and that proposal's figures. */
  requests: RequestDocument[];
  /** How many venues are on the shortlist (D16's checklist item of D21). */
  shortlisted: number;
  /** The lowest total (per currency) and the best coverage among the standing proposals (D24). */
  marks: ReturnType<typeof comparisonMarks>;
  /** Carried by the page's award and decline forms (`{ sourcingVersion }`): a stale page writes nothing. */
  version: string;
  /** The latest version of the request sent to venues (D26); 0 before the first send. */
  latestVersion: number;
  /** The room block venues were asked for: the latest version's (the live one before the first send). */
  askedAccommodations: StoredEvent['details']['accommodations'];
  /** For each older version a standing proposal answers: what changed since, in words (D26). */
  changesSince: Map<number, string[]>;
}

/** For each older version a proposal answers, what venues read that changed from it to the latest, in words. */
function changesSinceOf(
  versions: readonly StoredRequestVersion[],
  requests: readonly RequestDocument[],
): Map<number, string[]> {
  const latest = versions[0];
  const since = new Map<number, string[]>();
  if (!latest) return since;
  for (const { proposal } of requests) {
    const answered = proposal?.requestVersion;
    if (answered === undefined || answered >= latest.version || since.has(answered)) continue;
    const older = versions.find((version) => version.version === answered);
    if (!older) continue;
    since.set(
      answered,
      requestChanges(older.snapshot, latest.snapshot)
        .map(changeInWords)
        .map((change) => `${change.label}: ${change.before} → ${change.after}`),
    );
  }
  return since;
}

/**
 * The event's requests as a person sees them on the event page's venue list and the Proposals tab
 * (D24): only for an event granted to them (404 otherwise).
 */
export async function viewEventSourcing(
  deps: AppDeps,
  person: PersonRequester,
  eventId: string,
): Promise<EventSourcingView> {
  const event = await eventInScope(deps, person, eventId);
  const [requests, document, versions] = await Promise.all([
    deps.store.venueRequests.listForEvent(event.organizationId, event.details.id),
    deps.store.events.findDocument(event.organizationId, event.details.id),
    deps.store.venueRequests.versions(event.organizationId, event.details.id),
  ]);
  const now = nowText(deps);
  const figuresEvent = await figuresEventOf(deps, event, versions);
  const documents = requests.map((request) => requestDocument(request, figuresEvent, now));
  // Marks compare the proposals that stand: a request still `proposed`.
  const standing = documents.flatMap(({ id, status, proposal }) =>
    status === 'proposed' && proposal ? [{ ...proposal, requestId: id }] : [],
  );
  const stored = {
    text: document?.body.toString() ?? JSON.stringify(event.details),
    etag: document?.etag ?? null,
  };
  return {
    event,
    requests: documents,
    shortlisted: shortlistedCount(requests),
    marks: comparisonMarks(standing),
    version: sourcingVersion(stored, requests),
    latestVersion: versions[0]?.version ?? 0,
    askedAccommodations: figuresEvent.accommodations,
    changesSince: changesSinceOf(versions, documents),
  };
}
