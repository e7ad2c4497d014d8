import { describe, expect, it } from 'vitest';
import { buildNewEvent } from './create-event.js';
import {
  changedPaths,
  changeInWords,
  type RequestChange,
  requestChanges,
  venueEventView,
} from './request-versions.js';
import type { EventDetails } from './types.js';
import { applyUpdate } from './update-event.js';

const EVENT_ID = '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50';
let counter = 0;
const newId = () => `aaaaaaaa-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

function sentEvent(): EventDetails {
  return buildNewEvent(
    {
      name: 'Sales summit',
      currency: 'EUR',
      formattedLocations: [{ city: 'Lisbon', country: 'Portugal', formatted_address: 'Lisbon, Portugal' }],
      numPeople: 120,
      budgetBreakdown: { venue: 50000 },
      flexibility: 'Dates not flexible',
      decisionDeadline: '2027-04-15',
      accommodations: { '2027-05-12': { Single: 40, Double: 10 }, '2027-05-13': { Single: 40 } },
      meetingRoomDates: [{ startDate: '2027-05-12', endDate: '2027-05-14' }],
      numMeetingRoomsNeeded: 2,
      meetingRooms: 'One plenary, one breakout',
      foodBeverageRequirements: 'Vegetarian options',
      otherNotes: 'Internal: keep under budget',
      notesForVenue: 'Near the metro',
      decisionFactors: ['Price', 'Other'],
      decisionFactorOtherText: 'Sea view',
      additionalServices: ['Airport transfer'],
      agenda: [
        { title: 'Keynote', dates: ['2027-05-12'], startTime: '09:00', endTime: '10:00', capacity: 120 },
        { title: 'Dinner', dates: ['2027-05-13'], startTime: '19:00', endTime: '22:00' },
      ],
    },
    { id: EVENT_ID, now: '2027-03-01T09:00:00.000Z', newId },
  );
}

const updated = (event: EventDetails, body: Record<string, unknown>): EventDetails =>
  applyUpdate(event, body, { now: '2027-03-02T09:00:00.000Z', newId }).details;

/** The pending changes after `body` is applied to the event as sent. */
function pendingAfter(body: Record<string, unknown>, event = sentEvent()): RequestChange[] {
  return requestChanges(venueEventView(event), venueEventView(updated(event, body)));
}

describe('requestChanges (D26)', () => {
  it('finds nothing pending when venues would read the same request', () => {
    const event = sentEvent();
    expect(requestChanges(venueEventView(event), venueEventView(event))).toEqual([]);
  });

  it.each([
    ['name', { name: 'Sales summit 2027' }, 'Name', 'Sales summit', 'Sales summit 2027'],
    ['numPeople', { numPeople: 140 }, 'Attendees', 120, 140],
    [
      'flexibility',
      { flexibility: 'A day either way' },
      'Date flexibility',
      'Dates not flexible',
      'A day either way',
    ],
    ['decisionDeadline', { decisionDeadline: '2027-04-20' }, 'Decision deadline', '2027-04-15', '2027-04-20'],
    ['numMeetingRoomsNeeded', { numMeetingRoomsNeeded: 3 }, 'Meeting rooms needed', 2, 3],
    ['meetingRooms', { meetingRooms: null }, 'Meeting-room notes', 'One plenary, one breakout', null],
    [
      'foodBeverageRequirements',
      { foodBeverageRequirements: 'Vegan options' },
      'Food and beverage requirements',
      'Vegetarian options',
      'Vegan options',
    ],
    [
      'notesForVenue',
      { notesForVenue: 'Near the river' },
      'Notes for the venue',
      'Near the metro',
      'Near the river',
    ],
    ['decisionFactors', { decisionFactors: ['Price'] }, 'Decision factors', ['Price', 'Other'], ['Price']],
    [
      'decisionFactorOtherText',
      { decisionFactorOtherText: 'Pool' },
      'Other decision factor',
      'Sea view',
      'Pool',
    ],
    [
      'additionalServices',
      { additionalServices: ['Airport transfer', 'Printing'] },
      'Additional services',
      ['Airport transfer'],
      ['Airport transfer', 'Printing'],
    ],
  ])('finds a change of %s, named as the History names it', (field, body, label, before, after) => {
    expect(pendingAfter(body)).toEqual([{ field, label, before, after }]);
  });

  it('finds a change of the candidate cities under the API field, not the snapshot key', () => {
    const changes = pendingAfter({
      formattedLocations: [{ city: 'Porto', country: 'Portugal', formatted_address: 'Porto, Portugal' }],
    });
    expect(changes).toEqual([
      {
        field: 'formattedLocations',
        label: 'Candidate cities',
        before: ['Lisbon, Portugal'],
        after: ['Porto, Portugal'],
      },
    ]);
  });

  it('finds the meeting-room dates and the event dates they move', () => {
    const changes = pendingAfter({ meetingRoomDates: [{ startDate: '2027-05-12', endDate: '2027-05-15' }] });
    expect(changes.map((change) => change.field)).toEqual(['eventDates', 'meetingRoomDates']);
    expect(changes[1]).toEqual({
      field: 'meetingRoomDates',
      label: 'Meeting-room dates',
      before: [{ startDate: '2027-05-12', endDate: '2027-05-14' }],
      after: [{ startDate: '2027-05-12', endDate: '2027-05-15' }],
    });
  });

  it('finds room cells changed, added and cleared, each on its own path', () => {
    const changes = pendingAfter({
      accommodations: { '2027-05-12': { Single: 45, Double: null }, '2027-05-13': { Suite: 2 } },
    });
    expect(changes).toEqual([
      {
        field: 'accommodations.2027-05-12.Single',
        label: 'Single rooms, night of Wed, May 12, 2027',
        before: 40,
        after: 45,
      },
      {
        field: 'accommodations.2027-05-12.Double',
        label: 'Double rooms, night of Wed, May 12, 2027',
        before: 10,
        after: null,
      },
      {
        field: 'accommodations.2027-05-13.Suite',
        label: 'Suite rooms, night of Thu, May 13, 2027',
        before: null,
        after: 2,
      },
    ]);
  });

  it('finds a night added and a night removed, with the event dates they move', () => {
    const changes = pendingAfter({ accommodations: { '2027-05-13': null, '2027-05-11': { Twin: 5 } } });
    expect(changedPaths(changes)).toEqual([
      'eventDates',
      'accommodations.2027-05-11.Twin',
      'accommodations.2027-05-13.Single',
    ]);
  });

  it('finds a session added, moved and removed, each as agenda[<sessionId>]', () => {
    const event = sentEvent();
    const [keynote, dinner] = event.agenda;
    const after = updated(event, {
      agendaOperations: [
        {
          op: 'add',
          session: { title: 'Lunch', dates: ['2027-05-12'], startTime: '12:00', endTime: '13:00' },
        },
        { op: 'update', sessionId: keynote!.id, session: { dates: ['2027-05-13'], startTime: '08:30' } },
        { op: 'remove', sessionId: dinner!.id },
      ],
    });
    const lunch = after.agenda.find((session) => session.title === 'Lunch')!;
    const changes = requestChanges(venueEventView(event), venueEventView(after));
    expect(changes.map(({ field, label }) => [field, label])).toEqual([
      [`agenda[${lunch.id}]`, 'Session “Lunch”'],
      [`agenda[${keynote!.id}]`, 'Session “Keynote”'],
      [`agenda[${dinner!.id}]`, 'Session “Dinner”'],
    ]);
    expect(changes[0]!.before).toBeNull();
    expect(changes[1]).toMatchObject({
      before: { dates: ['2027-05-12'], startTime: '09:00' },
      after: { dates: ['2027-05-13'], startTime: '08:30' },
    });
    expect(changes[2]!.after).toBeNull();
  });

  it('leaves nothing pending after a change and its undo', () => {
    const event = sentEvent();
    const changed = updated(event, {
      numPeople: 200,
      accommodations: { '2027-05-12': { Single: 60 } },
      notesForVenue: 'Changed',
    });
    const undone = updated(changed, {
      numPeople: 120,
      accommodations: { '2027-05-12': { Single: 40 } },
      notesForVenue: 'Near the metro',
    });
    expect(requestChanges(venueEventView(event), venueEventView(changed))).toHaveLength(3);
    expect(requestChanges(venueEventView(event), venueEventView(undone))).toEqual([]);
  });

  it('treats a room cell set to zero as cleared, so clearing it again is no change', () => {
    const event = sentEvent();
    const zero = updated(event, { accommodations: { '2027-05-12': { Double: 0 } } });
    const cleared = updated(event, { accommodations: { '2027-05-12': { Double: null } } });
    expect(requestChanges(venueEventView(zero), venueEventView(cleared))).toEqual([]);
  });

  it('never finds pending what venues never read: the budget, the other notes, the approvers', () => {
    expect(
      pendingAfter({ budgetBreakdown: { venue: 90000, fb: 1000 }, otherNotes: 'Changed internally' }),
    ).toEqual([]);
    const session = sentEvent();
    const withNotes = updated(session, {
      agendaOperations: [{ op: 'update', sessionId: session.agenda[0]!.id, session: { notes: 'Internal' } }],
    });
    expect(requestChanges(venueEventView(session), venueEventView(withNotes))).toEqual([]);
  });

  it('keeps the budget, the other notes and the session notes out of the snapshot itself', () => {
    const snapshot = JSON.stringify(venueEventView(sentEvent()));
    expect(snapshot).not.toContain('budget');
    expect(snapshot).not.toContain('Internal: keep under budget');
    expect(snapshot).not.toContain('"notes"');
    expect(snapshot).not.toContain('approvers');
  });
});

describe('changeInWords', () => {
  it('says counts, room cells, days and sessions as people read them', () => {
    const [attendees] = pendingAfter({ numPeople: 1400 });
    expect(changeInWords(attendees!)).toEqual({ label: 'Attendees', before: '120', after: '1,400' });
    const [room] = pendingAfter({ accommodations: { '2027-05-13': { Suite: 1 } } });
    expect(changeInWords(room!)).toEqual({
      label: 'Suite rooms, night of Thu, May 13, 2027',
      before: 'none',
      after: '1 room',
    });
    const [deadline] = pendingAfter({ decisionDeadline: '2027-04-20T15:00:00+02:00' });
    expect(changeInWords(deadline!).after).toBe('Tue, Apr 20, 2027, 13:00 UTC');
    const event = sentEvent();
    const moved = updated(event, {
      agendaOperations: [{ op: 'update', sessionId: event.agenda[0]!.id, session: { startTime: '08:30' } }],
    });
    const [session] = requestChanges(venueEventView(event), venueEventView(moved));
    expect(changeInWords(session!)).toEqual({
      label: 'Session “Keynote”',
      before: '“Keynote”, Wed, May 12, 2027, 09:00–10:00, 120 people',
      after: '“Keynote”, Wed, May 12, 2027, 08:30–10:00, 120 people',
    });
  });

  it('says a cleared text as a dash', () => {
    const [notes] = pendingAfter({ meetingRooms: null });
    expect(changeInWords(notes!).after).toBe('—');
  });
});
