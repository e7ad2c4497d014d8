/**
 * The venue's side of a request for proposals (D22, D23): reached with the link's token alone, no
 * account. The token is looked up by its SHA-256 (so comparing it takes the same time whatever it
 * is) and never logged here. A venue sees its own request and what D22 lists of the event, never the
 * budget, the internal notes, the approvers, the other venues or another request. An unknown token is
 * a 404 that says nothing more; a closed request, or an event no longer sourcing, refuses every
 * answer with a 409 and writes nothing.
 */
import { NotFoundError, RequestChangedError } from '../domain/errors.js';
import type { ProposalView } from '../domain/proposal-figures.js';
import { proposalView } from '../domain/proposal-figures.js';
import { type QuestionForVenue, questionsForVenue } from '../domain/questions.js';
import {
  type ChangeInWords,
  changeInWords,
  type StoredRequestVersion,
  type VenueEventView,
  venueEventView,
} from '../domain/request-versions.js';
import type { VenueSummary } from '../domain/venue.js';

export type { VenueEventView, VenueSession } from '../domain/request-versions.js';

import { isOpenRequest, isSourcing, type VenueRequest } from '../domain/venue-request.js';
import type { RequestAddress } from '../ports/venue-request-repository.js';
import { changeEvent, type VenueRequester } from './change-event.js';
import type { AppDeps } from './deps.js';
import { ASK_QUESTION } from './questions.js';
import { hashVenueToken, readParties, type SourcingParties } from './sourcing.js';
import { MARK_VIEWED, SUBMIT_PROPOSAL, TURN_DOWN } from './sourcing-changes.js';

/** What a link's token may look like: base62, as made (sourcing.ts); anything else is unknown at once. */
const TOKEN_FORMAT = /^[0-9A-Za-z]{16,64}$/;

/** The one answer to a link that leads nowhere: it says neither whether it ever existed nor why. */
const unknownLink = () => new NotFoundError('This link is not valid.');

/** A proposal as its venue reads it back: its terms and figures, without the comparison with the budget. */
export type VenueProposalView = Omit<ProposalView, 'budget'>;

/** A version of the request as its venue reads it (D26): when, what changed in words, and the message. */
export interface VenueVersionView {
  version: number;
  sentAt: string;
  message: string | null;
  changes: ChangeInWords[];
}

/** Everything the venue's page shows. */
export interface VenueRequestPage {
  organizationName: string;
  planner: SourcingParties['planner'];
  venue: VenueSummary;
  request: Omit<VenueRequest, 'venue' | 'eventId' | 'createdAt' | 'updatedAt'>;
  /** Whether the venue may still propose, revise or turn down; false once closed or the event stopped sourcing. */
  open: boolean;
  /** The request as its latest version has it (D26); the live event's only before any version exists. */
  event: VenueEventView;
  /** The latest version's number; null for a request sent before versions were kept. */
  requestVersion: number | null;
  /** The versions after the first, newest first: what changed in each, and the planner's message. */
  updates: VenueVersionView[];
  /** The latest proposal, or null before the venue (or a planner for it) proposed. */
  proposal: VenueProposalView | null;
  /** Its own questions and the answers shared with every venue, oldest first (D27): never another venue's name. */
  questions: QuestionForVenue[];
}

const venueVersion = (version: StoredRequestVersion): VenueVersionView => ({
  version: version.version,
  sentAt: version.sentAt,
  message: version.message,
  changes: version.changes.map(changeInWords),
});

function venueProposal(view: ProposalView): VenueProposalView {
  const { budget: _budget, ...shown } = view;
  return shown;
}

/** The request a link's token leads to; a 404 for any token that leads nowhere. */
async function resolveLink(deps: AppDeps, token: string): Promise<RequestAddress> {
  if (!TOKEN_FORMAT.test(token)) throw unknownLink();
  const address = await deps.store.venueRequests.findByTokenHash(hashVenueToken(token));
  if (!address) throw unknownLink();
  return address;
}

const venueRequester = (address: RequestAddress): VenueRequester => ({
  scope: 'venue',
  organizationId: address.organizationId,
  actor: { type: 'venue', venueId: address.venueId },
});

