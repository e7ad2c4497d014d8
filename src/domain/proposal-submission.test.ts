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
    expect(Object.keys(proposal).slice(0, 6)).toEqual([
      'id',
      'requestId',
      'revision',
      'submittedAt',
      'submittedBy',
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
