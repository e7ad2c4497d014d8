/**
 * What the sourcing use cases share (D21–D24): the venue's link (a random token, of which only the
 * SHA-256 is stored), the parties a venue's mail names, the mails and tokens of request steps, the
 * version of an event's sourcing that a page carries, and requests and proposals as read.
 */
import { hash } from 'node:crypto';
import { NotFoundError } from '../domain/errors.js';
import type { ComposedMail } from '../domain/mail.js';
import { type FiguresEvent, type ProposalView, proposalView } from '../domain/proposal-figures.js';
import { isOverdue } from '../domain/reply-dates.js';
import type { StoredRequestVersion } from '../domain/request-versions.js';
import type { EventDetails } from '../domain/types.js';
import type { REMINDER_BOOKKEEPING, RequestStep, VenueRequest } from '../domain/venue-request.js';
import {
  replyDateMovedMail,
  requestReminderMail,
  type VenueMailContext,
  venueStepMail,
} from '../domain/venue-request-mail.js';
import type { EventDocument, EventSourcing } from '../ports/event-repository.js';
import type { RequestWithProposal } from '../ports/venue-request-repository.js';
import type { AppDeps } from './deps.js';
import { storedEtag } from './etag.js';
import { mailSettings } from './mail.js';

/** Base62 characters of a venue's link token: about 190 random bits (D21 asks for at least 128). */
export const VENUE_TOKEN_LENGTH = 32;

/** What the store keeps of a venue's link token, and looks it up by: its SHA-256, in hex. */
export const hashVenueToken = (token: string): string => hash('sha256', token, 'hex');

/** The venue's page for a token (D22): `{PUBLIC_BASE_URL}/rfp/{token}`. */
export const venueLinkPath = (token: string): string => `/rfp/${token}`;

/** How many requests are on the event's shortlist (D16's checklist item of D21). */
export function shortlistedCount(requests: EventSourcing): number {
  return requests.filter(({ request }) => request.status === 'shortlisted').length;
}

/** The request of the event with this id, or a 404 that names it. */
export function requestIn(sourcing: EventSourcing, requestId: string): RequestWithProposal {
  const found = sourcing.find(({ request }) => request.id === requestId);
  if (!found) throw new NotFoundError(`The event has no venue request ${requestId}.`);
  return found;
}

/**
 * The version of an event's sourcing as a page shows it: the event's ETag and every request's status,
 * last change and latest revision. A decision taken on a page whose version has moved (the event, a
 * request or a proposal changed meanwhile) is refused and writes nothing (D24's stale page).
 */
export function sourcingVersion(stored: EventDocument, sourcing: EventSourcing): string {
  const parts = [storedEtag(stored)];
  for (const { request, proposal } of sourcing) {
    parts.push(`${request.id}:${request.status}:${request.updatedAt}:${proposal?.revision ?? 0}`);
  }
  return hash('sha256', parts.join('\n'), 'base64url').slice(0, 32);
}

/** Who a venue's mail names besides the venue: the organization, the planner, and where links lead. */
export interface SourcingParties {
  organizationName: string;
  /** The event's creator, who plans it: named in the venue's mails and page, and their reply-to. */
  planner: { name: string | null; email: string } | null;
  /** PUBLIC_BASE_URL, for the venue's link. */
  publicBaseUrl: string;
}

/** The parties of an event's sourcing, read before its write (none of them changes with the write). */
export async function readParties(
  deps: AppDeps,
  organizationId: string,
  eventId: string,
): Promise<SourcingParties> {
  const [organization, event] = await Promise.all([
    deps.store.identity.findOrganization(organizationId),
    deps.store.events.find(organizationId, eventId),
  ]);
  const planner = event ? await deps.store.identity.findUser(event.createdBy) : undefined;
  return {
    organizationName: organization?.name ?? 'The organization',
    planner: planner ? { name: planner.name, email: planner.email } : null,
    publicBaseUrl: mailSettings(deps).publicBaseUrl,
  };
}

/**
 * What telling the venues of some steps takes: a new link token for each request sent (its first
 * link), and one more link for each later mail that carries one (a moved reply date), the earlier
 * links working as before.
 */
export interface VenueNotices {
  mails: ComposedMail[];
  tokenHashes: Map<string, string>;
  links: { requestId: string; tokenHash: string }[];
}

