/**
 * Properties of create and update over random events and random patches (fast-check), each checked
 * against a definition written here independently of the code under test: RFC 7396 merge, the
 * derived `location` and `eventDates` (D8), and agenda sessions inside `meetingRoomDates` (D7).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNewEvent } from './create-event.js';
import { AgendaSessionsOrphanedError, ValidationError } from './errors.js';
import { WRITABLE_FIELDS } from './event-field-table.js';
import type { DateRange, EventDetails } from './types.js';
import { applyUpdate } from './update-event.js';

const CREATED = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-02T00:00:00.000Z';
const RUNS = 400;

let counter = 0;
const newId = () => `eeeeeeee-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

// ---- Independent definitions -------------------------------------------------------------

const DAY_MS = 86_400_000;
const dayOf = (text: string) =>
  Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10))) / DAY_MS;
const textOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7396, section 2, as written there. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
}

/** D8: nights holding a room plus every meeting-room day, as sorted ranges; touching days merge. */
function expectedEventDates(details: EventDetails): DateRange[] {
  const days = new Set<number>();
  for (const [night, rooms] of Object.entries(details.accommodations)) {
    if (Object.values(rooms).some((count) => (count ?? 0) > 0)) days.add(dayOf(night));
  }
  for (const range of details.meetingRoomDates) {
    for (let day = dayOf(range.startDate); day <= dayOf(range.endDate); day++) days.add(day);
  }
  const ranges: Array<{ start: number; end: number }> = [];
  for (const day of [...days].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1];
    if (last && day === last.end + 1) last.end = day;
    else ranges.push({ start: day, end: day });
  }
  return ranges.map((range) => ({ startDate: textOf(range.start), endDate: textOf(range.end) }));
}

/** D8: "city, state, country" without empty (or blank) parts; locations joined by "; ". */
const addressOf = (parts: Array<string | undefined>) => parts.filter((part) => part?.trim()).join(', ');

function expectedLocation(details: EventDetails): string {
  return details.formattedLocations
    .map((location) => addressOf([location.city, location.state, location.country]))
    .join('; ');
}

const covered = (ranges: readonly DateRange[], day: string) =>
  ranges.some((range) => range.startDate <= day && day <= range.endDate);

function expectDerivedAndAgendaInvariants(details: EventDetails) {
  expect(details.location).toBe(expectedLocation(details));
  for (const location of details.formattedLocations) {
    expect(location.formatted_address).toBe(addressOf([location.city, location.state, location.country]));
  }
  expect(details.eventDates).toEqual(expectedEventDates(details));
  for (const session of details.agenda) {
    for (const day of session.dates) expect(covered(details.meetingRoomDates, day), day).toBe(true);
  }
}

/** D6: what `null` leaves in each writable field. */
const CLEARED: Record<string, unknown> = {
  formattedLocations: [],
  numPeople: 0,
  budgetBreakdown: {},
  flexibility: null,
  decisionDeadline: null,
  accommodations: {},
  meetingRoomDates: [],
  numMeetingRoomsNeeded: null,
  foodBeverageRequirements: null,
  meetingRooms: null,
  otherNotes: null,
  notesForVenue: null,
  decisionFactors: [],
  decisionFactorOtherText: null,
  additionalServices: [],
};

// ---- Generators ----------------------------------------------------------------------------

/** Days of a three-week window, so generated ranges, nights and sessions overlap often. */
const windowDay = fc.integer({ min: 0, max: 20 }).map((offset) => textOf(dayOf('2026-05-01') + offset));
const range = fc
  .tuple(windowDay, windowDay)
  .map(([a, b]) => (a <= b ? { startDate: a, endDate: b } : { startDate: b, endDate: a }));
const text = fc.string({ maxLength: 12 });
const name = fc.string({ minLength: 1, maxLength: 30 }).filter((value) => value.trim() !== '');
const location = fc.record(
  { city: fc.constantFrom('Oslo', 'Lima', 'Kyiv', 'São Paulo'), state: text, country: text },
  { requiredKeys: ['city'] },
);
const amount = fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100);
const category = fc.constantFrom('venue', 'fb', 'av', 'transport', 'flight', 'activities', 'merch', 'other');
const roomType = fc.constantFrom('Single', 'Double', 'Twin', 'ROH', 'Suite', 'Staff', 'VIP');
const nightDay = fc.integer({ min: -5, max: 25 }).map((offset) => textOf(dayOf('2026-05-01') + offset));

