import { describe, expect, it } from 'vitest';
import {
  EventNotSourcingError,
  RequestClosedError,
  RequestNotSentError,
  ValidationError,
  VenueAlreadyRequestedError,
  VenueArchivedError,
} from './errors.js';
import { type EventStatus, STATUSES } from './types.js';
import { archiveVenue, buildNewVenue, type Venue } from './venue.js';
import { isClosedRequest, REQUEST_STATUSES, type RequestStatus, type VenueRequest } from './venue-request.js';
import {
  addVenueRequest,
  MAX_REQUESTS_PER_EVENT,
  markViewed,
  moveReplyDate,
  responseDueDateOnSending,
  type SourcingEvent,
  sendShortlist,
  shortlistChecklistItem,
  turnDownRequest,
  withdrawOnCancel,
  withdrawRequest,
} from './venue-request-steps.js';

const EVENT_ID = '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50';
const ADDED = '2027-03-01T09:00:00.000Z';
const NOW = '2027-03-10T15:00:00.000Z';

let counter = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

function venueNamed(name: string): Venue {
  return buildNewVenue(
    { name, email: `${name.toLowerCase()}@x.example`, city: 'Lisbon' },
    { id: nextId(), now: ADDED },
  );
}

function eventIn(status: EventStatus, decisionDeadline: string | null = '2027-04-15'): SourcingEvent {
  return { id: EVENT_ID, status, decisionDeadline };
}

/** A request in any status, as the steps would have left it. */
function requestIn(status: RequestStatus, venue = venueNamed('Lisa')): VenueRequest {
  const added = addVenueRequest({
    event: eventIn('draft'),
    venue,
    existing: [],
    responseDueDate: null,
    id: nextId(),
    now: ADDED,
  }).after!;
  if (status === 'shortlisted') return added;
  return {
    ...added,
    status,
    responseDueDate: '2027-04-15',
    sentAt: ADDED,
    viewedAt: status === 'sent' ? null : ADDED,
    respondedAt: ['proposed', 'turned_down', 'awarded', 'declined'].includes(status) ? ADDED : null,
  };
}

