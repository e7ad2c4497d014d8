import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPastDate } from './anywhere-on-earth.js';
import { isLate, isOverdue, reminderDecision, reminderMoment, reminderWindow } from './reply-dates.js';

/** A request waiting for its answer, due on 12 May 2027, told of that date on 1 May. */
const waiting = {
  status: 'viewed' as const,
  responseDueDate: '2027-05-12',
  reminderSettledAt: null,
  dueDateToldAt: '2027-05-01T10:00:00.000Z',
};

describe('reminderMoment', () => {
  it('is 09:00 UTC of the day that many days before the reply date', () => {
    expect(reminderMoment('2027-05-12', 2)).toBe('2027-05-10T09:00:00.000Z');
    expect(reminderMoment('2027-03-01', 1)).toBe('2027-02-28T09:00:00.000Z');
    expect(reminderMoment('2028-03-01', 1)).toBe('2028-02-29T09:00:00.000Z');
  });
});

describe('reminderDecision', () => {
  it('is not due before 09:00 UTC of the day two days before, and sends from that moment', () => {
    expect(reminderDecision(waiting, 'wait_for_proposals', '2027-05-10T08:59:59.999Z', 2)).toBe('not_due');
    expect(reminderDecision(waiting, 'wait_for_proposals', '2027-05-10T09:00:00.000Z', 2)).toBe('send');
    expect(reminderDecision(waiting, 'proposals_received', '2027-05-12T20:00:00.000Z', 2)).toBe('send');
  });

  it('sends nothing once the reminder is settled, or when reminders are off', () => {
    const settled = { ...waiting, reminderSettledAt: '2027-05-10T09:01:00.000Z' };
    expect(reminderDecision(settled, 'wait_for_proposals', '2027-05-11T09:00:00.000Z', 2)).toBe('not_due');
    expect(reminderDecision(waiting, 'wait_for_proposals', '2027-05-12T09:00:00.000Z', 0)).toBe('not_due');
  });

  it('never reminds a request answered, closed or on an event that no longer asks venues', () => {
    const at = '2027-05-11T09:00:00.000Z';
    for (const status of ['proposed', 'turned_down', 'withdrawn', 'no_response', 'shortlisted'] as const) {
      expect(reminderDecision({ ...waiting, status }, 'wait_for_proposals', at, 2)).toBe('not_due');
    }
    for (const eventStatus of ['booked', 'completed', 'cancelled', 'draft'] as const) {
      expect(reminderDecision(waiting, eventStatus, at, 2)).toBe('not_due');
    }
  });

  it('finds the reminder not needed when the venue was told its date at or after the moment', () => {
    const lateSend = { ...waiting, status: 'sent' as const, dueDateToldAt: '2027-05-10T15:00:00.000Z' };
    expect(reminderDecision(lateSend, 'wait_for_proposals', '2027-05-10T15:01:00.000Z', 2)).toBe(
      'not_needed',
    );
    const justBefore = { ...lateSend, dueDateToldAt: '2027-05-10T08:59:00.000Z' };
    expect(reminderDecision(justBefore, 'wait_for_proposals', '2027-05-10T09:00:00.000Z', 2)).toBe('send');
  });

  it('finds the reminder not needed once the reply date has passed everywhere on Earth', () => {
    // 13 May 11:59 UTC is still 12 May at UTC−12; at 12:00 it has ended there too.
    expect(reminderDecision(waiting, 'wait_for_proposals', '2027-05-13T11:59:59.999Z', 2)).toBe('send');
    expect(reminderDecision(waiting, 'wait_for_proposals', '2027-05-13T12:00:00.000Z', 2)).toBe('not_needed');
  });
});

describe('reminderWindow', () => {
  it('spans the reply dates not yet past whose reminder moment has come', () => {
    expect(reminderWindow('2027-05-10T09:00:00.000Z', 2)).toEqual({ from: '2027-05-09', to: '2027-05-12' });
    expect(reminderWindow('2027-05-10T08:59:00.000Z', 2)).toEqual({ from: '2027-05-09', to: '2027-05-11' });
  });

  it('holds exactly the reply dates a reminder may be sent or settled for, at any instant', () => {
    const instant = fc
      .integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2030-12-31T23:59:59Z') })
      .map((ms) => new Date(ms).toISOString());
    const date = fc
      .integer({ min: Date.parse('2025-12-01T00:00:00Z'), max: Date.parse('2031-01-31T00:00:00Z') })
      .map((ms) => new Date(ms).toISOString().slice(0, 10));
    fc.assert(
      fc.property(instant, date, fc.integer({ min: 1, max: 30 }), (now, responseDueDate, days) => {
        const { from, to } = reminderWindow(now, days);
        const inWindow = responseDueDate >= from && responseDueDate <= to;
        const decision = reminderDecision(
          { ...waiting, responseDueDate, dueDateToldAt: '2025-01-01T00:00:00.000Z' },
          'wait_for_proposals',
          now,
          days,
        );
        // In the window: sent (nothing else stops it); out of it: not due yet, or already past.
        if (inWindow) expect(decision).toBe('send');
        else expect(decision === 'not_due' || isPastDate(responseDueDate, now)).toBe(true);
      }),
    );
  });
});

describe('isOverdue and isLate', () => {
  it('marks a request still waiting after its reply date has ended everywhere on Earth', () => {
    expect(isOverdue(waiting, '2027-05-13T11:59:00.000Z')).toBe(false);
    expect(isOverdue(waiting, '2027-05-13T12:00:00.000Z')).toBe(true);
    expect(isOverdue({ ...waiting, status: 'proposed' }, '2027-06-01T00:00:00.000Z')).toBe(false);
    expect(isOverdue({ ...waiting, status: 'withdrawn' }, '2027-06-01T00:00:00.000Z')).toBe(false);
    expect(isOverdue({ ...waiting, responseDueDate: null }, '2027-06-01T00:00:00.000Z')).toBe(false);
  });

  it('marks a proposal submitted after the reply date in force as late', () => {
    expect(isLate('2027-05-12', '2027-05-13T11:00:00.000Z')).toBe(false);
    expect(isLate('2027-05-12', '2027-05-13T12:30:00.000Z')).toBe(true);
    expect(isLate(null, '2030-01-01T00:00:00.000Z')).toBe(false);
  });
});