const sessionOn = (days: string[]) =>
  fc.record(
    {
      title: fc.constantFrom('Keynote', 'Lunch', 'Workshop'),
      dates: fc.uniqueArray(fc.constantFrom(...days), { minLength: 1, maxLength: 4 }),
      startTime: fc.constantFrom('08:00', '09:00'),
      endTime: fc.constantFrom('10:00', '17:30'),
      capacity: fc.nat({ max: 500 }),
      notes: text,
    },
    { requiredKeys: ['title', 'dates', 'startTime', 'endTime'] },
  );

/** Valid create bodies: the agenda lies inside the meeting-room dates. */
const createBody = fc.array(range, { maxLength: 3 }).chain((meetingRoomDates) => {
  const days = [
    ...new Set(
      meetingRoomDates.flatMap((r) => {
        const out: string[] = [];
        for (let day = dayOf(r.startDate); day <= dayOf(r.endDate); day++) out.push(textOf(day));
        return out;
      }),
    ),
  ];
  return fc.record(
    {
      name,
      formattedLocations: fc.array(location, { maxLength: 3 }),
      numPeople: fc.nat(),
      budgetBreakdown: fc.dictionary(category, amount, { maxKeys: 4 }),
      flexibility: fc.option(text, { nil: null }),
      accommodations: fc.dictionary(nightDay, fc.dictionary(roomType, fc.nat({ max: 4 }), { maxKeys: 3 }), {
        maxKeys: 5,
      }),
      meetingRoomDates: fc.constant(meetingRoomDates),
      agenda: days.length === 0 ? fc.constant([]) : fc.array(sessionOn(days), { maxLength: 4 }),
      decisionFactors: fc.array(text, { maxLength: 3 }),
    },
    { requiredKeys: ['name', 'meetingRoomDates'] },
  );
});

const event = createBody.map((body) => buildNewEvent(body, { id: newId(), now: CREATED, newId }));

/** A value for a field, marked as valid or not by the contract (D6, limits). */
interface Candidate {
  value: unknown;
  valid: boolean;
}
const valid = (arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.map((value): Candidate => ({ value, valid: true }));
const invalid = (...values: unknown[]) =>
  fc.constantFrom(...values).map((value): Candidate => ({ value, valid: false }));
/** Mostly valid values, so that patches of several fields are often accepted as a whole. */
const either = (good: fc.Arbitrary<Candidate>, bad: fc.Arbitrary<Candidate>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: bad, weight: 1 });

const nullableText = either(
  valid(fc.option(text, { nil: null })),
  invalid(42, ['x'], { text: 'x' }, 'y'.repeat(1001), 'a\u0000b'),
);
const textList = (max: number) =>
  either(
    valid(fc.option(fc.array(text, { maxLength: 4 }), { nil: null })),
    invalid(
      'x',
      [1],
      Array.from({ length: max + 1 }, () => 'v'),
      ['z'.repeat(1001)],
    ),
  );

const FIELD_CANDIDATES: Record<string, fc.Arbitrary<Candidate>> = {
  name: either(valid(name), invalid(null, '', '   ', 'n'.repeat(101), 7)),
  formattedLocations: either(
    valid(fc.option(fc.array(location, { maxLength: 3 }), { nil: null })),
    invalid({ city: 'x' }, [{ state: 'CA' }], [{ city: '' }], [{ city: 'x', zip: '1' }], ['Oslo']),
  ),
  numPeople: either(
    valid(fc.option(fc.nat(), { nil: null })),
    invalid(-1, 1.5, '10', Number.MAX_SAFE_INTEGER + 1),
  ),
  numMeetingRoomsNeeded: either(valid(fc.option(fc.nat({ max: 50 }), { nil: null })), invalid(-2, 0.5, true)),
  budgetBreakdown: either(
    valid(
      fc.option(fc.dictionary(category, fc.option(amount, { nil: null }), { maxKeys: 4 }), { nil: null }),
    ),
    invalid({ catering: 5 }, { venue: -1 }, { fb: 1.234 }, { av: '5' }, [1, 2], 'lots'),
  ),
  accommodations: either(
    valid(
      fc.option(
        fc.dictionary(
          nightDay,
          fc.option(fc.dictionary(roomType, fc.option(fc.nat({ max: 4 }), { nil: null }), { maxKeys: 3 }), {
            nil: null,
          }),
          { maxKeys: 4 },
        ),
        { nil: null },
      ),
    ),
    invalid(
      { '2026-02-30': { Single: 1 } },
      { '2026-05-01': { King: 1 } },
      { '2026-05-01': { Single: -1 } },
      { tomorrow: {} },
      { '2026-05-01': 3 },
    ),
  ),
  meetingRoomDates: either(
    valid(fc.option(fc.array(range, { maxLength: 3 }), { nil: null })),
    invalid(
      [{ startDate: '2026-05-03', endDate: '2026-05-01' }],
      [{ startDate: '2026-05-01' }],
      [{ startDate: '2025-01-01', endDate: '2026-06-01' }],
      { startDate: '2026-05-01', endDate: '2026-05-02' },
    ),
  ),
  decisionDeadline: either(
    valid(
      fc.option(fc.constantFrom('2026-04-01', '2026-04-01T09:30:00Z', '2026-04-01T09:30:00+02:00'), {
        nil: null,
      }),
    ),
    invalid('next week', '2026-13-01', '2026-04-01T25:00:00Z', 20260401),
  ),
  flexibility: nullableText,
  foodBeverageRequirements: nullableText,
  meetingRooms: nullableText,
  otherNotes: nullableText,
  notesForVenue: nullableText,
  decisionFactorOtherText: nullableText,
  decisionFactors: textList(50),
  additionalServices: textList(50),
};

