import { describe, expect, it } from 'vitest';
import { blankEvent } from './create-event.js';
import { ConflictError } from './errors.js';
import { changeStatus, isStatusTarget } from './status.js';
import { type EventStatus, STATUSES, type StoredEvent } from './types.js';

const CREATED = '2026-01-01T00:00:00.000Z';
const NOW = '2026-02-01T00:00:00.000Z';

function stored(status: EventStatus, previousStatus: EventStatus | null = null): StoredEvent {
  return {
    organizationId: 'org',
    createdBy: 'user',
    previousStatus,
    details: { ...blankEvent('7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50', CREATED), name: 'Status', status },
  };
}

describe('changeStatus (D2)', () => {
  it('cancels an event and remembers the status it had', () => {
    const result = changeStatus(stored('proposals_received'), 'cancelled', NOW);
    expect(result.details.status).toBe('cancelled');
    expect(result.previousStatus).toBe('proposals_received');
    expect(result.details.updatedAt).toBe(NOW);
  });

  it('reopens a cancelled event to the status it had before', () => {
    for (const status of STATUSES.filter((s) => s !== 'cancelled')) {
      const cancelled = changeStatus(stored(status), 'cancelled', NOW);
      const reopened = changeStatus(cancelled, 'reopen', '2026-03-01T00:00:00.000Z');
      expect(reopened.details.status).toBe(status);
      expect(reopened.previousStatus).toBeNull();
      expect(reopened.details.updatedAt).toBe('2026-03-01T00:00:00.000Z');
    }
  });

  it('reopens to draft when no earlier status is known', () => {
    expect(changeStatus(stored('cancelled', null), 'reopen', NOW).details.status).toBe('draft');
  });

  it('refuses to reopen an event that is not cancelled', () => {
    for (const status of STATUSES.filter((s) => s !== 'cancelled')) {
      expect(() => changeStatus(stored(status), 'reopen', NOW)).toThrow(ConflictError);
    }
  });

  it('refuses to move a cancelled event anywhere but back through reopen', () => {
    expect(() => changeStatus(stored('cancelled', 'booked'), 'completed', NOW)).toThrow(ConflictError);
  });

  it('moves freely between the other statuses', () => {
    const result = changeStatus(stored('draft'), 'wait_for_proposals', NOW);
    expect(result.details.status).toBe('wait_for_proposals');
    expect(result.previousStatus).toBeNull();
    expect(changeStatus(result, 'booked', NOW).details.status).toBe('booked');
  });

  it('returns the event untouched when it already has the status', () => {
    const event = stored('cancelled', 'booked');
    expect(changeStatus(event, 'cancelled', NOW)).toBe(event);
  });

  it('does not modify its input', () => {
    const event = stored('booked');
    const before = structuredClone(event);
    changeStatus(event, 'cancelled', NOW);
    expect(event).toEqual(before);
  });
});

describe('isStatusTarget', () => {
  it('knows every status and reopen, nothing else', () => {
    for (const status of STATUSES) expect(isStatusTarget(status)).toBe(true);
    expect(isStatusTarget('reopen')).toBe(true);
    expect(isStatusTarget('open')).toBe(false);
    expect(isStatusTarget('Cancelled')).toBe(false);
  });
});
