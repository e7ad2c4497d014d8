import { describe, expect, it } from 'vitest';
import { EventNotSourcingError, RequestClosedError, RequestNotSentError, ValidationError } from './errors.js';
import { eventStatusAfterProposal, submitProposal } from './proposal-submission.js';
import { type EventStatus, STATUSES } from './types.js';
import { REQUEST_STATUSES, type RequestStatus, type VenueRequest } from './venue-request.js';

const NOW = '2027-03-10T15:00:00.000Z';
const SENT = '2027-03-01T09:00:00.000Z';
const EVENT = {
  status: 'wait_for_proposals' as EventStatus,
  currency: 'EUR',
  eventDates: [{ startDate: '2027-05-12', endDate: '2027-05-14' }],
};
const BODY = { validUntil: '2027-03-31', rooms: { '2027-05-12': { Single: { count: 10, rate: 150 } } } };

function requestIn(status: RequestStatus): VenueRequest {
  return {
    id: 'r1',
    eventId: 'e1',
    venue: { id: 'v1', name: 'Lisa', email: 'lisa@x.example', city: 'Lisbon' },
    status,
    responseDueDate: '2027-03-20',
    sentAt: status === 'shortlisted' ? null : SENT,
    viewedAt: null,
    respondedAt: status === 'proposed' ? SENT : null,
    turnDown: null,
    decision: null,
    remindedAt: null,
    reminderSettledAt: null,
    dueDateToldAt: null,
    createdAt: SENT,
    updatedAt: SENT,
  };
}

const submit = (request: VenueRequest, overrides: Partial<Parameters<typeof submitProposal>[0]> = {}) =>
  submitProposal({
    event: EVENT,
    request,
    latestRevision: 0,
    body: BODY,
    submittedBy: 'venue',
    latestVersion: 1,
    id: 'p1',
    now: NOW,
    ...overrides,
  });

describe('submitProposal (D23), for a request in each status', () => {
  const outcome: Record<RequestStatus, 'proposed' | 'request_not_sent' | 'request_closed'> = {
    shortlisted: 'request_not_sent',
    sent: 'proposed',
    viewed: 'proposed',
    proposed: 'proposed',
    turned_down: 'request_closed',
    awarded: 'request_closed',
    declined: 'request_closed',
    withdrawn: 'request_closed',
    no_response: 'request_closed',
  };
  for (const status of REQUEST_STATUSES) {
    it(`${status}: ${outcome[status]}`, () => {
      const act = () => submit(requestIn(status));
      if (outcome[status] === 'request_not_sent') expect(act).toThrow(RequestNotSentError);
      else if (outcome[status] === 'request_closed') expect(act).toThrow(RequestClosedError);
      else expect(act().step.after?.status).toBe('proposed');
    });
  }
});

describe('submitProposal', () => {
  it('makes revision 1 of a first proposal and records it as proposal.submitted', () => {
    const { proposal, step, eventStatus } = submit(requestIn('viewed'));
    expect(proposal).toMatchObject({
      id: 'p1',
      requestId: 'r1',
      revision: 1,
      submittedAt: NOW,
      submittedBy: 'venue',
      currency: 'EUR',
    });
    expect(Object.keys(proposal).slice(0, 8)).toEqual([
      'id',
      'requestId',
      'revision',
      'submittedAt',
      'submittedBy',
      'requestVersion',
      'late',
      'validUntil',
    ]);
    expect(step.after).toMatchObject({ status: 'proposed', respondedAt: NOW, updatedAt: NOW });
    expect(step).toMatchObject({
      tellVenue: false,
      change: { type: 'proposal.submitted', data: { requestId: 'r1', venueId: 'v1', proposalRevision: 1 } },
    });
    expect(eventStatus).toBe('proposals_received');
  });

  it('makes the next revision of a revised proposal and keeps the time of the first answer', () => {
    const { proposal, step } = submit(requestIn('proposed'), { latestRevision: 2, submittedBy: 'planner' });
    expect(proposal).toMatchObject({ revision: 3, submittedBy: 'planner' });
    expect(step.after?.respondedAt).toBe(SENT);
    expect(step.change?.data.proposalRevision).toBe(3);
  });

  it('answers the latest version, and a planner may name an earlier one (D26)', () => {
    expect(submit(requestIn('sent'), { latestVersion: 3 }).proposal.requestVersion).toBe(3);
    expect(submit(requestIn('sent'), { latestVersion: 0 }).proposal.requestVersion).toBe(1);
    const older = submit(requestIn('sent'), {
      latestVersion: 3,
      submittedBy: 'planner',
      body: { ...BODY, requestVersion: 2 },
    });
    expect(older.proposal.requestVersion).toBe(2);
    expect(older.proposal).not.toHaveProperty('requestVersion', 3);
  });

  it('names requestVersion with the body’s other problems, and never takes one from a venue', () => {
    for (const requestVersion of [0, 4, 2.5, '2']) {
      const attempt = () =>
        submit(requestIn('sent'), {
          latestVersion: 3,
          submittedBy: 'planner',
          body: { rooms: BODY.rooms, requestVersion },
        });
      expect(attempt).toThrow(ValidationError);
      try {
        attempt();
      } catch (error) {
        const fields = (error as ValidationError).problems.map((problem) => problem.field);
        expect(fields).toEqual(expect.arrayContaining(['requestVersion', 'validUntil']));
      }
    }
    expect(() =>
      submit(requestIn('sent'), { latestVersion: 3, body: { ...BODY, requestVersion: 2 } }),
    ).toThrow(ValidationError);
  });

  it('is late after the reply date has ended everywhere on Earth (D28), and on time until then', () => {
    const due = { ...requestIn('sent'), responseDueDate: '2027-03-09' };
    // 2027-03-09 ends everywhere at 2027-03-10T12:00Z (UTC−12).
    expect(submit(due, { now: '2027-03-10T11:59:00.000Z' }).proposal.late).toBe(false);
    expect(submit(due, { now: '2027-03-10T12:00:00.000Z' }).proposal.late).toBe(true);
    expect(submit(requestIn('sent')).proposal.late).toBe(false);
  });

  it('refuses the request’s state (409) before it reads the body (400)', () => {
    expect(() => submit(requestIn('withdrawn'), { body: {} })).toThrow(RequestClosedError);
    expect(() => submit(requestIn('sent'), { body: {} })).toThrow(ValidationError);
  });

  it('is refused once the event is booked, completed or cancelled', () => {
    for (const status of ['booked', 'completed', 'cancelled'] as const) {
      expect(() => submit(requestIn('sent'), { event: { ...EVENT, status } })).toThrow(EventNotSourcingError);
    }
  });
});

describe('eventStatusAfterProposal (D23)', () => {
  it('moves the event from wait_for_proposals to proposals_received and leaves any other status', () => {
    for (const status of STATUSES) {
      expect(eventStatusAfterProposal(status)).toBe(
        status === 'wait_for_proposals' ? 'proposals_received' : status,
      );
    }
  });
});