const FIELD_NAMES = Object.keys(FIELD_CANDIDATES);
/** Up to five fields per patch, each with a candidate value. */
const someFields = fc
  .uniqueArray(fc.constantFrom(...FIELD_NAMES), { maxLength: 5 })
  .chain((names) =>
    fc
      .tuple(...names.map((field) => FIELD_CANDIDATES[field]!))
      .map((candidates) => Object.fromEntries(names.map((field, index) => [field, candidates[index]!]))),
  );

/** Agenda operations against `details`: valid-looking and broken ones, addressed to real and unknown ids. */
const operationsFor = (details: EventDetails) => {
  const ids = details.agenda.map((session) => session.id);
  const someId = ids.length > 0 ? fc.constantFrom(...ids) : fc.constant(newId());
  return fc.array(
    fc.oneof(
      sessionOn(['2026-05-01', '2026-05-05', '2026-05-10', '2026-05-21']).map((session) => ({
        op: 'add',
        session,
      })),
      fc.record({ op: fc.constant('remove'), sessionId: someId }),
      fc.record({
        op: fc.constant('update'),
        sessionId: someId,
        session: fc.record({ title: name, notes: text }, { requiredKeys: [] }),
      }),
      fc.constant({ op: 'remove', sessionId: '00000000-0000-4000-8000-000000000000' }),
      fc.constant({ op: 'rename', sessionId: ids[0] ?? 'x' }),
    ),
    { maxLength: 3 },
  );
};

const eventAndPatch = event.chain((details) =>
  fc
    .record(
      {
        fields: someFields,
        agendaOperations: operationsFor(details),
      },
      { requiredKeys: ['fields'] },
    )
    .map(({ fields, agendaOperations }) => {
      const body: Record<string, unknown> = {};
      let anyInvalid = false;
      const invalidFields: string[] = [];
      for (const [field, candidate] of Object.entries(fields)) {
        body[field] = candidate.value;
        if (!candidate.valid) {
          anyInvalid = true;
          invalidFields.push(field);
        }
      }
      if (agendaOperations !== undefined) body.agendaOperations = agendaOperations;
      return {
        details,
        body: JSON.parse(JSON.stringify(body)) as Record<string, unknown>,
        anyInvalid,
        invalidFields,
      };
    }),
);

type Outcome = { accepted: EventDetails; changed: boolean } | { rejected: unknown };

function attempt(details: EventDetails, body: unknown): Outcome {
  try {
    const outcome = applyUpdate(details, body, { now: NOW, newId });
    return { accepted: outcome.details, changed: outcome.changed };
  } catch (error) {
    if (error instanceof ValidationError || error instanceof AgendaSessionsOrphanedError)
      return { rejected: error };
    throw error;
  }
}

// ---- Properties ----------------------------------------------------------------------------

