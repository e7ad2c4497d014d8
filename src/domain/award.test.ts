import { describe, expect, it } from 'vitest';
import { AWARD_EFFECT_ON_OTHERS, awardRequest, declineRequest } from './award.js';
import {
  EventNotSourcingError,
  NotFoundError,
  ProposalExpiredError,
  RequestNotProposedError,
} from './errors.js';
import { type EventStatus, STATUSES } from './types.js';
import { REQUEST_STATUSES, type RequestStatus, type VenueRequest } from './venue-request.js';

const NOW = '2027-03-10T15:00:00.000Z';
const EARLIER = '2027-03-01T09:00:00.000Z';
const VALID = { validUntil: '2027-03-31' };

function request(id: string, status: RequestStatus): VenueRequest {
  return {
    id,
    eventId: 'e1',
    venue: { id: `venue-${id}`, name: id, email: `${id}@x.example`, city: 'Lisbon' },
    status,
    responseDueDate: '2027-03-20',
    sentAt: status === 'shortlisted' ? null : EARLIER,
    viewedAt: null,
    respondedAt: null,
    turnDown: null,
    decision: null,
    remindedAt: null,
    reminderSettledAt: null,
    dueDateToldAt: null,
    createdAt: EARLIER,
    updatedAt: EARLIER,
  };
}

const award = (requests: VenueRequest[], overrides: Partial<Parameters<typeof awardRequest>[0]> = {}) =>
  awardRequest({
    eventStatus: 'proposals_received',
    requests,
    requestId: 'winner',
    proposal: VALID,
    comment: null,
    now: NOW,
    ...overrides,
  });

describe('awardRequest (D24): the request awarded, by its status', () => {
  for (const status of REQUEST_STATUSES) {
    const expected = status === 'proposed' ? 'awarded, event booked' : 'refused: request_not_proposed';
    it(`${status}: ${expected}`, () => {
      const act = () => award([request('winner', status)]);
      if (status !== 'proposed') {
        expect(act).toThrow(RequestNotProposedError);
        return;
      }
      const outcome = act();
      expect(outcome.eventStatus).toBe('booked');
      expect(outcome.steps).toHaveLength(1);
      expect(outcome.steps[0]?.after).toMatchObject({
        status: 'awarded',
        decision: { reason: null, comment: null },
        updatedAt: NOW,
      });
      expect(outcome.steps[0]).toMatchObject({
        tellVenue: true,
        change: { type: 'venue_request.awarded', data: { requestId: 'winner', venueId: 'venue-winner' } },
      });
    });
  }
});

describe('awardRequest (D24): every other request, by its status', () => {
  const expected: Record<
    RequestStatus,
    { to: RequestStatus; told: boolean; recorded: boolean } | 'unchanged'
  > = {
    shortlisted: { to: 'withdrawn', told: false, recorded: true },
    sent: { to: 'no_response', told: true, recorded: true },
    viewed: { to: 'no_response', told: true, recorded: true },
    proposed: { to: 'declined', told: true, recorded: true },
    turned_down: 'unchanged',
    awarded: 'unchanged',
    declined: 'unchanged',
    withdrawn: 'unchanged',
    no_response: 'unchanged',
  };

  for (const status of REQUEST_STATUSES) {
    const outcome = expected[status];
    const title =
      outcome === 'unchanged'
        ? 'left as it is'
        : `→ ${outcome.to}${outcome.told ? ', venue told' : ', venue not told'}`;
    it(`${status}: ${title}`, () => {
      const other = request('other', status);
      const { steps } = award([request('winner', 'proposed'), other]);
      const step = steps.find((candidate) => candidate.before?.id === 'other');
      if (outcome === 'unchanged') {
        expect(step).toBeUndefined();
        return;
      }
      expect(step?.after?.status).toBe(outcome.to);
      expect(step?.tellVenue).toBe(outcome.told);
      expect(step?.change?.type).toBe(`venue_request.${outcome.to}`);
      expect(step?.after?.decision).toEqual(
        outcome.to === 'declined' ? { reason: 'selected_other_venue', comment: null } : null,
      );
    });
  }

  it('agrees with the table it publishes', () => {
    for (const status of REQUEST_STATUSES) {
      const outcome = expected[status];
      expect(AWARD_EFFECT_ON_OTHERS[status]).toEqual(
        outcome === 'unchanged' ? null : { to: outcome.to, tellVenue: outcome.told },
      );
    }
  });
});

