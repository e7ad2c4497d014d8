/**
 * The request as sent (D26): the versions of what venues read, the changes not yet sent, and sending
 * them. Version 1 is taken by the first send (change-event.ts); each later version is sent here,
 * through `changeEvent` on the sourcing path, so the version, its change record, the venues' mails
 * and their new links are written in one transaction. Every open request's venue gets a mail with a
 * link of its own: a new token per mail, of which only the hash is kept, so the earlier link works too.
 */
import { EventNotAskingVenuesError, NotFoundError, NothingToSendError } from '../domain/errors.js';
import type { ComposedMail } from '../domain/mail.js';
import {
  changedPaths,
  changeInWords,
  type RequestChange,
  type RequestSnapshot,
  type RequestVersion,
  requestChanges,
  type StoredRequestVersion,
  venueEventView,
} from '../domain/request-versions.js';
import type { EventDetails, EventStatus } from '../domain/types.js';
import { isOpenRequest } from '../domain/venue-request.js';
import { readVersionMessage } from '../domain/venue-request-bodies.js';
import { requestUpdatedMail, revisionRequestedMail } from '../domain/venue-request-mail.js';
import { askForRevision } from '../domain/venue-request-steps.js';
import { changeEvent, type EventChange } from './change-event.js';
import type { AppDeps } from './deps.js';
import { assertUuid } from './resource-ids.js';
import {
  hashVenueToken,
  type RequestDocument,
  readParties,
  requestIn,
  type SourcingParties,
  venueLinkPath,
} from './sourcing.js';
import { eventInScope, type Planner, readRequest } from './venue-requests.js';

/** While venues are being asked (D26): changes are sent only then. */
const asksVenues = (status: EventStatus): boolean =>
  status === 'wait_for_proposals' || status === 'proposals_received';

/** What venues read of the event now, against its latest version: the pending changes (none without a version). */
export function pendingChanges(
  details: EventDetails,
  latest: Pick<StoredRequestVersion, 'snapshot'> | undefined,
): RequestChange[] {
  return latest ? requestChanges(latest.snapshot, venueEventView(details)) : [];
}

/** A version as the API lists it: without its snapshot. */
const listed = ({ snapshot: _snapshot, ...version }: StoredRequestVersion): RequestVersion => version;

/** What sending a version reads before its write: the parties its mails name, and the latest version. */
interface SendPrepared {
  parties: SourcingParties;
  latest: StoredRequestVersion | undefined;
}

/**
 * Sends the pending changes (or a message alone) as the next version (D26): refused outside
 * `wait_for_proposals` and `proposals_received` (409), with nothing to tell (409 `nothing_to_send`,
 * which a second click also gets: the same message again with nothing pending, or a version sent
 * meanwhile, see the store's check). Each open request's venue is mailed with a new link.
 */
export const SEND_CHANGES: EventChange<unknown, SendPrepared> = {
  sourcing: true,
  async prepare(deps, organizationId, eventId) {
    const [parties, versions] = await Promise.all([
      readParties(deps, organizationId, eventId),
      deps.store.venueRequests.versions(organizationId, eventId),
    ]);
    return { parties, latest: versions[0] };
  },
  apply(current, body, context) {
    const { status } = current.details;
    if (!asksVenues(status)) throw new EventNotAskingVenuesError(status);
    const { message } = readVersionMessage(body ?? {});
    const { parties, latest } = context.prepared;
    const snapshot: RequestSnapshot = venueEventView(current.details);
    const changes = latest ? requestChanges(latest.snapshot, snapshot) : [];
    if (changes.length === 0 && (message === null || message === latest?.message)) {
      throw new NothingToSendError(
        message === null
          ? undefined
          : 'This message was just sent to the venues, and nothing has changed since: nothing more to send.',
      );
    }
    const version: StoredRequestVersion = {
      version: (latest?.version ?? 0) + 1,
      sentAt: context.now,
      sentBy: context.requester.actor,
      message,
      changes,
      snapshot,
    };
    const notice = { version: version.version, changes: changes.map(changeInWords), message };
    const mails: ComposedMail[] = [];
    const links: { requestId: string; tokenHash: string }[] = [];
    for (const { request } of context.sourcing ?? []) {
      if (!isOpenRequest(request.status)) continue;
      const token = context.newToken();
      links.push({ requestId: request.id, tokenHash: hashVenueToken(token) });
      const mailContext = {
        organizationName: parties.organizationName,
        planner: parties.planner,
        event: { name: snapshot.name, eventDates: snapshot.eventDates },
        venue: request.venue,
      };
      mails.push(requestUpdatedMail(mailContext, notice, `${parties.publicBaseUrl}${venueLinkPath(token)}`));
    }
    return {
      event: current,
      mails,
      links,
      version,
      records: [
        {
          type: 'request.revised',
          data: { version: version.version, changedFields: changedPaths(changes) },
        },
      ],
    };
  },
};

