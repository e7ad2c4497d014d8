import { describe, expect, it } from 'vitest';
import { describeChange as recordOf } from '../../../app/change-log.js';
import { replayChanges } from '../../../app/change-values.js';
import type { ChangeRecord } from '../../../domain/changes.js';
import { buildNewEvent } from '../../../domain/create-event.js';
import type { EventDetails } from '../../../domain/types.js';
import { applyUpdate } from '../../../domain/update-event.js';
import { changeLines, describeChange } from './history.js';

let next = 0;
const newId = () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
const NOW = '2026-01-01T00:00:00.000Z';
const actor = { type: 'person' as const, userId: 'u1' };
const people = { u1: { userId: 'u1', email: 'planner@example.com', name: 'Planner' } };

/** The change log of an event created with `body` and then changed by each of `updates`, oldest first. */
type Update = Record<string, unknown> | ((details: EventDetails) => Record<string, unknown>);
function historyOf(body: Record<string, unknown>, updates: Update[]) {
  let details = buildNewEvent(body, { id: newId(), now: NOW, newId });
  const records: ChangeRecord[] = [];
  const record = (before: EventDetails | undefined, after: EventDetails) =>
    records.push({
      ...recordOf({ ids: { uuid: newId, token: () => '' } } as never, actor, before, after),
      sequence: records.length + 1,
      eventId: after.id,
      revision: records.length + 1,
      occurredAt: NOW,
    });
  record(undefined, details);
  for (const update of updates) {
    const patch = typeof update === 'function' ? update(details) : update;
    const after = applyUpdate(details, patch, { now: NOW, newId }).details;
    record(details, after);
    details = after;
  }
  return { records, values: replayChanges({}, records) };
}

const SUMMIT = {
  name: 'Summit',
  currency: 'EUR',
  numPeople: 120,
  budgetBreakdown: { venue: 25000 },
  formattedLocations: [{ city: 'Lisbon', country: 'PT' }],
  meetingRoomDates: [{ startDate: '2030-05-01', endDate: '2030-05-02' }],
  accommodations: { '2030-05-01': { Single: 40, Double: 10 } },
  agenda: [{ title: 'Opening plenary', dates: ['2030-05-01'], startTime: '09:00', endTime: '10:30' }],
};

describe('the history in a planner’s words', () => {
  it('names the fields of a change as people do, leaving out derived ones', () => {
    const { records } = historyOf(SUMMIT, [
      {
        numPeople: 130,
        budgetBreakdown: { fb: 500 },
        formattedLocations: [{ city: 'Porto', country: 'PT' }],
      },
    ]);
    expect(records[1]!.changedFields).toEqual([
      'budgetBreakdown',
      'formattedLocations',
      'location',
      'numPeople',
    ]);
    expect(describeChange(records[1]!, { people, venues: {} })).toBe(
      'Planner changed Candidate cities, Attendees, Budget',
    );
    expect(describeChange(records[0]!, { people, venues: {} })).toBe('Planner created the event');
  });

  it('shows each changed value before and after: counts, money, places, dates, rooms and sessions', () => {
    const { records, values } = historyOf(SUMMIT, [
      {
        numPeople: 130,
        budgetBreakdown: { venue: 26000, fb: 500.5 },
        formattedLocations: [
          { city: 'Lisbon', country: 'PT' },
          { city: 'Austin', state: 'TX', country: 'USA' },
        ],
        decisionDeadline: '2030-03-01',
      },
      {
        meetingRoomDates: [{ startDate: '2030-05-01', endDate: '2030-05-03' }],
        accommodations: { '2030-05-01': { Twin: 5 }, '2030-05-03': { Single: 20 } },
      },
    ]);
    const lines = (index: number) =>
      changeLines(records[index]!, values.get(records[index]!.id), 'EUR').map(
        (line) => `${line.label}: ${line.before} → ${line.after}`,
      );
    expect(lines(1)).toEqual([
      'Candidate cities: Lisbon, Portugal → Lisbon, Portugal; Austin, TX, United States',
      'Attendees: 120 → 130',
      'Budget: Venue: €25,000.00 → €26,000.00',
      'Budget: Food and beverage: — → €500.50',
      'Decision deadline: — → Fri, Mar 1, 2030',
    ]);
    expect(lines(2)).toEqual([
      'Rooms, night of Wed, May 1, 2030: 40 Single, 10 Double → 40 Single, 10 Double, 5 Twin',
      'Rooms, night of Fri, May 3, 2030: — → 20 Single',
      'Meeting-room dates: Wed, May 1 – Thu, May 2, 2030 → Wed, May 1 – Fri, May 3, 2030',
    ]);
  });

  it('shows the agenda’s sessions by title: added, changed and removed', () => {
    const opening = (details: EventDetails) =>
      details.agenda.find((item) => item.title === 'Opening plenary')!.id;
    const dinner = {
      title: 'Closing dinner',
      dates: ['2030-05-02'],
      startTime: '19:00',
      endTime: '22:30',
      capacity: 110,
    };
    const { records, values } = historyOf(SUMMIT, [
      { agendaOperations: [{ op: 'add', session: dinner }] },
      (details) => ({
        agendaOperations: [{ op: 'update', sessionId: opening(details), session: { startTime: '09:30' } }],
      }),
      (details) => ({
        agendaOperations: [
          { op: 'update', sessionId: opening(details), session: { notes: 'Keynote first' } },
        ],
      }),
      (details) => ({ agendaOperations: [{ op: 'remove', sessionId: opening(details) }] }),
    ]);
    const lines = (index: number) =>
      changeLines(records[index]!, values.get(records[index]!.id), 'EUR').map(
        (line) => `${line.label}: ${line.before} → ${line.after}`,
      );
    expect(lines(1)).toEqual([
      'Session “Closing dinner”: not on the agenda → “Closing dinner”, Thu, May 2, 2030, 19:00–22:30, 110 people',
    ]);
    expect(lines(2)).toEqual([
      'Session “Opening plenary”: “Opening plenary”, Wed, May 1, 2030, 09:00–10:30 → “Opening plenary”, Wed, May 1, 2030, 09:30–10:30',
    ]);
    expect(lines(3)).toEqual(['Session “Opening plenary”: Notes: — → Keynote first']);
    expect(lines(4)).toEqual([
      'Session “Opening plenary”: “Opening plenary”, Wed, May 1, 2030, 09:30–10:30 → not on the agenda',
    ]);
  });

  it('keeps the names of a change whose diff no longer replays, without values', () => {
    const { records } = historyOf(SUMMIT, [{ numPeople: 130 }]);
    const broken = { ...records[1]!, diff: [{ op: 'replace' as const, path: '/nothing/there', value: 1 }] };
    const values = replayChanges({}, [records[0]!, broken]);
    expect(values.has(broken.id)).toBe(false);
    expect(changeLines(broken, values.get(broken.id), 'EUR')).toEqual([]);
    expect(describeChange(broken, { people, venues: {} })).toBe('Planner changed Attendees');
  });
});