describe('addVenueRequest (D21)', () => {
  const expected: Record<EventStatus, 'shortlisted' | 'sent' | 'event_not_sourcing'> = {
    draft: 'shortlisted',
    pending_approval: 'shortlisted',
    wait_for_proposals: 'sent',
    proposals_received: 'sent',
    booked: 'event_not_sourcing',
    completed: 'event_not_sourcing',
    cancelled: 'event_not_sourcing',
  };

  for (const status of STATUSES) {
    it(`on an event that is ${status}: ${expected[status]}`, () => {
      const add = () =>
        addVenueRequest({
          event: eventIn(status),
          venue: venueNamed('Lisa'),
          existing: [],
          responseDueDate: null,
          id: 'r1',
          now: NOW,
        });
      if (expected[status] === 'event_not_sourcing') {
        expect(add).toThrow(EventNotSourcingError);
        return;
      }
      const step = add();
      expect(step.before).toBeNull();
      expect(step.after?.status).toBe(expected[status]);
      if (expected[status] === 'shortlisted') {
        expect(step).toMatchObject({ tellVenue: false, change: null });
        expect(step.after).toMatchObject({ sentAt: null, responseDueDate: null });
      } else {
        expect(step).toMatchObject({ tellVenue: true, change: { type: 'venue_request.sent' } });
        // Sent at once: due on the date of the event's decision deadline.
        expect(step.after).toMatchObject({ sentAt: NOW, responseDueDate: '2027-04-15' });
      }
    });
  }

  it('writes the request with its venue, its times and nothing decided yet', () => {
    const venue = venueNamed('Lisa');
    const step = addVenueRequest({
      event: eventIn('draft'),
      venue,
      existing: [],
      responseDueDate: '2027-04-01',
      id: 'r1',
      now: NOW,
    });
    expect(step.after).toEqual({
      id: 'r1',
      eventId: EVENT_ID,
      venue: { id: venue.id, name: 'Lisa', email: 'lisa@x.example', city: 'Lisbon' },
      status: 'shortlisted',
      responseDueDate: '2027-04-01',
      sentAt: null,
      viewedAt: null,
      respondedAt: null,
      turnDown: null,
      decision: null,
      remindedAt: null,
      reminderSettledAt: null,
      dueDateToldAt: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(step.change).toBeNull();
  });

  it('refuses a second request to the same venue, even after the first was withdrawn', () => {
    const venue = venueNamed('Lisa');
    for (const status of ['shortlisted', 'withdrawn'] as const) {
      const existing = [requestIn(status, venue)];
      expect(() =>
        addVenueRequest({
          event: eventIn('draft'),
          venue,
          existing,
          responseDueDate: null,
          id: 'r2',
          now: NOW,
        }),
      ).toThrow(VenueAlreadyRequestedError);
    }
  });

  it(`accepts the ${MAX_REQUESTS_PER_EVENT}th request and refuses one more, naming venueId`, () => {
    const existing = Array.from({ length: MAX_REQUESTS_PER_EVENT - 1 }, () => requestIn('sent'));
    const add = (requests: VenueRequest[]) =>
      addVenueRequest({
        event: eventIn('draft'),
        venue: venueNamed('Last'),
        existing: requests,
        responseDueDate: null,
        id: 'r',
        now: NOW,
      });
    expect(add(existing).after?.status).toBe('shortlisted');
    try {
      add([...existing, requestIn('withdrawn')]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).problems).toEqual([
        { field: 'venueId', code: 'too_many', message: expect.any(String) },
      ]);
    }
  });

  it('refuses an archived venue', () => {
    const venue = archiveVenue(venueNamed('Old'), ADDED);
    expect(() =>
      addVenueRequest({
        event: eventIn('draft'),
        venue,
        existing: [],
        responseDueDate: null,
        id: 'r',
        now: NOW,
      }),
    ).toThrow(VenueArchivedError);
  });
});

describe('responseDueDateOnSending (D21)', () => {
  it('keeps the date the planner gave', () => {
    expect(responseDueDateOnSending('2027-03-20', '2027-04-15', NOW)).toBe('2027-03-20');
  });

  it('takes the date of the decision deadline, written as a date or as a date-time', () => {
    expect(responseDueDateOnSending(null, '2027-04-15', NOW)).toBe('2027-04-15');
    expect(responseDueDateOnSending(null, '2027-04-15T17:00:00-07:00', NOW)).toBe('2027-04-15');
  });

  it('falls back to 14 days after sending when there is no deadline', () => {
    // Sent on 2027-03-10 (UTC): 10 + 14 = 24.
    expect(responseDueDateOnSending(null, null, NOW)).toBe('2027-03-24');
  });

  it('passes over a date that has gone by before sending: the given one, then the deadline', () => {
    expect(responseDueDateOnSending('2027-03-05', '2027-04-15', NOW)).toBe('2027-04-15');
    expect(responseDueDateOnSending('2027-03-05', '2027-03-06', NOW)).toBe('2027-03-24');
  });
});

describe('sendShortlist', () => {
  it('sends every shortlisted request and leaves the others alone', () => {
    const shortlisted = requestIn('shortlisted');
    const given = { ...requestIn('shortlisted'), responseDueDate: '2027-03-31' };
    const steps = sendShortlist(
      [shortlisted, requestIn('withdrawn'), given],
      { decisionDeadline: null },
      NOW,
    );
    expect(steps.map((step) => step.before)).toEqual([shortlisted, given]);
    expect(steps.map((step) => step.after?.status)).toEqual(['sent', 'sent']);
    expect(steps.map((step) => step.after?.responseDueDate)).toEqual(['2027-03-24', '2027-03-31']);
    expect(steps.every((step) => step.tellVenue && step.change?.type === 'venue_request.sent')).toBe(true);
    expect(steps[0]?.change?.data).toEqual({ requestId: shortlisted.id, venueId: shortlisted.venue.id });
  });
});

describe('markViewed (D22)', () => {
  it('moves a sent request to viewed the first time, and records no change', () => {
    const step = markViewed(requestIn('sent'), NOW);
    expect(step?.after).toMatchObject({ status: 'viewed', viewedAt: NOW, updatedAt: NOW });
    expect(step).toMatchObject({ tellVenue: false, change: null });
  });

  it('does nothing the second time', () => {
    const viewed = markViewed(requestIn('sent'), NOW)!.after!;
    expect(markViewed(viewed, '2027-03-11T00:00:00.000Z')).toBeNull();
  });

  it('notes the first view of a request answered on the venue’s behalf without changing its status', () => {
    const proposed = { ...requestIn('proposed'), viewedAt: null };
    expect(markViewed(proposed, NOW)?.after).toMatchObject({ status: 'proposed', viewedAt: NOW });
  });

  it('does nothing on the shortlist, where no link exists yet, nor on a closed request', () => {
    expect(markViewed(requestIn('shortlisted'), NOW)).toBeNull();
    for (const status of ['turned_down', 'awarded', 'declined', 'withdrawn', 'no_response'] as const) {
      expect(markViewed({ ...requestIn(status), viewedAt: null }, NOW)).toBeNull();
    }
  });
});

describe('turnDownRequest (D22), for a request in each status', () => {
  const turnDown = { reason: 'dates_unavailable' as const, comment: null };
  const outcome: Record<RequestStatus, 'turned_down' | 'request_not_sent' | 'request_closed'> = {
    shortlisted: 'request_not_sent',
    sent: 'turned_down',
    viewed: 'turned_down',
    proposed: 'turned_down',
    turned_down: 'request_closed',
    awarded: 'request_closed',
    declined: 'request_closed',
    withdrawn: 'request_closed',
    no_response: 'request_closed',
  };

  for (const status of REQUEST_STATUSES) {
    it(`${status}: ${outcome[status]}`, () => {
      const request = requestIn(status);
      const act = () => turnDownRequest(request, 'proposals_received', turnDown, NOW);
      if (outcome[status] === 'request_not_sent') expect(act).toThrow(RequestNotSentError);
      else if (outcome[status] === 'request_closed') expect(act).toThrow(RequestClosedError);
      else {
        const step = act();
        expect(step.after).toMatchObject({ status: 'turned_down', turnDown, updatedAt: NOW });
        // The first answer's time stays: a proposal came first if there was one.
        expect(step.after?.respondedAt).toBe(status === 'proposed' ? ADDED : NOW);
        expect(step).toMatchObject({ tellVenue: false, change: { type: 'venue_request.turned_down' } });
      }
    });
  }

  it('is refused once the event is booked, completed or cancelled', () => {
    for (const status of ['booked', 'completed', 'cancelled'] as const) {
      expect(() => turnDownRequest(requestIn('viewed'), status, turnDown, NOW)).toThrow(
        EventNotSourcingError,
      );
    }
  });
});

describe('withdrawRequest (D21), for a request in each status', () => {
  for (const status of REQUEST_STATUSES) {
    const expected =
      status === 'shortlisted'
        ? 'removed'
        : ['sent', 'viewed', 'proposed'].includes(status)
          ? 'withdrawn, venue told'
          : 'refused';
    it(`${status}: ${expected}`, () => {
      const request = requestIn(status);
      if (expected === 'refused') {
        expect(() => withdrawRequest(request, NOW)).toThrow(RequestClosedError);
      } else if (expected === 'removed') {
        expect(withdrawRequest(request, NOW)).toEqual({
          before: request,
          after: null,
          tellVenue: false,
          change: null,
        });
      } else {
        const step = withdrawRequest(request, NOW);
        expect(step.after).toMatchObject({ status: 'withdrawn', updatedAt: NOW });
        expect(step).toMatchObject({ tellVenue: true, change: { type: 'venue_request.withdrawn' } });
      }
    });
  }
});

describe('withdrawOnCancel (D24)', () => {
  it('withdraws every open request, telling each venue, and keeps the shortlist and closed ones', () => {
    const requests = REQUEST_STATUSES.map((status) => requestIn(status));
    const steps = withdrawOnCancel(requests, NOW);
    expect(steps.map((step) => step.before?.status)).toEqual(['sent', 'viewed', 'proposed']);
    expect(steps.every((step) => step.after?.status === 'withdrawn' && step.tellVenue)).toBe(true);
  });
});

describe('shortlistChecklistItem (D16 with D21)', () => {
  it('asks for a venue on the shortlist until there is one', () => {
    expect(shortlistChecklistItem(0)).toEqual({
      field: 'venueRequests',
      message: 'Add at least one venue to the shortlist.',
    });
    expect(shortlistChecklistItem(1)).toBeNull();
  });
});

describe('moveReplyDate (D28), for a request in each status', () => {
  it('moves an open request’s date, tells its venue, re-arms the reminder and records both dates', () => {
    for (const status of ['sent', 'viewed', 'proposed'] as const) {
      const reminded = {
        ...requestIn(status),
        remindedAt: ADDED,
        reminderSettledAt: ADDED,
        dueDateToldAt: ADDED,
      };
      const step = moveReplyDate(reminded, 'proposals_received', '2027-04-22', NOW)!;
      expect(step.after).toMatchObject({
        status,
        responseDueDate: '2027-04-22',
        remindedAt: null,
        reminderSettledAt: null,
        dueDateToldAt: NOW,
        updatedAt: NOW,
      });
      expect(step.tellVenue).toBe(true);
      expect(step.change).toEqual({
        type: 'venue_request.due_date_changed',
        data: {
          requestId: reminded.id,
          venueId: reminded.venue.id,
          responseDueDate: '2027-04-22',
          previousResponseDueDate: '2027-04-15',
        },
      });
    }
  });

  it('sets a shortlisted request’s date without telling anyone, and records it', () => {
    const step = moveReplyDate(requestIn('shortlisted'), 'draft', '2027-04-22', NOW)!;
    expect(step.after).toMatchObject({
      status: 'shortlisted',
      responseDueDate: '2027-04-22',
      dueDateToldAt: null,
    });
    expect(step.tellVenue).toBe(false);
    expect(step.change?.data).toMatchObject({ responseDueDate: '2027-04-22', previousResponseDueDate: null });
  });

  it('changes nothing for the same date again', () => {
    expect(moveReplyDate(requestIn('sent'), 'wait_for_proposals', '2027-04-15', NOW)).toBeNull();
  });

  it('refuses a closed request and an event whose sourcing is over', () => {
    for (const status of REQUEST_STATUSES.filter(isClosedRequest)) {
      expect(() => moveReplyDate(requestIn(status), 'proposals_received', '2027-04-22', NOW)).toThrow(
        RequestClosedError,
      );
    }
    for (const status of ['booked', 'completed', 'cancelled'] as const) {
      expect(() => moveReplyDate(requestIn('sent'), status, '2027-04-22', NOW)).toThrow(
        EventNotSourcingError,
      );
    }
  });
});