/** `GET /v1/events/{id}/request-versions`: every version, newest first, and what is pending. */
export async function listRequestVersions(deps: AppDeps, planner: Planner, eventId: string) {
  const event = await eventInScope(deps, planner, eventId);
  const versions = await deps.store.venueRequests.versions(event.organizationId, event.details.id);
  const changes = pendingChanges(event.details, versions[0]);
  return { data: versions.map(listed), pending: changes.length > 0 ? { changes } : null };
}

/** `GET …/request-versions/{n}`: one version with the request as venues read it then. */
export async function getRequestVersion(deps: AppDeps, planner: Planner, eventId: string, n: number) {
  const event = await eventInScope(deps, planner, eventId);
  const versions = await deps.store.venueRequests.versions(event.organizationId, event.details.id);
  const found = versions.find((version) => version.version === n);
  if (!found) throw new NotFoundError(`The event has no version ${n} of its request.`);
  const { snapshot, ...version } = found;
  return { ...version, request: snapshot };
}

/** `POST /v1/events/{id}/request-versions` `{ message? }`: the next version, sent to every open request. */
export async function sendRequestVersion(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  body: unknown,
): Promise<RequestVersion> {
  const changed = await changeEvent(deps, planner, eventId, SEND_CHANGES, body);
  const version = changed.outcome?.version;
  if (!version) throw new Error('sending changes makes a version');
  return listed(version);
}

/** What asking for a revision reads before its write: the parties its mail names, and every version. */
interface RevisionPrepared {
  parties: SourcingParties;
  versions: readonly StoredRequestVersion[];
}

/**
 * Asks a venue to revise its proposal (D26), `{ message? }`: its mail says which version the proposal
 * answers and what changed since, with a link of its own; `venue_request.revision_requested` records
 * it. Only a `proposed` request while sourcing goes on (409); the request's state before the body.
 */
export const REQUEST_REVISION: EventChange<{ requestId: string; body: unknown }, RevisionPrepared> = {
  sourcing: true,
  async prepare(deps, organizationId, eventId) {
    const [parties, versions] = await Promise.all([
      readParties(deps, organizationId, eventId),
      deps.store.venueRequests.versions(organizationId, eventId),
    ]);
    return { parties, versions };
  },
  apply(current, { requestId, body }, context) {
    const { request, proposal } = requestIn(context.sourcing ?? [], requestId);
    const step = askForRevision(request, current.details.status, proposal?.revision ?? 0, context.now);
    const { message } = readVersionMessage(body ?? {});
    const { parties, versions } = context.prepared;
    const latest = versions[0];
    const answered = versions.find((version) => version.version === proposal?.requestVersion) ?? latest;
    const changes = latest && answered ? requestChanges(answered.snapshot, latest.snapshot) : [];
    const token = context.newToken();
    const mailContext = {
      organizationName: parties.organizationName,
      planner: parties.planner,
      event: {
        name: latest?.snapshot.name ?? current.details.name,
        eventDates: latest?.snapshot.eventDates ?? current.details.eventDates,
      },
      venue: request.venue,
    };
    const notice = {
      proposalRevision: proposal?.revision ?? 0,
      answeredVersion: answered?.version ?? 1,
      latestVersion: latest?.version ?? 1,
      changes: changes.map(changeInWords),
      message,
    };
    return {
      event: current,
      steps: [step],
      mails: [revisionRequestedMail(mailContext, notice, `${parties.publicBaseUrl}${venueLinkPath(token)}`)],
      links: [{ requestId: request.id, tokenHash: hashVenueToken(token) }],
    };
  },
};

/** `POST …/venue-requests/{requestId}/revision-request` `{ message? }` (D26): the request as it is now. */
export async function requestRevision(
  deps: AppDeps,
  planner: Planner,
  eventId: string,
  requestId: string,
  body: unknown,
): Promise<RequestDocument> {
  const id = assertUuid('requestId', requestId);
  const changed = await changeEvent(deps, planner, eventId, REQUEST_REVISION, { requestId: id, body });
  return readRequest(deps, changed.event, id);
}
