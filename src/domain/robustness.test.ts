import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNewEvent } from './create-event.js';
import { AgendaSessionsOrphanedError, ValidationError } from './errors.js';
import { READ_ONLY_FIELDS, WRITABLE_FIELDS } from './event-field-table.js';
import type { EventDetails } from './types.js';
import { applyUpdate } from './update-event.js';

/** Whatever the body, the domain answers with a result or a typed 400/409 error: never anything else. */
function outcomeOf(action: () => unknown): 'ok' | 'invalid' | 'orphans' {
  try {
    action();
    return 'ok';
  } catch (error) {
    if (error instanceof ValidationError) {
      expect(error.problems.length).toBeGreaterThan(0);
      for (const problem of error.problems) {
        expect(problem).toEqual({
          field: expect.any(String),
          code: expect.any(String),
          message: expect.any(String),
        });
      }
      return 'invalid';
    }
    if (error instanceof AgendaSessionsOrphanedError) return 'orphans';
    throw error;
  }
}

let counter = 0;
const newId = () => `dddddddd-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

const event: EventDetails = buildNewEvent(
  {
    name: 'Fuzz',
    formattedLocations: [{ city: 'Oslo', country: 'Norway' }],
    budgetBreakdown: { venue: 10 },
    accommodations: { '2026-05-01': { Single: 1 } },
    meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
    agenda: [
      { title: 'A', dates: ['2026-05-01'], startTime: '09:00', endTime: '10:00' },
      { title: 'B', dates: ['2026-05-02', '2026-05-03'], startTime: '11:00', endTime: '12:00' },
    ],
  },
  { id: newId(), now: '2026-01-01T00:00:00.000Z', newId },
);

const sessionIds = event.agenda.map((session) => session.id);
const fieldName = fc.constantFrom(
  ...WRITABLE_FIELDS,
  ...READ_ONLY_FIELDS,
  'organizationId',
  '__proto__',
  'constructor',
  'unknown',
);
const day = fc.constantFrom('2026-05-01', '2026-05-02', '2026-05-04', '2026-02-29', 'x');
const looseValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), day, fc.constant(null));
const session = fc.dictionary(
  fc.constantFrom('title', 'dates', 'startTime', 'endTime', 'capacity', 'notes', 'useInternalSpace', 'id'),
  fc.oneof(looseValue, fc.array(day, { maxLength: 3 }), fc.constantFrom('09:00', '10:30', '23:59')),
);
const operation = fc.record(
  {
    op: fc.oneof(fc.constantFrom('add', 'update', 'remove'), looseValue),
    sessionId: fc.oneof(fc.constantFrom(...sessionIds), looseValue),
    session: fc.oneof(session, looseValue),
  },
  { requiredKeys: [] },
);
const patch = fc
  .dictionary(fieldName, looseValue, { maxKeys: 6 })
  .chain((base) =>
    fc
      .option(fc.array(operation, { maxLength: 5 }), { nil: undefined })
      .map((agendaOperations) => (agendaOperations === undefined ? base : { ...base, agendaOperations })),
  );

describe('robustness of the domain against arbitrary bodies', () => {
  it('answers any update body with a result or a typed error, leaving the event unchanged', () => {
    const before = structuredClone(event);
    fc.assert(
      fc.property(patch, (body) => {
        // JSON round trip: the body as HTTP would hand it over, with prototype keys as own properties.
        const parsed = JSON.parse(JSON.stringify(body));
        outcomeOf(() => applyUpdate(event, parsed, { now: '2026-01-02T00:00:00.000Z', newId }));
      }),
      { numRuns: 500, seed: 20260101 },
    );
    expect(event).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers any create body with an event or a ValidationError', () => {
    fc.assert(
      fc.property(fc.oneof(patch, fc.jsonValue({ maxDepth: 3 })), (body) => {
        const parsed = JSON.parse(JSON.stringify(body));
        const outcome = outcomeOf(() =>
          buildNewEvent(parsed, { id: newId(), now: '2026-01-02T00:00:00.000Z', newId }),
        );
        expect(outcome).not.toBe('orphans');
      }),
      { numRuns: 500, seed: 20260102 },
    );
  });

  it('accepts any valid event re-sent as read, after a JSON round trip, without changing it', () => {
    const text = fc.string({ maxLength: 12 });
    const nightDay = fc.integer({ min: 1, max: 9 }).map((d) => `2026-05-0${d}`);
    const validBody = fc.record({
      name: fc.string({ minLength: 1, maxLength: 20 }).filter((name) => name.trim() !== ''),
      formattedLocations: fc.array(
        fc.record(
          { city: fc.constantFrom('Oslo', 'Lima', 'Kyiv'), state: text, country: text },
          { requiredKeys: ['city'] },
        ),
        { maxLength: 3 },
      ),
      numPeople: fc.nat(),
      budgetBreakdown: fc.dictionary(
        fc.constantFrom('venue', 'fb', 'av', 'other'),
        fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100),
      ),
      flexibility: fc.option(text, { nil: null }),
      decisionDeadline: fc.option(fc.constantFrom('2026-04-01', '2026-04-01T09:00:00+02:00'), { nil: null }),
      accommodations: fc.dictionary(
        nightDay,
        fc.dictionary(fc.constantFrom('Single', 'Twin', 'VIP'), fc.nat({ max: 3 })),
      ),
      meetingRoomDates: fc.constant([{ startDate: '2026-05-02', endDate: '2026-05-05' }]),
      agenda: fc.array(
        fc.record(
          {
            title: fc.constantFrom('Talk', 'Lunch'),
            dates: fc.uniqueArray(fc.constantFrom('2026-05-02', '2026-05-03', '2026-05-05'), {
              minLength: 1,
            }),
            startTime: fc.constant('09:00'),
            endTime: fc.constantFrom('09:30', '17:00'),
            capacity: fc.nat(),
            avRequirements: fc.array(text, { maxLength: 2 }),
            useInternalSpace: fc.boolean(),
          },
          { requiredKeys: ['title', 'dates', 'startTime', 'endTime'] },
        ),
        { maxLength: 4 },
      ),
      decisionFactors: fc.array(text, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(validBody, (body) => {
        const created = buildNewEvent(body, { id: newId(), now: '2026-01-01T00:00:00.000Z', newId });
        const resent = JSON.parse(JSON.stringify(created));
        const outcome = applyUpdate(created, resent, { now: '2026-01-02T00:00:00.000Z', newId });
        expect(outcome.changed).toBe(false);
        expect(outcome.details).toEqual(created);
      }),
      { numRuns: 200, seed: 20260103 },
    );
  });
});