describe('awardRequest (D24)', () => {
  it('keeps the planner’s comment, puts the awarded request first and the others in their order', () => {
    const outcome = award(
      [
        request('a', 'sent'),
        request('winner', 'proposed'),
        request('b', 'proposed'),
        request('c', 'declined'),
      ],
      {
        comment: 'Best coverage',
      },
    );
    expect(outcome.steps.map((step) => [step.before?.id, step.after?.status])).toEqual([
      ['winner', 'awarded'],
      ['a', 'no_response'],
      ['b', 'declined'],
    ]);
    expect(outcome.steps[0]?.after?.decision).toEqual({ reason: null, comment: 'Best coverage' });
  });

  it('refuses a proposal whose validUntil has passed everywhere on Earth, and accepts one valid somewhere today', () => {
    expect(() => award([request('winner', 'proposed')], { proposal: { validUntil: '2027-03-09' } })).toThrow(
      ProposalExpiredError,
    );
    expect(
      award([request('winner', 'proposed')], { proposal: { validUntil: '2027-03-10' } }).eventStatus,
    ).toBe('booked');
  });

  it('refuses a proposed request whose proposal is missing', () => {
    expect(() => award([request('winner', 'proposed')], { proposal: null })).toThrow(RequestNotProposedError);
  });

  it('refuses an unknown request', () => {
    expect(() => award([request('other', 'proposed')])).toThrow(NotFoundError);
  });

  const sourcing: Record<EventStatus, boolean> = {
    draft: true,
    pending_approval: true,
    wait_for_proposals: true,
    proposals_received: true,
    booked: false,
    completed: false,
    cancelled: false,
  };
  for (const status of STATUSES) {
    it(`on an event that is ${status}: ${sourcing[status] ? 'books it' : 'refused: event_not_sourcing'}`, () => {
      const act = () => award([request('winner', 'proposed')], { eventStatus: status });
      if (sourcing[status]) expect(act().eventStatus).toBe('booked');
      else expect(act).toThrow(EventNotSourcingError);
    });
  }
});

describe('declineRequest (D24), by the status of the request declined', () => {
  const decision = { reason: 'rate_too_high' as const, comment: 'Over 200 a night' };
  for (const status of REQUEST_STATUSES) {
    const expected = status === 'proposed' ? 'declined, venue told' : 'refused: request_not_proposed';
    it(`${status}: ${expected}`, () => {
      const requests = [request('r', status), request('other', 'proposed')];
      const act = () =>
        declineRequest({ eventStatus: 'proposals_received', requests, requestId: 'r', decision, now: NOW });
      if (status !== 'proposed') {
        expect(act).toThrow(RequestNotProposedError);
        return;
      }
      const outcome = act();
      expect(outcome.eventStatus).toBe('proposals_received');
      expect(outcome.steps).toHaveLength(1);
      expect(outcome.steps[0]?.after).toMatchObject({ status: 'declined', decision, updatedAt: NOW });
      expect(outcome.steps[0]).toMatchObject({ tellVenue: true, change: { type: 'venue_request.declined' } });
    });
  }

  it('refuses on a cancelled event and for an unknown request', () => {
    const requests = [request('r', 'proposed')];
    expect(() =>
      declineRequest({ eventStatus: 'cancelled', requests, requestId: 'r', decision, now: NOW }),
    ).toThrow(EventNotSourcingError);
    expect(() =>
      declineRequest({ eventStatus: 'booked', requests, requestId: 'x', decision, now: NOW }),
    ).toThrow(NotFoundError);
  });
});
