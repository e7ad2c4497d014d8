/**
 * Event bodies are documented by TypeBox schemas but checked by the domain (D5 puts 404 and 409 before
 * field problems). This keeps the two honest: generated valid bodies are accepted by both, and every
 * constraint the documented schema states is enforced by the domain on the same field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNewEvent } from '../../src/domain/create-event.js';
import { ValidationError } from '../../src/domain/errors.js';
import { EVENT_FIELDS, FIELD_NAMES, type EventFieldDescription } from '../../src/domain/event-field-table.js';
import { BUDGET_CATEGORIES, type EventDetails, ROOM_TYPES } from '../../src/domain/types.js';
import { applyUpdate } from '../../src/domain/update-event.js';
import { committedDocument, componentValidator } from '../helpers/openapi.js';

type Json = any;
const document = committedDocument() as Json;
const schemas = document.components.schemas as Record<string, Json>;
const documented = {
  create: componentValidator('CreateEventRequest'),
  update: componentValidator('UpdateEventRequest'),
  event: componentValidator('Event'),
};

let sequence = 0;
const newId = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;
const NOW = '2026-11-02T10:15:00.000Z';

/** The fields the domain refuses, or null when it accepts the body. */
function domainCreate(body: unknown): string[] | null {
  try {
    buildNewEvent(body, { id: newId(), now: NOW, newId });
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return error.problems.map((problem) => problem.field);
    throw error;
  }
}

function domainUpdate(current: EventDetails, body: unknown): string[] | null {
  try {
    applyUpdate(current, body, { now: NOW, newId });
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return error.problems.map((problem) => problem.field);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Valid bodies

const DAY_ZERO = Date.UTC(2027, 4, 1);
const day = (offset: number) => new Date(DAY_ZERO + offset * 86_400_000).toISOString().slice(0, 10);
/** The meeting-room range every generated body keeps, so agenda sessions inside it stay valid. */
const BASE_RANGE = { startDate: day(0), endDate: day(9) };

const orNull = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, fc.constant(null));
const optionalRecord = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.record(fields, { requiredKeys: [] });
const text = (max: number) =>
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: Math.min(max, 30) }),
    fc.constant(''),
    // Exactly at the limit, counted in code points (2 UTF-16 units each).
    fc.constant('😀'.repeat(max)),
  );
const nonBlank = (max: number) =>
  fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(max, 30) }).filter((s) => s.trim() !== ''),
    fc.constant('😀'.repeat(max)),
    fc.constant('\u3000x\u00a0'),
  );
const count = fc.oneof(fc.nat(5000), fc.constant(0), fc.constant(Number.MAX_SAFE_INTEGER));
const amount = fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100);
const anyDay = fc.integer({ min: -20_000, max: 20_000 }).map(day);
const dayInBase = fc.integer({ min: 0, max: 9 }).map(day);
const dateRange = fc
  .tuple(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: 0, max: 365 }))
  .map(([start, length]) => ({ startDate: day(start), endDate: day(start + length) }));
const meetingRoomDates = fc.array(dateRange, { maxLength: 4 }).map((ranges) => [BASE_RANGE, ...ranges]);
const deadline = fc.oneof(
  anyDay,
  fc
    .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  fc.constant('2027-01-15T17:00:00+02:00'),
  fc.constant('2027-01-15t17:00:00z'),
);
const textList = (max: number) =>
  fc.oneof(fc.array(text(1000), { maxLength: 4 }), fc.constant(Array.from({ length: max }, () => 'x')));