async function pageOf(deps: AppDeps, address: RequestAddress): Promise<VenueRequestPage> {
  const [event, found, parties, versions, questions] = await Promise.all([
    deps.store.events.find(address.organizationId, address.eventId),
    deps.store.venueRequests.find(address.organizationId, address.eventId, address.requestId),
    readParties(deps, address.organizationId, address.eventId),
    deps.store.venueRequests.versions(address.organizationId, address.eventId),
    deps.store.venueRequests.questions(address.organizationId, address.eventId),
  ]);
  if (!event || !found) throw unknownLink();
  const latest = versions[0];
  const { venue, eventId: _event, createdAt: _created, updatedAt: _updated, ...request } = found.request;
  return {
    organizationName: parties.organizationName,
    planner: parties.planner,
    venue,
    request,
    open: isOpenRequest(found.request.status) && isSourcing(event.details.status),
    event: latest ? latest.snapshot : venueEventView(event.details),
    requestVersion: latest?.version ?? null,
    updates: versions.filter((version) => version.version > 1).map(venueVersion),
    // Coverage is against the room block venues were last sent (D26), never the live one.
    proposal: found.proposal
      ? venueProposal(
          proposalView(found.proposal, {
            ...event.details,
            ...(latest ? { accommodations: latest.snapshot.accommodations } : {}),
          }),
        )
      : null,
    questions: questionsForVenue(questions, address.requestId),
  };
}

/** The venue asks a question on its page (D27): `{ text }`, 1–1,000 characters, while its request is open. */
export async function askVenueQuestion(
  deps: AppDeps,
  token: string,
  body: unknown,
): Promise<VenueRequestPage> {
  const address = await resolveLink(deps, token);
  await changeEvent(deps, venueRequester(address), address.eventId, ASK_QUESTION, {
    requestId: address.requestId,
    body,
  });
  return pageOf(deps, address);
}

/**
 * `GET /rfp/{token}`: the request as its venue sees it. The first opening of an open request marks it
 * `viewed` (D22); later ones, and a closed request's, change nothing.
 */
export async function openVenueRequest(deps: AppDeps, token: string): Promise<VenueRequestPage> {
  const address = await resolveLink(deps, token);
  const found = await deps.store.venueRequests.find(
    address.organizationId,
    address.eventId,
    address.requestId,
  );
  if (found && found.request.viewedAt === null && isOpenRequest(found.request.status)) {
    await changeEvent(deps, venueRequester(address), address.eventId, MARK_VIEWED, {
      requestId: address.requestId,
    });
  }
  return pageOf(deps, address);
}

/** The page as it is, changing nothing (to show a form again with its problems). */
export async function readVenueRequest(deps: AppDeps, token: string): Promise<VenueRequestPage> {
  return pageOf(deps, await resolveLink(deps, token));
}

/**
 * The venue's proposal, or a revision of it (D22, D23): every problem named by its field path (400,
 * nothing written); a request closed or an event no longer sourcing is a 409. The first proposal of
 * the event moves it to `proposals_received`, recorded as the venue's.
 */
export async function submitVenueProposal(
  deps: AppDeps,
  token: string,
  body: unknown,
  openedOn?: number | null,
): Promise<VenueProposalView> {
  const address = await resolveLink(deps, token);
  if (openedOn !== undefined && openedOn !== null) {
    // A form opened on an older version is not stored (D26); the write checks again, inside it.
    const [latest] = await deps.store.venueRequests.versions(address.organizationId, address.eventId);
    if (latest && latest.version !== openedOn) throw new RequestChangedError(openedOn);
  }
  const changed = await changeEvent(deps, venueRequester(address), address.eventId, SUBMIT_PROPOSAL, {
    requestId: address.requestId,
    body,
    submittedBy: 'venue',
    ...(openedOn !== undefined && openedOn !== null ? { openedOn } : {}),
  });
  const proposal = changed.outcome?.proposals?.[0];
  if (!proposal) throw new Error('a submission adds a proposal');
  return venueProposal(proposalView(proposal, changed.event.details));
}

/** The venue turns the request down (D22): `{ reason, comment? }`, `comment` required for `other`. */
export async function turnDownVenueRequest(
  deps: AppDeps,
  token: string,
  body: unknown,
): Promise<VenueRequestPage> {
  const address = await resolveLink(deps, token);
  await changeEvent(deps, venueRequester(address), address.eventId, TURN_DOWN, {
    requestId: address.requestId,
    body,
  });
  return pageOf(deps, address);
}
