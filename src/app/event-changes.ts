/**
 * Every kind of change an existing event takes, each made through `changeEvent` (change-event.ts):
 * the pure domain change, and what it needs read or resolved before the write. The changes of its
 * requests for proposals are in sourcing-changes.ts.
 */
import type { StatusChangeData } from '../domain/changes.js';
import { type MoveRequest, makeMove, viewerOf } from '../domain/moves.js';
import { changeStatus, type StatusTarget } from '../domain/status.js';
import type { StoredEvent } from '../domain/types.js';
import { applyUpdate } from '../domain/update-event.js';
import { stepsOnStatusMove } from '../domain/venue-request-steps.js';
import type {
  ChangeContext,
  ChangeOutcome,
  EventChange,
  PersonRequester,
  Requester,
} from './change-event.js';
import { sentLocations } from './places.js';
import { readParties, type SourcingParties, shortlistedCount, tellVenues } from './sourcing.js';

/** A merge patch of the details (D5–D7): a PATCH body, or what a dashboard form sends. */
export const UPDATE_DETAILS: EventChange<unknown> = {
  sentLocations,
  apply(current, body, context) {
    const outcome = applyUpdate(current.details, body, context);
    return outcome.changed ? { event: { ...current, details: outcome.details } } : undefined;
  },
};

/**
 * A status move with what it does to the event's requests (D21, D24): into `wait_for_proposals` the
 * shortlist is sent, into `cancelled` every open request is withdrawn, each venue told by mail.
 */
function statusMoved(
  event: StoredEvent,
  data: StatusChangeData,
  context: ChangeContext<{ parties: SourcingParties }, Requester>,
): ChangeOutcome {
  const requests = (context.sourcing ?? []).map(({ request }) => request);
  const steps = stepsOnStatusMove(data.from, data.to, requests, event.details, context.now);
  const { mails, tokenHashes } = tellVenues(steps, event.details, context.prepared.parties, context.newToken);
  return { event, data, steps, mails, tokenHashes };
}

/**
 * A person's status move (D16). Who may make it is judged on the event as it is inside the write, so a
 * move made stale by another one (an approval that already happened) is refused, never made twice. The
 * checklist's shortlist is read inside the write too.
 */
export const MOVE: EventChange<
  MoveRequest,
  { grantees: string[]; parties: SourcingParties },
  PersonRequester
> = {
  sourcing: true,
  tellsPeople: true,
  async prepare(deps, organizationId, eventId) {
    const [grantees, parties] = await Promise.all([
      deps.store.events.grantees(organizationId, eventId),
      readParties(deps, organizationId, eventId),
    ]);
    return { grantees: grantees.map((grantee) => grantee.userId), parties };
  },
  apply(current, request, context) {
    const { requester, prepared, now } = context;
    const viewer = viewerOf(current, prepared.grantees, requester.actor.userId);
    const shortlisted = shortlistedCount(context.sourcing ?? []);
    const { event, from, to, note } = makeMove(current, viewer, request, now, shortlisted);
    const data = { from, to, ...(note ? { [note.field]: note.text } : {}) };
    return statusMoved(event, data, context);
  },
};

/** The operator's `event status` (D2, D16): any status, or back to the one before a cancellation. */
export const SET_STATUS: EventChange<StatusTarget, { parties: SourcingParties }> = {
  sourcing: true,
  tellsPeople: true,
  async prepare(deps, organizationId, eventId) {
    return { parties: await readParties(deps, organizationId, eventId) };
  },
  apply(current, target, context) {
    const next = changeStatus(current, target, context.now);
    if (next === current) return undefined;
    return statusMoved(next, { from: current.details.status, to: next.details.status }, context);
  },
};
