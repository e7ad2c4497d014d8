/**
 * Every kind of change an existing event takes, each made through `changeEvent` (change-event.ts):
 * the pure domain change, and what it needs read or resolved before the write.
 */
import { type MoveRequest, makeMove, viewerOf } from '../domain/moves.js';
import { changeStatus, type StatusTarget } from '../domain/status.js';
import { applyUpdate } from '../domain/update-event.js';
import type { EventChange, PersonRequester } from './change-event.js';
import { sentLocations } from './places.js';

/** A merge patch of the details (D5–D7): a PATCH body, or what a dashboard form sends. */
export const UPDATE_DETAILS: EventChange<unknown> = {
  sentLocations,
  apply(current, body, context) {
    const outcome = applyUpdate(current.details, body, context);
    return outcome.changed ? { event: { ...current, details: outcome.details } } : undefined;
  },
};

/**
 * A person's status move (D16). Who may make it is judged on the event as it is inside the write, so a
 * move made stale by another one (an approval that already happened) is refused, never made twice.
 */
export const MOVE: EventChange<MoveRequest, string[], PersonRequester> = {
  async prepare(deps, organizationId, eventId) {
    const grantees = await deps.store.events.grantees(organizationId, eventId);
    return grantees.map((grantee) => grantee.userId);
  },
  apply(current, request, { requester, prepared: grantees, now }) {
    const viewer = viewerOf(current, grantees, requester.actor.userId);
    const { event, from, to, note } = makeMove(current, viewer, request, now);
    return { event, data: { from, to, ...(note ? { [note.field]: note.text } : {}) } };
  },
};

/** The operator's `event status` (D2, D16): any status, or back to the one before a cancellation. */
export const SET_STATUS: EventChange<StatusTarget> = {
  apply(current, target, { now }) {
    const next = changeStatus(current, target, now);
    if (next === current) return undefined;
    return { event: next, data: { from: current.details.status, to: next.details.status } };
  },
};
