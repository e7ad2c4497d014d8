import { applyPatch, createPatch } from 'rfc6902';
import { describe, expect, it } from 'vitest';
import { buildNewEvent } from '../domain/create-event.js';
import { changeStatus } from '../domain/status.js';
import type { EventDetails } from '../domain/types.js';
import { applyUpdate } from '../domain/update-event.js';
import { describeChange, diffView } from './change-log.js';

let counter = 0;
const newId = () => `eeeeeeee-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const deps = { ids: { uuid: newId, token: () => 'token' } } as unknown as Parameters<
  typeof describeChange
>[0];
const actor = { type: 'operator' } as const;

const created = buildNewEvent(
  {
    name: 'Sales kickoff',
    currency: 'USD',
    formattedLocations: [
      { city: 'Lisbon', country: 'Portugal' },
      { city: 'Austin', state: 'TX', country: 'USA' },
    ],
    numPeople: 120,
    budgetBreakdown: { venue: 42000, fb: 18500.5, av: 6200 },
    accommodations: { '2026-05-10': { Single: 20 }, '2026-05-11': { Single: 22, Double: 4 } },
    meetingRoomDates: [{ startDate: '2026-05-11', endDate: '2026-05-13' }],
    agenda: [
      {
        title: 'Opening',
        dates: ['2026-05-11'],
        startTime: '09:00',
        endTime: '10:00',
        avRequirements: ['Projector'],
      },
      { title: 'Workshop', dates: ['2026-05-12'], startTime: '11:00', endTime: '12:00' },
      { title: 'Dinner', dates: ['2026-05-13'], startTime: '19:00', endTime: '21:00' },
    ],
    otherNotes: 'Near the airport',
    decisionFactors: ['Price', 'Location'],
  },
  { id: newId(), now: '2026-01-01T00:00:00.000Z', newId },
);

/** What the change log recorded before diffs were built field by field. */
const wholeDiff = (before: EventDetails | undefined, after: EventDetails) =>
  createPatch(before ? diffView(before) : {}, diffView(after));

const [opening, workshop, dinner] = created.agenda;
const updates: Array<Record<string, unknown>> = [
  { name: 'Sales kickoff 2026' },
  { budgetBreakdown: { venue: 40000, fb: null, transport: 900 }, numPeople: 130 },
  { accommodations: { '2026-05-10': null, '2026-05-14': { Double: 3 } } },
  { formattedLocations: [{ city: 'Porto', country: 'Portugal' }], otherNotes: null },
  { decisionFactors: ['Location', 'Price', 'Meeting space'], flexibility: 'A week either way' },
  {
    agendaOperations: [
      { op: 'update', sessionId: workshop!.id, session: { capacity: 80, notes: 'U-shape' } },
      {
        op: 'add',
        session: { title: 'Side meeting', dates: ['2026-05-12'], startTime: '08:00', endTime: '08:45' },
      },
      { op: 'remove', sessionId: dinner!.id },
    ],
  },
  { meetingRoomDates: [{ startDate: '2026-05-11', endDate: '2026-05-12' }], agendaOperations: [] },
  { agendaOperations: [{ op: 'update', sessionId: opening!.id, session: { avRequirements: [] } }] },
];

describe('describeChange', () => {
  it('records a create as one add per field, the operations a whole-document diff gives', () => {
    const change = describeChange(deps, actor, undefined, created);
    expect(change.diff).toEqual(wholeDiff(undefined, created));
    expect(change.changedFields).toEqual(Object.keys(created).filter((field) => field !== 'updatedAt'));
  });

  it('records each update with the operations a whole-document diff gives, which lead from before to after', () => {
    let current = created;
    for (const [index, body] of updates.entries()) {
      const outcome = applyUpdate(current, body, { now: `2026-01-02T00:00:0${index}.000Z`, newId });
      expect(outcome.changed).toBe(true);
      const change = describeChange(deps, actor, current, outcome.details);
      expect(change.diff, JSON.stringify(body)).toEqual(wholeDiff(current, outcome.details));
      const replayed = structuredClone(diffView(current));
      applyPatch(replayed, structuredClone(change.diff) as never);
      expect(replayed).toEqual(diffView(outcome.details));
      expect(change.changedFields).toEqual(
        [...new Set(change.diff.map((operation) => operation.path.split('/')[1]!))]
          .filter((field) => field !== 'updatedAt')
          .sort(),
      );
      current = outcome.details;
    }
  });

  it('records a status change like a whole-document diff, with its data', () => {
    const stored = { organizationId: 'o', createdBy: 'u', previousStatus: null, details: created };
    const cancelled = changeStatus(stored, 'cancelled', '2026-01-03T00:00:00.000Z');
    const data = { from: created.status, to: cancelled.details.status };
    const change = describeChange(deps, actor, created, cancelled.details, data);
    expect(change.type).toBe('event.status_changed');
    expect(change.diff).toEqual(wholeDiff(created, cancelled.details));
    expect(change.data).toEqual(data);
  });
});