const budget = optionalRecord(Object.fromEntries(BUDGET_CATEGORIES.map((c) => [c, orNull(amount)])));
const rooms = optionalRecord(Object.fromEntries(ROOM_TYPES.map((r) => [r, orNull(count)])));
const accommodations = fc.dictionary(anyDay, orNull(rooms), { maxKeys: 5 });
const location = fc.record(
  {
    city: nonBlank(1000),
    state: orNull(text(1000)),
    country: orNull(text(1000)),
    formatted_address: orNull(text(1000)),
    place_id: orNull(text(1000)),
  },
  { requiredKeys: ['city'] },
);
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const times = fc
  .integer({ min: 0, max: 1438 })
  .chain((start) => fc.integer({ min: start + 1, max: 1439 }).map((end) => [hhmm(start), hhmm(end)] as const));
const sessionDates = fc.uniqueArray(dayInBase, { minLength: 1, maxLength: 5 });
const optionalSessionFields = {
  roomType: orNull(text(1000)),
  capacity: orNull(count),
  avRequirements: orNull(textList(50)),
  fbRequirements: orNull(textList(50)),
  avOtherText: orNull(text(1000)),
  fbOtherText: orNull(text(1000)),
  notes: orNull(text(1000)),
  useInternalSpace: orNull(fc.boolean()),
  internalOfficeId: orNull(count),
  internalOfficeName: orNull(text(1000)),
};
const newSession = fc
  .tuple(fc.record({ title: nonBlank(1000), dates: sessionDates }), times, optionalRecord(optionalSessionFields))
  .map(([required, [startTime, endTime], optional]) => ({ ...required, startTime, endTime, ...optional }));
const sessionChanges = fc
  .tuple(
    optionalRecord({ title: nonBlank(1000), dates: sessionDates, ...optionalSessionFields }),
    fc.option(times, { nil: undefined }),
  )
  .map(([changes, pair]) => (pair ? { ...changes, startTime: pair[0], endTime: pair[1] } : changes));

const writableFields = {
  formattedLocations: orNull(fc.array(location, { maxLength: 3 })),
  numPeople: orNull(count),
  budgetBreakdown: orNull(budget),
  flexibility: orNull(fc.oneof(text(1000), fc.constant('Dates not flexible'))),
  decisionDeadline: orNull(deadline),
  accommodations: orNull(accommodations),
  numMeetingRoomsNeeded: orNull(count),
  foodBeverageRequirements: orNull(text(1000)),
  meetingRooms: orNull(text(1000)),
  otherNotes: orNull(text(1000)),
  notesForVenue: orNull(text(1000)),
  decisionFactors: orNull(textList(50)),
  decisionFactorOtherText: orNull(text(1000)),
  additionalServices: orNull(textList(50)),
  organizationId: fc.jsonValue(),
};

const createBody = fc
  .tuple(
    fc.record({ name: nonBlank(100) }),
    optionalRecord({
      ...writableFields,
      currency: orNull(fc.constantFrom('USD', 'EUR', 'JPY', 'CHF', 'BRL')),
      agenda: fc.array(newSession, { maxLength: 3 }),
    }),
    fc.constantFrom('meetingRoomDates', 'eventDates', 'event_dates'),
    meetingRoomDates,
  )
  .map(([required, optional, datesKey, dates]) => ({ ...required, ...optional, [datesKey]: dates }));

/** The event updates are applied to: meeting rooms for ten days and three sessions in them. */
const current = buildNewEvent(
  {
    name: 'Base event',
    meetingRoomDates: [BASE_RANGE],
    agenda: ['One', 'Two', 'Three'].map((title, index) => ({
      title,
      dates: [day(index)],
      startTime: '09:00',
      endTime: '10:30',
    })),
    accommodations: { [day(0)]: { Single: 3 } },
    budgetBreakdown: { venue: 100 },
  },
  { id: newId(), now: NOW, newId },
);
const sessionIds = current.agenda.map((session) => session.id);