describe('update properties over random events and patches', () => {
  it('leaves the event identical when a patch is rejected, and never modifies its input', () => {
    let rejected = 0;
    fc.assert(
      fc.property(eventAndPatch, ({ details, body }) => {
        const before = structuredClone(details);
        const bodyBefore = structuredClone(body);
        const outcome = attempt(details, body);
        if ('rejected' in outcome) rejected++;
        expect(details).toEqual(before);
        expect(body).toEqual(bodyBefore);
      }),
      { numRuns: RUNS, seed: 7_396 },
    );
    // The generators must exercise both branches, or this property proves little.
    expect(rejected).toBeGreaterThan(RUNS / 10);
  });

  it('rejects every patch holding an invalid value, naming that field', () => {
    fc.assert(
      fc.property(eventAndPatch, ({ details, body, anyInvalid, invalidFields }) => {
        fc.pre(anyInvalid);
        const outcome = attempt(details, body);
        expect('rejected' in outcome).toBe(true);
        const error = (outcome as { rejected: unknown }).rejected;
        expect(error).toBeInstanceOf(ValidationError);
        const named = (error as ValidationError).problems.map((problem) => problem.field);
        for (const field of invalidFields) {
          expect(
            named.some(
              (path) => path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`),
            ),
            `${field} in ${named.join(', ')}`,
          ).toBe(true);
        }
      }),
      { numRuns: RUNS, seed: 20_260_501 },
    );
  });

  it('applies an accepted patch with RFC 7396 merge semantics, field by field', () => {
    let accepted = 0;
    fc.assert(
      fc.property(eventAndPatch, ({ details, body }) => {
        const outcome = attempt(details, body);
        if (!('accepted' in outcome)) return;
        accepted++;
        const after = outcome.accepted;
        for (const field of WRITABLE_FIELDS) {
          const sent = body[field];
          const got = (after as unknown as Record<string, unknown>)[field];
          const had = (details as unknown as Record<string, unknown>)[field];
          if (sent === undefined) {
            expect(got, `${field} omitted`).toEqual(had);
          } else if (sent === null) {
            expect(got, `${field} cleared`).toEqual(CLEARED[field]);
          } else if (field === 'budgetBreakdown' || field === 'accommodations') {
            expect(got, `${field} merged`).toEqual(mergePatch(had, sent));
          } else if (field === 'formattedLocations') {
            const parts = (got as EventDetails['formattedLocations']).map(({ city, state, country }) => ({
              city,
              ...(state === undefined ? {} : { state }),
              ...(country === undefined ? {} : { country }),
            }));
            expect(parts, 'formattedLocations replaced').toEqual(sent);
          } else if (field === 'decisionFactors' || field === 'additionalServices') {
            expect(got, `${field} replaced`).toEqual(sent);
          } else {
            expect(got, `${field} replaced`).toEqual(sent);
          }
        }
        // Fields outside the patch's reach keep their values.
        for (const field of ['id', 'status', 'currency', 'createdAt'] as const) {
          expect(after[field]).toBe(details[field]);
        }
        if (body.agendaOperations === undefined || (body.agendaOperations as unknown[]).length === 0) {
          expect(after.agenda).toEqual(details.agenda);
        }
        expect(after.updatedAt).toBe(outcome.changed ? NOW : details.updatedAt);
      }),
      { numRuns: RUNS, seed: 19_700_101 },
    );
    expect(accepted).toBeGreaterThan(RUNS / 10);
  });

  it('keeps location, eventDates and the agenda consistent with their definitions after every accepted patch', () => {
    fc.assert(
      fc.property(eventAndPatch, ({ details, body }) => {
        expectDerivedAndAgendaInvariants(details);
        const outcome = attempt(details, body);
        if ('accepted' in outcome) expectDerivedAndAgendaInvariants(outcome.accepted);
      }),
      { numRuns: RUNS, seed: 8 },
    );
  });

  it('keeps location, eventDates and the agenda consistent over a chain of patches', () => {
    const chain = event.chain((details) =>
      fc.array(someFields, { minLength: 1, maxLength: 8 }).map((patches) => ({
        details,
        patches: patches.map((fields) =>
          Object.fromEntries(Object.entries(fields).map(([field, candidate]) => [field, candidate.value])),
        ),
      })),
    );
    fc.assert(
      fc.property(chain, ({ details, patches }) => {
        let current = details;
        for (const patch of patches) {
          const outcome = attempt(current, JSON.parse(JSON.stringify(patch)));
          if ('accepted' in outcome) current = outcome.accepted;
          expectDerivedAndAgendaInvariants(current);
        }
      }),
      { numRuns: 150, seed: 31 },
    );
  });
});
