/** Planning statuses (D2): moved by operators, never by the API. */
import { ConflictError } from './errors.js';
import { type EventStatus, STATUSES, type StoredEvent } from './types.js';

export type StatusTarget = EventStatus | 'reopen';

export function isStatusTarget(value: string): value is StatusTarget {
  return value === 'reopen' || (STATUSES as readonly string[]).includes(value);
}

/** Moves an event to a status; `reopen` returns a cancelled event to the status it had before. */
export function changeStatus(event: StoredEvent, target: StatusTarget, now: string): StoredEvent {
  const current = event.details.status;
  if (target === 'reopen') {
    if (current !== 'cancelled')
      throw new ConflictError(`event is ${current}, not cancelled; only a cancelled event can be reopened`);
    const restored = event.previousStatus ?? 'draft';
    return {
      ...event,
      previousStatus: null,
      details: { ...event.details, status: restored, updatedAt: now },
    };
  }
  if (current === target) return event;
  if (current === 'cancelled') {
    throw new ConflictError('event is cancelled; reopen it first');
  }
  return {
    ...event,
    previousStatus: target === 'cancelled' ? current : null,
    details: { ...event.details, status: target, updatedAt: now },
  };
}