/**
 * The mails of the steps whose venue is told (D21, D24), and for each request sent a new link token,
 * of which only the hash is kept: the token itself is in the mail alone.
 */
export function tellVenues(
  steps: readonly RequestStep[],
  event: Pick<EventDetails, 'name' | 'eventDates' | 'status'>,
  parties: SourcingParties,
  newToken: () => string,
): VenueNotices {
  const notices: VenueNotices = { mails: [], tokenHashes: new Map(), links: [] };
  for (const step of steps) {
    if (!step.tellVenue || !step.after) continue;
    const request: VenueRequest = step.after;
    const context: VenueMailContext = {
      organizationName: parties.organizationName,
      planner: parties.planner,
      event,
      venue: request.venue,
    };
    if (step.change?.type === 'venue_request.reminded') {
      notices.mails.push(requestReminderMail(context, request));
      continue;
    }
    if (step.change?.type === 'venue_request.due_date_changed') {
      const token = newToken();
      notices.links.push({ requestId: request.id, tokenHash: hashVenueToken(token) });
      const previous = step.change.data.previousResponseDueDate ?? null;
      const url = `${parties.publicBaseUrl}${venueLinkPath(token)}`;
      notices.mails.push(replyDateMovedMail(context, request, previous, url));
      continue;
    }
    let url: string | undefined;
    if (request.status === 'sent') {
      const token = newToken();
      notices.tokenHashes.set(request.id, hashVenueToken(token));
      url = `${parties.publicBaseUrl}${venueLinkPath(token)}`;
    }
    const mail = venueStepMail(context, request, { url, eventCancelled: event.status === 'cancelled' });
    if (mail) notices.mails.push(mail);
  }
  return notices;
}

/** A request as the API and the dashboard read it (D21): its latest proposal with its figures (D23). */
export interface RequestDocument
  extends Omit<VenueRequest, 'createdAt' | 'updatedAt' | (typeof REMINDER_BOOKKEEPING)[number]> {
  /** Still waiting for the venue's answer after its reply date (D28). */
  overdue: boolean;
  proposal: ProposalView | null;
  createdAt: string;
  updatedAt: string;
}

/** A request as read at `now`: its latest proposal with its figures, and whether it is overdue. */
export function requestDocument(
  { request, proposal }: RequestWithProposal,
  event: Pick<EventDetails, 'currency' | 'budgetBreakdown' | 'accommodations'>,
  now: string,
): RequestDocument {
  const { createdAt, updatedAt, reminderSettledAt: _settled, dueDateToldAt: _told, ...fields } = request;
  return {
    ...fields,
    overdue: isOverdue(request, now),
    proposal: proposal ? proposalView(proposal, event) : null,
    createdAt,
    updatedAt,
  };
}

/** What proposals are measured against (D26): the attendees and the room block of the latest version. */
export interface LatestRequirements {
  /** The version they come from; null for an event never sent (its live details are used). */
  version: number | null;
  numPeople: number;
  accommodations: EventDetails['accommodations'];
}

/**
 * The requirements of the latest version sent to venues, which coverage is computed against (D26):
 * the live event's before its first send. Reads the versions once; give `versions` when already read.
 */
export async function latestRequirements(
  deps: AppDeps,
  event: { organizationId: string; details: EventDetails },
  versions?: readonly StoredRequestVersion[],
): Promise<LatestRequirements> {
  const latest = (versions ??
    (await deps.store.venueRequests.versions(event.organizationId, event.details.id)))[0];
  if (!latest) {
    return {
      version: null,
      numPeople: event.details.numPeople,
      accommodations: event.details.accommodations,
    };
  }
  return {
    version: latest.version,
    numPeople: latest.snapshot.numPeople,
    accommodations: latest.snapshot.accommodations,
  };
}

/**
 * The event as proposals' figures read it (D26): its currency and budget as they are now, and the room
 * block of the latest version sent to venues (the live one before the first send), so that coverage is
 * always judged against what the venues were asked.
 */
export async function figuresEventOf(
  deps: AppDeps,
  event: { organizationId: string; details: EventDetails },
  versions?: readonly StoredRequestVersion[],
): Promise<FiguresEvent> {
  const { accommodations } = await latestRequirements(deps, event, versions);
  return { currency: event.details.currency, budgetBreakdown: event.details.budgetBreakdown, accommodations };
}