const operations = fc
  .array(
    fc.oneof(
      newSession.map((session) => ({ op: 'add', session })),
      fc.record({ op: fc.constant('update'), sessionId: fc.constantFrom(...sessionIds), session: sessionChanges }),
      fc.record({ op: fc.constant('remove'), sessionId: fc.constantFrom(...sessionIds) }),
    ),
    { maxLength: 6 },
  )
  // A removed session cannot be addressed again in the same request.
  .map((ops) => {
    const removed = new Set<string>();
    return ops.filter((op) => {
      if (!('sessionId' in op)) return true;
      if (removed.has(op.sessionId)) return false;
      if (op.op === 'remove') removed.add(op.sessionId);
      return true;
    });
  });

const updateBody = optionalRecord({
  ...writableFields,
  name: nonBlank(100),
  meetingRoomDates,
  agendaOperations: operations,
});

describe('generated valid bodies', () => {
  it('are accepted by the documented CreateEventRequest and by the domain alike', () => {
    fc.assert(
      fc.property(createBody, (body) => {
        expect(documented.create(body), JSON.stringify(body)).toEqual([]);
        expect(domainCreate(body), JSON.stringify(body)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('are accepted by the documented UpdateEventRequest and by the domain alike', () => {
    fc.assert(
      fc.property(updateBody, (body) => {
        expect(documented.update(body), JSON.stringify(body)).toEqual([]);
        expect(domainUpdate(current, body), JSON.stringify(body)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('include a full event read back and sent again, read-only fields and all', () => {
    expect(documented.event(current)).toEqual([]);
    expect(documented.update(current)).toEqual([]);
    expect(domainUpdate(current, structuredClone(current))).toBeNull();
  });

  it('include the examples of the document', () => {
    for (const example of schemas.CreateEventRequest.examples) {
      expect(documented.create(example)).toEqual([]);
      expect(domainCreate(example)).toBeNull();
    }
    // The update example applies to the event example: it addresses that event's session.
    const [event] = schemas.Event.examples;
    const [update] = schemas.UpdateEventRequest.examples;
    expect(documented.event(event)).toEqual([]);
    expect(documented.update(update)).toEqual([]);
    expect(domainUpdate(event, update)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------
// Every documented constraint, broken one at a time

interface Violation {
  /** Where in the body the value goes. */
  at: Array<string | number>;
  value: unknown;
  /** The field a 400 must name (the location, or the key that was added or removed). */
  field: string;
  why: string;
}

const resolve = (schema: Json): Json => {
  let resolved = schema;
  while (resolved.$ref) resolved = schemas[resolved.$ref.split('/').pop()];
  return resolved;
};
const typesOf = (schema: Json): string[] => (schema.type === undefined ? [] : [].concat(schema.type));
const fieldOf = (at: Array<string | number>) =>
  at.reduce<string>(
    (path, key) => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`),
    '',
  );

function violations(
  schemaIn: Json,
  sample: Json,
  at: Array<string | number>,
  nullAllowed = false,
): Violation[] {
  const schema = resolve(schemaIn);
  const field = fieldOf(at);
  const here = (value: unknown, why: string): Violation => ({ at, value, field, why });
  if (schema.readOnly) return [];
  if (!schema.type && !schema.anyOf && !schema.oneOf && !schema.properties) return []; // any value
  const out: Violation[] = [];
  const nullable =
    nullAllowed ||
    typesOf(schema).includes('null') ||
    (schema.anyOf ?? []).some((s: Json) => resolve(s).type === 'null');
  if (!nullable) out.push(here(null, 'null where the schema has no null'));

  if (schema.anyOf) {
    const alternatives = schema.anyOf.filter((s: Json) => resolve(s).type !== 'null');
    if (alternatives.length === 1) return [...out, ...violations(alternatives[0], sample, at, nullable)];
    return [...out, here(12345, 'a type no alternative has'), here('not a date', 'a value no alternative takes')];
  }
  if (schema.oneOf) {
    const branch = schema.oneOf.map(resolve).find((option: Json) => option.properties.op.enum[0] === sample.op);
    return [...out, ...violations(branch, sample, at)];
  }

  const type = typesOf(schema).find((t) => t !== 'null');
  switch (type) {
    case 'string':
      out.push(here(12345, 'a number for a string'));
      if (schema.maxLength !== undefined) out.push(here('a'.repeat(schema.maxLength + 1), 'maxLength'));
      if (schema.minLength) out.push(here('', 'minLength'));
      if (schema.pattern === '\\S') out.push(here(' \t\u3000', 'pattern (not blank)'));
      else if (schema.pattern) out.push(here('x', `pattern ${schema.pattern}`));
      if (schema.format === 'date') out.push(here('2027-02-30', 'format date'));
      if (schema.format === 'uuid') out.push(here('not-a-uuid', 'format uuid'));
      if (schema.enum) out.push(here('bogus', 'enum'));
      break;
    case 'integer':
    case 'number':
      out.push(here('12', 'a string for a number'));
      if (type === 'integer') out.push(here(1.5, 'integer'));
      if (schema.minimum !== undefined) out.push(here(schema.minimum - 1, 'minimum'));
      if (schema.maximum !== undefined) out.push(here(schema.maximum + 1, 'maximum'));
      break;
    case 'boolean':
      out.push(here('yes', 'a string for a boolean'));
      break;
    case 'array': {
      out.push(here('x', 'a string for an array'));
      const first = sample[0];
      if (first === undefined) throw new Error(`the base body needs an item at ${field}`);
      if (schema.maxItems !== undefined) {
        out.push(here(Array.from({ length: schema.maxItems + 1 }, () => structuredClone(first)), 'maxItems'));
      }
      if (schema.minItems) out.push(here([], 'minItems'));
      if (schema.uniqueItems) out.push(here([first, first], 'uniqueItems'));
      sample.forEach((item: Json, index: number) => {
        out.push(...violations(schema.items, item, [...at, index]));
      });
      break;
    }
    case 'object': {
      out.push(here('x', 'a string for an object'));
      const keys = Object.keys(sample);
      if (schema.additionalProperties === false) {
        out.push({ ...here({ ...sample, bogusField: 1 }, 'additionalProperties'), field: fieldOf([...at, 'bogusField']) });
      }
      for (const key of schema.required ?? []) {
        if (!(key in sample)) continue;
        const { [key]: _removed, ...rest } = sample;
        out.push({ ...here(rest, `required ${key}`), field: fieldOf([...at, key]) });
      }
      for (const key of keys) {
        const property = schema.properties?.[key];
        if (property) out.push(...violations(property, sample[key], [...at, key]));
        else if (typeof schema.additionalProperties === 'object') {
          out.push(...violations(schema.additionalProperties, sample[key], [...at, key]));
        }
      }
      if (schema.propertyNames?.format === 'date') {
        const badKey = '2027-13-01';
        out.push({ ...here({ ...sample, [badKey]: sample[keys[0]!] }, 'propertyNames'), field: fieldOf([...at, badKey]) });
      }
      if (schema.maxProperties !== undefined) {
        const many = Object.fromEntries(
          Array.from({ length: schema.maxProperties + 1 }, (_, index) => [day(index), {}]),
        );
        out.push(here(many, 'maxProperties'));
      }
      break;
    }
  }
  return out;
}

function withValue(body: Json, at: Array<string | number>, value: unknown): Json {
  if (at.length === 0) return value;
  const copy = structuredClone(body);
  let target = copy;
  for (const key of at.slice(0, -1)) target = target[key];
  target[at[at.length - 1]!] = value;
  return copy;
}

const names = (fields: string[] | null, field: string) =>
  fields !== null &&
  fields.some((named) => named === field || named.startsWith(`${field}.`) || named.startsWith(`${field}[`));

const session = (title: string, dayOffset: number) => ({
  title,
  dates: [day(dayOffset)],
  startTime: '09:00',
  endTime: '10:30',
  roomType: 'Theatre',
  capacity: 10,
  avRequirements: ['Projector'],
  fbRequirements: ['Coffee'],
  avOtherText: 'Mics',
  fbOtherText: 'Tea',
  notes: 'Notes',
  useInternalSpace: true,
  internalOfficeId: 7,
  internalOfficeName: 'HQ',
});
const everyWritableField = {
  name: 'Every field',
  formattedLocations: [
    { city: 'Lisbon', state: 'Lisboa', country: 'Portugal', formatted_address: 'x', place_id: 'p' },
  ],
  numPeople: 120,
  budgetBreakdown: { venue: 1000, fb: 20.5 },
  flexibility: 'A week either way',
  decisionDeadline: '2027-01-15T17:00:00Z',
  accommodations: { [day(0)]: { Single: 4, Double: 2 } },
  numMeetingRoomsNeeded: 2,
  foodBeverageRequirements: 'Vegetarian',
  meetingRooms: 'Plenary',
  otherNotes: 'Other',
  notesForVenue: 'Venue',
  decisionFactors: ['Price'],
  decisionFactorOtherText: 'Green',
  additionalServices: ['Transfers'],
};
const CREATE_BASES = [
  { ...everyWritableField, currency: 'EUR', meetingRoomDates: [BASE_RANGE], agenda: [session('Opening', 0)] },
  { name: 'With eventDates', eventDates: [BASE_RANGE] },
  { name: 'With event_dates', event_dates: [BASE_RANGE] },
];
const UPDATE_BASE = {
  ...everyWritableField,
  meetingRoomDates: [BASE_RANGE],
  agendaOperations: [
    { op: 'add', session: session('Added', 1) },
    { op: 'update', sessionId: sessionIds[0], session: session('Changed', 2) },
    { op: 'remove', sessionId: sessionIds[1] },
  ],
};

describe('each constraint of the documented body schemas', () => {
  it('starts from base bodies that both accept', () => {
    for (const base of CREATE_BASES) {
      expect(documented.create(base)).toEqual([]);
      expect(domainCreate(base)).toBeNull();
    }
    expect(documented.update(UPDATE_BASE)).toEqual([]);
    expect(domainUpdate(current, UPDATE_BASE)).toBeNull();
  });

  const createCases = CREATE_BASES.flatMap((base) =>
    violations(schemas.CreateEventRequest, base, []).map((violation) => ({ base, violation })),
  );
  const updateCases = violations(schemas.UpdateEventRequest, UPDATE_BASE, []);

  it(`is broken in ${createCases.length} ways on create, each refused by both, naming the same field`, () => {
    expect(createCases.length).toBeGreaterThan(150);
    const disagreements: string[] = [];
    for (const { base, violation } of createCases) {
      const body = withValue(base, violation.at, violation.value);
      const schemaProblems = documented.create(body);
      const domainFields = domainCreate(body);
      if (schemaProblems.length === 0 || !names(domainFields, violation.field)) {
        disagreements.push(
          `${violation.field} (${violation.why}): schema ${schemaProblems.length ? 'refuses' : 'ACCEPTS'}, domain names ${JSON.stringify(domainFields)}`,
        );
      }
    }
    expect(disagreements).toEqual([]);
  });

  it(`is broken in ${updateCases.length} ways on update, each refused by both, naming the same field`, () => {
    expect(updateCases.length).toBeGreaterThan(150);
    const disagreements: string[] = [];
    for (const violation of updateCases) {
      const body = withValue(UPDATE_BASE, violation.at, violation.value);
      const schemaProblems = documented.update(body);
      const domainFields = domainUpdate(current, body);
      if (schemaProblems.length === 0 || !names(domainFields, violation.field)) {
        disagreements.push(
          `${violation.field} (${violation.why}): schema ${schemaProblems.length ? 'refuses' : 'ACCEPTS'}, domain names ${JSON.stringify(domainFields)}`,
        );
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe('rules a JSON Schema cannot state', () => {
  const cases: Array<{ rule: string; body: Json; field: string; described: string; where: string }> = [
    {
      rule: 'a session ends after it starts',
      body: { name: 'x', meetingRoomDates: [BASE_RANGE], agenda: [{ ...session('S', 0), endTime: '08:00' }] },
      field: 'agenda[0].endTime',
      described: schemas.NewSession.properties.endTime.description,
      where: 'after `startTime`',
    },
    {
      rule: 'session days lie inside meetingRoomDates',
      body: { name: 'x', meetingRoomDates: [BASE_RANGE], agenda: [session('S', 30)] },
      field: 'agenda[0].dates',
      described: schemas.NewSession.properties.dates.description,
      where: 'inside `meetingRoomDates`',
    },
    {
      rule: 'a range starts on or before its end',
      body: { name: 'x', meetingRoomDates: [{ startDate: day(5), endDate: day(1) }] },
      field: 'meetingRoomDates[0].endDate',
      described: schemas.DateRange.properties.endDate.description,
      where: '`startDate <= endDate`',
    },
    {
      rule: 'a meeting-room range spans at most 366 days',
      body: { name: 'x', meetingRoomDates: [{ startDate: day(0), endDate: day(366) }] },
      field: 'meetingRoomDates[0]',
      described: schemas.CreateEventRequest.properties.meetingRoomDates.description,
      where: 'each at most 366 days long',
    },
    {
      rule: 'amounts have at most two decimals',
      body: { name: 'x', budgetBreakdown: { venue: 10.555 } },
      field: 'budgetBreakdown.venue',
      described: schemas.BudgetBreakdownPatch.properties.venue.description,
      where: 'at most two decimals',
    },
    {
      rule: 'currency is a known ISO 4217 code',
      body: { name: 'x', currency: 'QQQ' },
      field: 'currency',
      described: schemas.CreateEventRequest.properties.currency.description,
      where: 'ISO 4217',
    },
    {
      rule: 'eventDates and meetingRoomDates are not both sent',
      body: { name: 'x', eventDates: [BASE_RANGE], meetingRoomDates: [BASE_RANGE] },
      field: 'meetingRoomDates',
      described: schemas.CreateEventRequest.properties.eventDates.description,
      where: 'send only one of the two',
    },
  ];

  for (const { rule, body, field, described, where } of cases) {
    it(`are described in the document and enforced by the domain: ${rule}`, () => {
      expect(documented.create(body)).toEqual([]);
      expect(domainCreate(body)).toEqual(expect.arrayContaining([field]));
      expect(described).toContain(where);
    });
  }
});

describe("the documented schemas and the domain's table of fields", () => {
  const nullable = (schema: Json) =>
    [].concat(schema.type ?? []).includes('null' as never) ||
    (schema.anyOf ?? []).some((option: Json) => option.type === 'null');
  const event = schemas.Event.properties;
  const update = schemas.UpdateEventRequest.properties;

  it.each(FIELD_NAMES)('document %s as the table describes it', (name) => {
    const field: EventFieldDescription = EVENT_FIELDS[name];
    expect(event[name], 'in the details view').toBeDefined();
    expect(update[name], 'in the update body').toBeDefined();
    expect(schemas.Event.required).toContain(name);
    if (field.access !== 'writable') {
      expect(event[name].readOnly, 'marked read-only in the details view').toBe(true);
      expect(update[name].readOnly, 'never marked readOnly in a request').toBeUndefined();
      expect(update[name].description).toContain('Read-only');
      return;
    }
    expect(nullable(event[name]), 'null in the details view').toBe(field.whenNull === 'null');
    expect(nullable(update[name]), 'null in the update body').toBe(field.whenNull !== 'refused');
    expect(schemas.CreateEventRequest.properties[name]).toBeDefined();
    const shown = resolve(event[name]);
    if (field.maxLength !== undefined) expect(shown.maxLength).toBe(field.maxLength);
    if (field.maxItems !== undefined) expect(shown.maxItems).toBe(field.maxItems);
  });
});
