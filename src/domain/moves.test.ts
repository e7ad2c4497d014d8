import { describe, expect, it } from 'vitest';
import { buildNewEvent } from './create-event.js';
import { ChecklistIncompleteError, MoveNotAllowedError, ValidationError } from './errors.js';
import {
  allowedMoves,
  MOVES,
  type Move,
  makeMove,
  peakNight,
  preSendChecklist,
  type Viewer,
  viewerOf,
} from './moves.js';
import { type EventDetails, type EventStatus, STATUSES, type StoredEvent } from './types.js';

const CREATED = '2026-01-01T00:00:00.000Z';
const NOW = '2026-02-01T10:00:00.000Z';
const CREATOR = 'creator';
const APPROVER = 'approver';
const STRANGER = 'stranger';
/** Venues on the shortlist: one, so D21's checklist item is met unless a test says otherwise. */
const ON_SHORTLIST = 1;

/** Every checklist item filled in, no warning. */
const READY_BODY = {
  name: 'Offsite',
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 40,
  meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-05' }],
  decisionDeadline: '2026-04-01',
};

function details(body: Record<string, unknown> = {}): EventDetails {
  let next = 0;
  return buildNewEvent(
    { ...READY_BODY, ...body },
    {
      id: '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50',
      now: CREATED,
      newId: () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`,
    },
  );
}

function stored(status: EventStatus, previousStatus: EventStatus | null = null, body = {}): StoredEvent {
  return {
    organizationId: 'org',
    createdBy: CREATOR,
    previousStatus,
    details: { ...details(body), status },
  };
}

/** The four kinds of people D16 distinguishes, as the use case derives them from the grants. */
const ROLES = {
  'the creator of an event with approvers': viewerOf({ createdBy: CREATOR }, [CREATOR, APPROVER], CREATOR),
  'the creator of an event without approvers': viewerOf({ createdBy: CREATOR }, [CREATOR], CREATOR),
  'an approver': viewerOf({ createdBy: CREATOR }, [CREATOR, APPROVER], APPROVER),
  'someone neither creator nor approver': viewerOf({ createdBy: CREATOR }, [CREATOR, APPROVER], STRANGER),
} satisfies Record<string, Viewer>;
type Role = keyof typeof ROLES;

const ANYONE_GRANTED: Role[] = [
  'the creator of an event with approvers',
  'the creator of an event without approvers',
  'an approver',
];

/** D16's table, written out row by row: from, move, who, to. */
const TABLE: Array<{ from: EventStatus[]; move: Move; who: Role[]; to: EventStatus | 'previous' }> = [
  {
    from: ['draft'],
    move: 'request_approval',
    who: ['the creator of an event with approvers'],
    to: 'pending_approval',
  },
  {
    from: ['draft'],
    move: 'send_to_venues',
    who: ['the creator of an event without approvers', 'an approver'],
    to: 'wait_for_proposals',
  },
  { from: ['pending_approval'], move: 'approve_and_send', who: ['an approver'], to: 'wait_for_proposals' },
  {
    from: ['pending_approval'],
    move: 'return_to_draft',
    who: [
      'an approver',
      'the creator of an event with approvers',
      'the creator of an event without approvers',
    ],
    to: 'draft',
  },
  {
    from: ['wait_for_proposals'],
    move: 'proposals_received',
    who: ANYONE_GRANTED,
    to: 'proposals_received',
  },
  { from: ['proposals_received'], move: 'mark_booked', who: ANYONE_GRANTED, to: 'booked' },
  { from: ['booked'], move: 'mark_completed', who: ANYONE_GRANTED, to: 'completed' },
  {
    from: ['draft', 'pending_approval', 'wait_for_proposals', 'proposals_received', 'booked'],
    move: 'cancel',
    who: ANYONE_GRANTED,
    to: 'cancelled',
  },
  { from: ['cancelled'], move: 'reopen', who: ANYONE_GRANTED, to: 'previous' },
];

function expectedTarget(status: EventStatus, move: Move, role: Role): EventStatus | 'previous' | undefined {
  const row = TABLE.find((entry) => entry.move === move);
  if (!row || !row.from.includes(status) || !row.who.includes(role)) return undefined;
  return row.to;
}

const NOTES: Partial<Record<Move, string>> = {
  return_to_draft: 'Needs a budget',
  cancel: 'Venue fell through',
};

describe('D16 moves by role', () => {
  // A cancelled event remembers where it was; booked is a status no move goes back to by itself.
  const PREVIOUS = 'booked';
  const cases = STATUSES.flatMap((status) =>
    MOVES.flatMap((move) =>
      (Object.keys(ROLES) as Role[]).map((role) => ({
        status,
        move,
        role,
        to: expectedTarget(status, move, role),
      })),
    ),
  );

  it('covers every status, move and role', () => {
    expect(cases).toHaveLength(STATUSES.length * MOVES.length * 4);
    expect(cases.filter((entry) => entry.to !== undefined).length).toBeGreaterThan(0);
  });

  it.each(cases)('$status: "$move" by $role', ({ status, move, role, to }) => {
    const event = stored(status, status === 'cancelled' ? PREVIOUS : null);
    const viewer = ROLES[role];
    expect(allowedMoves(event, viewer).includes(move)).toBe(to !== undefined);
    const attempt = () => makeMove(event, viewer, { move, note: NOTES[move] }, NOW, ON_SHORTLIST);
    if (to === undefined) {
      expect(attempt).toThrow(MoveNotAllowedError);
      return;
    }
    const outcome = attempt();
    const target = to === 'previous' ? PREVIOUS : to;
    expect(outcome).toMatchObject({ from: status, to: target });
    expect(outcome.event.details.status).toBe(target);
    expect(outcome.event.details.updatedAt).toBe(NOW);
    // Nothing but the status and its bookkeeping moves.
    expect({ ...outcome.event.details, status, updatedAt: CREATED }).toEqual(event.details);
  });

  it('lists the allowed moves in D16 order', () => {
    const event = stored('draft');
    expect(allowedMoves(event, ROLES['an approver'])).toEqual(['send_to_venues', 'cancel']);
    expect(allowedMoves(event, ROLES['the creator of an event with approvers'])).toEqual([
      'request_approval',
      'cancel',
    ]);
  });

  it('derives the viewer from the creator and the grants', () => {
    expect(viewerOf({ createdBy: CREATOR }, [APPROVER, CREATOR], CREATOR)).toEqual({
      userId: CREATOR,
      isCreator: true,
      isApprover: false,
      eventHasApprovers: true,
    });
    expect(viewerOf({ createdBy: CREATOR }, [APPROVER, CREATOR], APPROVER)).toMatchObject({
      isCreator: false,
      isApprover: true,
    });
    expect(viewerOf({ createdBy: CREATOR }, [APPROVER], STRANGER)).toMatchObject({
      isCreator: false,
      isApprover: false,
      eventHasApprovers: true,
    });
    expect(viewerOf({ createdBy: CREATOR }, [], CREATOR).eventHasApprovers).toBe(false);
  });
});

describe('reopening', () => {
  const ACTIVE: EventStatus[] = [
    'draft',
    'pending_approval',
    'wait_for_proposals',
    'proposals_received',
    'booked',
  ];

  it.each(ACTIVE)('returns an event cancelled from %s to %s', (status) => {
    const viewer = ROLES['an approver'];
    const cancelled = makeMove(
      stored(status),
      viewer,
      { move: 'cancel', note: 'Postponed' },
      NOW,
      ON_SHORTLIST,
    );
    expect(cancelled.event.previousStatus).toBe(status);
    expect(cancelled.note).toEqual({ field: 'reason', text: 'Postponed' });
    const reopened = makeMove(
      cancelled.event,
      viewer,
      { move: 'reopen' },
      '2026-02-02T00:00:00.000Z',
      ON_SHORTLIST,
    );
    expect(reopened).toMatchObject({ from: 'cancelled', to: status });
    expect(reopened.event.details.status).toBe(status);
    expect(reopened.event.previousStatus).toBeNull();
  });
});

describe('comments and reasons', () => {
  const viewer = ROLES['an approver'];
  const cases: Array<{ move: Move; status: EventStatus; field: string }> = [
    { move: 'return_to_draft', status: 'pending_approval', field: 'comment' },
    { move: 'cancel', status: 'draft', field: 'reason' },
  ];

  it.each(cases)('refuses "$move" without a $field', ({ move, status, field }) => {
    for (const note of [undefined, '', '   \n ']) {
      const attempt = () => makeMove(stored(status), viewer, { move, note }, NOW, ON_SHORTLIST);
      expect(attempt).toThrow(ValidationError);
      try {
        attempt();
      } catch (error) {
        expect((error as ValidationError).problems).toEqual([
          expect.objectContaining({ field, code: 'required' }),
        ]);
      }
    }
  });

  it.each(cases)('refuses "$move" with a $field over 1000 characters, and keeps one of 1000', ({
    move,
    status,
    field,
  }) => {
    const tooLong = () =>
      makeMove(stored(status), viewer, { move, note: 'x'.repeat(1001) }, NOW, ON_SHORTLIST);
    expect(tooLong).toThrow(ValidationError);
    try {
      tooLong();
    } catch (error) {
      expect((error as ValidationError).problems).toEqual([
        expect.objectContaining({ field, code: 'too_long' }),
      ]);
    }
    // Characters, not UTF-16 units.
    const longest = '☕'.repeat(1000);
    const outcome = makeMove(stored(status), viewer, { move, note: `  ${longest} ` }, NOW, ON_SHORTLIST);
    expect(outcome.note).toEqual({ field, text: longest });
  });

  it('ignores a note on a move that takes none', () => {
    const outcome = makeMove(
      stored('wait_for_proposals'),
      viewer,
      { move: 'proposals_received', note: 'hi' },
      NOW,
      ON_SHORTLIST,
    );
    expect(outcome.note).toBeUndefined();
  });
});

describe('the pre-send checklist', () => {
  it('passes an event with a city, attendees, a day and a deadline', () => {
    expect(preSendChecklist(details(), NOW, ON_SHORTLIST)).toEqual({ missing: [], warnings: [] });
  });

  it('names each missing item with its field', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ formattedLocations: [] }, 'formattedLocations'],
      [{ numPeople: 0 }, 'numPeople'],
      [{ meetingRoomDates: [] }, 'meetingRoomDates'],
      [{ decisionDeadline: null }, 'decisionDeadline'],
    ];
    for (const [body, field] of cases) {
      const { missing } = preSendChecklist(details(body), NOW, ON_SHORTLIST);
      expect(missing.map((item) => item.field)).toEqual([field]);
      expect(missing[0]!.message).not.toBe('');
    }
    const empty = details({
      formattedLocations: [],
      numPeople: 0,
      meetingRoomDates: [],
      decisionDeadline: null,
    });
    expect(preSendChecklist(empty, NOW, ON_SHORTLIST).missing.map((item) => item.field)).toEqual([
      'formattedLocations',
      'numPeople',
      'meetingRoomDates',
      'decisionDeadline',
    ]);
  });

  it('asks for at least one venue on the shortlist (D21), last', () => {
    const empty = details({ numPeople: 0 });
    expect(preSendChecklist(empty, NOW, 0).missing).toEqual([
      { field: 'numPeople', message: 'Give the number of attendees.' },
      { field: 'venueRequests', message: 'Add at least one venue to the shortlist.' },
    ]);
    expect(preSendChecklist(details(), NOW, 3).missing).toEqual([]);
  });

  it('refuses "Send to venues" with an empty shortlist, naming the shortlist', () => {
    const viewer = viewerOf(stored('draft'), [CREATOR], CREATOR);
    const attempt = () => makeMove(stored('draft'), viewer, { move: 'send_to_venues' }, NOW, 0);
    expect(attempt).toThrow(ChecklistIncompleteError);
    expect(attempt).toThrow(/shortlist/);
  });

  it('counts a night of rooms as a day of the event', () => {
    const roomsOnly = details({ meetingRoomDates: [], accommodations: { '2026-05-03': { Single: 5 } } });
    expect(roomsOnly.eventDates).not.toEqual([]);
    expect(preSendChecklist(roomsOnly, NOW, ON_SHORTLIST).missing).toEqual([]);
  });

  it('blocks "Request approval" and "Send to venues" only', () => {
    const incomplete = { numPeople: 0 };
    const creator = ROLES['the creator of an event with approvers'];
    const approver = ROLES['an approver'];
    for (const [move, viewer] of [
      ['request_approval', creator],
      ['send_to_venues', approver],
    ] as const) {
      const attempt = () => makeMove(stored('draft', null, incomplete), viewer, { move }, NOW, ON_SHORTLIST);
      expect(attempt).toThrow(ChecklistIncompleteError);
      try {
        attempt();
      } catch (error) {
        expect((error as ChecklistIncompleteError).missing.map((item) => item.field)).toEqual(['numPeople']);
      }
    }
    const unchecked: Array<[EventStatus, Move]> = [
      ['pending_approval', 'approve_and_send'],
      ['pending_approval', 'return_to_draft'],
      ['wait_for_proposals', 'proposals_received'],
      ['proposals_received', 'mark_booked'],
      ['booked', 'mark_completed'],
      ['draft', 'cancel'],
    ];
    for (const [status, move] of unchecked) {
      expect(() =>
        makeMove(stored(status, null, incomplete), approver, { move, note: 'n' }, NOW, ON_SHORTLIST),
      ).not.toThrow();
    }
  });

  it('refuses a move that is not allowed before judging the checklist', () => {
    const stranger = ROLES['someone neither creator nor approver'];
    expect(() =>
      makeMove(
        stored('draft', null, { numPeople: 0 }),
        stranger,
        { move: 'send_to_venues' },
        NOW,
        ON_SHORTLIST,
      ),
    ).toThrow(MoveNotAllowedError);
  });

  it('warns, without blocking, when the peak night holds more rooms than attendees', () => {
    const atLimit = details({ numPeople: 6, accommodations: { '2026-05-04': { Single: 4, Double: 2 } } });
    expect(preSendChecklist(atLimit, NOW, ON_SHORTLIST).warnings).toEqual([]);
    const over = details({
      numPeople: 5,
      accommodations: { '2026-05-03': { Single: 2 }, '2026-05-04': { Single: 4, Double: 2 } },
    });
    expect(peakNight(over)).toEqual({ night: '2026-05-04', rooms: 6 });
    const { missing, warnings } = preSendChecklist(over, NOW, ON_SHORTLIST);
    expect(missing).toEqual([]);
    expect(warnings.map((item) => item.field)).toEqual(['accommodations']);
    expect(warnings[0]!.message).toContain('2026-05-04');
    const viewer = ROLES['the creator of an event without approvers'];
    expect(
      makeMove({ ...stored('draft'), details: over }, viewer, { move: 'send_to_venues' }, NOW, ON_SHORTLIST)
        .to,
    ).toBe('wait_for_proposals');
  });

  it('takes the earliest of equal peak nights, and none when no night holds a room', () => {
    expect(
      peakNight({ accommodations: { '2026-05-05': { Twin: 3 }, '2026-05-04': { Single: 3 } } })?.night,
    ).toBe('2026-05-04');
    expect(peakNight({ accommodations: { '2026-05-05': { Twin: 0 } } })).toBeUndefined();
  });

  it('warns, without blocking, when a session expects more people than attendees', () => {
    const session = {
      title: 'Keynote',
      dates: ['2026-05-04'],
      startTime: '09:00',
      endTime: '10:00',
    };
    const fits = details({ numPeople: 40, agenda: [{ ...session, capacity: 40 }] });
    expect(preSendChecklist(fits, NOW, ON_SHORTLIST).warnings).toEqual([]);
    const over = details({ numPeople: 40, agenda: [{ ...session, capacity: 41 }] });
    const { missing, warnings } = preSendChecklist(over, NOW, ON_SHORTLIST);
    expect(missing).toEqual([]);
    expect(warnings.map((item) => item.field)).toEqual(['agenda']);
    expect(warnings[0]!.message).toContain('Keynote');
    const viewer = ROLES['the creator of an event with approvers'];
    expect(
      makeMove({ ...stored('draft'), details: over }, viewer, { move: 'request_approval' }, NOW, ON_SHORTLIST)
        .to,
    ).toBe('pending_approval');
  });

  it('warns that a date deadline has passed only once its whole day is over', () => {
    const deadline = details({ decisionDeadline: '2026-04-01' });
    const warned = (now: string) =>
      preSendChecklist(deadline, now, ON_SHORTLIST).warnings.map((item) => item.field);
    expect(warned('2026-03-31T23:59:59.999Z')).toEqual([]);
    expect(warned('2026-04-01T00:00:00.000Z')).toEqual([]);
    expect(warned('2026-04-01T23:59:59.999Z')).toEqual([]);
    expect(warned('2026-04-02T00:00:00.000Z')).toEqual(['decisionDeadline']);
  });

  it('warns that a date-time deadline has passed from that instant', () => {
    const deadline = details({ decisionDeadline: '2026-04-01T12:00:00+02:00' });
    const warned = (now: string) =>
      preSendChecklist(deadline, now, ON_SHORTLIST).warnings.map((item) => item.field);
    expect(warned('2026-04-01T09:59:59.999Z')).toEqual([]);
    expect(warned('2026-04-01T10:00:00.000Z')).toEqual(['decisionDeadline']);
  });

  it('never blocks a move on a passed deadline', () => {
    const late = { ...stored('draft'), details: details({ decisionDeadline: '2026-01-15' }) };
    expect(preSendChecklist(late.details, NOW, ON_SHORTLIST).warnings.map((item) => item.field)).toEqual([
      'decisionDeadline',
    ]);
    const viewer = ROLES['the creator of an event without approvers'];
    expect(makeMove(late, viewer, { move: 'send_to_venues' }, NOW, ON_SHORTLIST).to).toBe(
      'wait_for_proposals',
    );
  });
});