describe('the history of requests for proposals in words', () => {
  const venues = { v1: 'Hotel Central' };
  const request = (status: string, extra: Record<string, unknown> = {}) =>
    ({ id: 'r1', venue: { id: 'v1' }, status, turnDown: null, decision: null, ...extra }) as never;
  const step = (
    type: string,
    by: ChangeRecord['actor'],
    data: Record<string, unknown> = {},
  ): ChangeRecord => ({
    id: newId(),
    type: type as ChangeRecord['type'],
    actor: by,
    changedFields: [],
    diff: [],
    data: { requestId: 'r1', venueId: 'v1', ...data },
    sequence: 1,
    eventId: 'e1',
    revision: 1,
    occurredAt: NOW,
  });
  const venue = { type: 'venue' as const, requestId: 'r1', venueId: 'v1' } as ChangeRecord['actor'];

  it('says who was sent, withdrawn, awarded and declined, and why a venue turned a request down', () => {
    const said = (change: ChangeRecord, status = 'sent', extra: Record<string, unknown> = {}) =>
      describeChange(change, { people, venues, requests: [request(status, extra)] });
    expect(said(step('venue_request.sent', actor))).toBe('Hotel Central was sent the request by Planner');
    expect(said(step('venue_request.sent', { type: 'operator' }))).toBe(
      'Hotel Central was sent the request by an operator',
    );
    expect(said(step('venue_request.withdrawn', actor), 'withdrawn')).toBe(
      'The request to Hotel Central was withdrawn by Planner',
    );
    expect(
      said(step('venue_request.turned_down', venue), 'turned_down', {
        turnDown: { reason: 'dates_unavailable', comment: null },
      }),
    ).toBe('Hotel Central turned down the request: the dates are not available');
    expect(
      said(step('venue_request.declined', actor), 'declined', {
        decision: { reason: 'rate_too_high', comment: null },
      }),
    ).toBe('The proposal of Hotel Central was declined by Planner: the room rate is too high');
    expect(said(step('venue_request.awarded', actor), 'awarded')).toBe(
      'Hotel Central was awarded the event by Planner',
    );
    expect(said(step('proposal.submitted', venue, { proposalRevision: 1 }), 'proposed')).toBe(
      'Hotel Central sent its proposal',
    );
    expect(said(step('proposal.submitted', venue, { proposalRevision: 2 }), 'proposed')).toBe(
      'Hotel Central revised its proposal (revision 2)',
    );
    expect(said(step('proposal.submitted', actor, { proposalRevision: 1 }), 'proposed')).toBe(
      'Planner entered the proposal of Hotel Central on its behalf',
    );
    expect(said(step('venue_request.reminded', { type: 'system' }, { responseDueDate: '2030-05-12' }))).toBe(
      'Hotel Central was reminded that its answer is due by Sun, May 12, 2030',
    );
    // Without the requests (an older caller), the sentence still reads, without the reason.
    expect(describeChange(step('venue_request.turned_down', venue), { people, venues })).toBe(
      'Hotel Central turned down the request',
    );
  });
});
