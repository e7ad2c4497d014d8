import { describe, expect, it } from 'vitest';
import { buildNewEvent } from './create-event.js';
import { dateText, dayNumber } from './dates.js';
import { EventCancelledError, type Problem, ValidationError } from './errors.js';
import { type EventDetails, STATUSES } from './types.js';
import { applyUpdate } from './update-event.js';

const EVENT_ID = '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50';
const CREATED = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-02T12:00:00.000Z';
const FREE_TEXT_FIELDS = [
  'flexibility',
  'foodBeverageRequirements',
  'meetingRooms',
  'otherNotes',
  'notesForVenue',
  'decisionFactorOtherText',
] as const;

function idSource(prefix: string) {
  let next = 0;
  return () => `${prefix}-0000-4000-8000-${String(++next).padStart(12, '0')}`;
}

const RICH_EVENT = {
  name: 'Sales Summit',
  formattedLocations: [
    { city: 'Lisbon', country: 'Portugal' },
    { city: 'Austin', state: 'TX', country: 'USA' },
  ],
  numPeople: 120,
  budgetBreakdown: { venue: 5000, fb: 1200.5 },
  flexibility: 'Dates not flexible',
  decisionDeadline: '2026-04-01',
  accommodations: { '2026-05-01': { Single: 10, Double: 5 }, '2026-05-02': { Single: 8 } },
  meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-04' }],
  numMeetingRoomsNeeded: 2,
  foodBeverageRequirements: 'Vegetarian options',
  meetingRooms: 'Theatre style',
  otherNotes: 'Quiet rooms',
  notesForVenue: 'Near the airport',
  decisionFactors: ['Price', 'Other'],
  decisionFactorOtherText: 'Sea view',
  additionalServices: ['Transfers'],
  agenda: [
    { title: 'Keynote', dates: ['2026-05-02'], startTime: '09:00', endTime: '10:00' },
    {
      title: 'Workshops',
      dates: ['2026-05-03', '2026-05-04'],
      startTime: '11:00',
      endTime: '17:00',
      roomType: 'Classroom',
      capacity: 40,
      useInternalSpace: false,
    },
  ],
};

function makeEvent(body: Record<string, unknown> = RICH_EVENT): EventDetails {
  return buildNewEvent(body, { id: EVENT_ID, now: CREATED, newId: idSource('aaaaaaaa') });
}

function update(event: EventDetails, patch: unknown) {
  return applyUpdate(event, patch, { now: NOW, newId: idSource('bbbbbbbb') });
}

/** The problems of the ValidationError thrown by `action`; fails the test if it throws anything else. */
function problemsOf(action: () => unknown): Problem[] {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected a ValidationError, but the call succeeded');
}

const fieldsAndCodes = (problems: Problem[]) => problems.map((p) => [p.field, p.code]);

function nights(first: string, count: number): string[] {
  const start = dayNumber(first)!;
  return Array.from({ length: count }, (_, i) => dateText(start + i));
}

describe('applyUpdate: merge semantics (D6)', () => {
  it('leaves omitted fields unchanged', () => {
    const event = makeEvent();
    const { details, changed } = update(event, { numPeople: 150 });
    expect(changed).toBe(true);
    expect(details).toEqual({ ...event, numPeople: 150, updatedAt: NOW });
  });

  it('clears every nullable field with null: arrays to [], objects to {}, scalars to null, numPeople to 0', () => {
    const event = makeEvent({ ...RICH_EVENT, agenda: [] });
    const patch = {
      formattedLocations: null,
      numPeople: null,
      budgetBreakdown: null,
      flexibility: null,
      decisionDeadline: null,
      accommodations: null,
      meetingRoomDates: null,
      numMeetingRoomsNeeded: null,
      foodBeverageRequirements: null,
      meetingRooms: null,
      otherNotes: null,
      notesForVenue: null,
      decisionFactors: null,
      decisionFactorOtherText: null,
      additionalServices: null,
    };
    const { details } = update(event, patch);
    expect(details).toEqual({
      ...event,
      location: '',
      eventDates: [],
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
      updatedAt: NOW,
    });
  });

  it('refuses to clear or empty the name', () => {
    const event = makeEvent();
    expect(problemsOf(() => update(event, { name: null }))).toEqual([
      { field: 'name', code: 'required', message: expect.any(String) },
    ]);
    expect(fieldsAndCodes(problemsOf(() => update(event, { name: '' })))).toEqual([['name', 'empty']]);
    expect(fieldsAndCodes(problemsOf(() => update(event, { name: '  \t ' })))).toEqual([['name', 'empty']]);
    expect(fieldsAndCodes(problemsOf(() => update(event, { name: 42 })))).toEqual([['name', 'invalid_type']]);
  });

  it('merges budgetBreakdown key by key, null removing a key', () => {
    const event = makeEvent();
    const { details } = update(event, { budgetBreakdown: { fb: null, av: 300, venue: 4500.25 } });
    expect(details.budgetBreakdown).toEqual({ venue: 4500.25, av: 300 });
    expect(update(event, { budgetBreakdown: {} }).changed).toBe(false);
    expect(update(event, { budgetBreakdown: { merch: null } }).changed).toBe(false);
  });

  it('merges accommodations night by night and room by room, null removing a night or a room', () => {
    const event = makeEvent();
    const { details } = update(event, {
      accommodations: {
        '2026-05-01': { Double: null, Suite: 1 },
        '2026-05-02': null,
        '2026-05-03': { Twin: 4 },
      },
    });
    expect(details.accommodations).toEqual({
      '2026-05-01': { Single: 10, Suite: 1 },
      '2026-05-03': { Twin: 4 },
    });
  });

  it('keeps a night whose rooms were all removed, as an empty object', () => {
    const event = makeEvent();
    const { details } = update(event, { accommodations: { '2026-05-02': { Single: null } } });
    expect(details.accommodations).toEqual({ '2026-05-01': { Single: 10, Double: 5 }, '2026-05-02': {} });
  });

  it('replaces arrays whole', () => {
    const event = makeEvent({ ...RICH_EVENT, agenda: [] });
    const { details } = update(event, {
      decisionFactors: ['Location'],
      additionalServices: [],
      formattedLocations: [{ city: 'Porto' }],
      meetingRoomDates: [{ startDate: '2026-06-01', endDate: '2026-06-02' }],
    });
    expect(details.decisionFactors).toEqual(['Location']);
    expect(details.additionalServices).toEqual([]);
    expect(details.formattedLocations).toEqual([{ city: 'Porto', formatted_address: 'Porto' }]);
    expect(details.meetingRoomDates).toEqual([{ startDate: '2026-06-01', endDate: '2026-06-02' }]);
  });

  it('rejects objects and arrays of the wrong shape, naming the field', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      update(event, {
        budgetBreakdown: [100],
        accommodations: { '2026-05-01': 5 },
        decisionFactors: 'Price',
        formattedLocations: { city: 'Rome' },
        meetingRoomDates: [{ startDate: '2026-05-01' }],
        flexibility: false,
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['budgetBreakdown', 'invalid_type'],
      ['accommodations.2026-05-01', 'invalid_type'],
      ['decisionFactors', 'invalid_type'],
      ['formattedLocations', 'invalid_type'],
      ['meetingRoomDates[0].endDate', 'required'],
      ['flexibility', 'invalid_type'],
    ]);
  });

  it('names unknown budget categories and room types', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      update(event, {
        budgetBreakdown: { food: 10, venue: 1 },
        accommodations: { '2026-05-02': { Kingsize: 2, Single: 1 } },
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['budgetBreakdown.food', 'unknown_field'],
      ['accommodations.2026-05-02.Kingsize', 'unknown_field'],
    ]);
  });

  it('stores budget categories and room types in a fixed order and nights sorted', () => {
    const event = makeEvent({ name: 'Order' });
    const { details } = update(event, {
      budgetBreakdown: { other: 1, venue: 2, av: 3 },
      accommodations: { '2026-05-03': { VIP: 1, Single: 2 }, '2026-05-01': { Twin: 1 } },
    });
    expect(Object.keys(details.budgetBreakdown)).toEqual(['venue', 'av', 'other']);
    expect(Object.keys(details.accommodations)).toEqual(['2026-05-01', '2026-05-03']);
    expect(Object.keys(details.accommodations['2026-05-03']!)).toEqual(['Single', 'VIP']);
  });
});

describe('applyUpdate: limits (D6)', () => {
  const event = makeEvent({ name: 'Limits' });

  it('accepts a name of 100 characters and rejects 101', () => {
    expect(update(event, { name: 'n'.repeat(100) }).details.name).toBe('n'.repeat(100));
    expect(fieldsAndCodes(problemsOf(() => update(event, { name: 'n'.repeat(101) })))).toEqual([
      ['name', 'too_long'],
    ]);
  });

  it('counts the name in characters: 100 emoji pass, 101 fail', () => {
    expect(update(event, { name: '😀'.repeat(100) }).details.name).toBe('😀'.repeat(100));
    expect(fieldsAndCodes(problemsOf(() => update(event, { name: '😀'.repeat(101) })))).toEqual([
      ['name', 'too_long'],
    ]);
  });

  it.each(FREE_TEXT_FIELDS)('accepts %s of 1,000 characters and rejects 1,001', (field) => {
    expect(update(event, { [field]: 'x'.repeat(1000) }).details[field]).toBe('x'.repeat(1000));
    expect(update(event, { [field]: '😀'.repeat(1000) }).details[field]).toBe('😀'.repeat(1000));
    expect(fieldsAndCodes(problemsOf(() => update(event, { [field]: 'x'.repeat(1001) })))).toEqual([
      [field, 'too_long'],
    ]);
    expect(fieldsAndCodes(problemsOf(() => update(event, { [field]: '😀'.repeat(1001) })))).toEqual([
      [field, 'too_long'],
    ]);
  });

  it('counts combining characters as separate code points', () => {
    const decomposed = 'e\u0301'.repeat(500); // 1,000 code points, 500 visible letters
    expect(update(event, { otherNotes: decomposed }).details.otherNotes).toBe(decomposed);
    expect(fieldsAndCodes(problemsOf(() => update(event, { otherNotes: `${decomposed}e` })))).toEqual([
      ['otherNotes', 'too_long'],
    ]);
  });

  it('accepts 50 formattedLocations and rejects 51', () => {
    const locations = (n: number) => Array.from({ length: n }, (_, i) => ({ city: `City ${i}` }));
    expect(update(event, { formattedLocations: locations(50) }).details.formattedLocations).toHaveLength(50);
    expect(fieldsAndCodes(problemsOf(() => update(event, { formattedLocations: locations(51) })))).toEqual([
      ['formattedLocations', 'too_many'],
    ]);
  });

  it.each(['decisionFactors', 'additionalServices'] as const)('accepts 50 %s and rejects 51', (field) => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `value ${i}`);
    expect(update(event, { [field]: values(50) }).details[field]).toHaveLength(50);
    expect(fieldsAndCodes(problemsOf(() => update(event, { [field]: values(51) })))).toEqual([
      [field, 'too_many'],
    ]);
  });

  it.each([
    'decisionFactors',
    'additionalServices',
  ] as const)('limits each of %s to 1,000 characters', (field) => {
    expect(fieldsAndCodes(problemsOf(() => update(event, { [field]: ['ok', 'x'.repeat(1001), 7] })))).toEqual(
      [
        [`${field}[1]`, 'too_long'],
        [`${field}[2]`, 'invalid_type'],
      ],
    );
  });

  it('accepts 400 nights of accommodations in a request and rejects 401', () => {
    const body = (n: number) =>
      Object.fromEntries(nights('2026-01-01', n).map((night) => [night, { Single: 1 }]));
    expect(Object.keys(update(event, { accommodations: body(400) }).details.accommodations)).toHaveLength(
      400,
    );
    expect(fieldsAndCodes(problemsOf(() => update(event, { accommodations: body(401) })))).toEqual([
      ['accommodations', 'too_many'],
    ]);
  });

  it('rejects accommodations that would hold more than 400 nights after the merge', () => {
    const withNights = (list: string[]) => Object.fromEntries(list.map((night) => [night, { Double: 2 }]));
    const stored = update(event, { accommodations: withNights(nights('2026-01-01', 300)) }).details;
    expect(
      Object.keys(
        update(stored, { accommodations: withNights(nights('2027-01-01', 100)) }).details.accommodations,
      ),
    ).toHaveLength(400);
    expect(
      fieldsAndCodes(
        problemsOf(() => update(stored, { accommodations: withNights(nights('2027-01-01', 101)) })),
      ),
    ).toEqual([['accommodations', 'too_many']]);
  });

  it('lets a request that removes nights add as many new ones', () => {
    const withNights = (list: string[]) => Object.fromEntries(list.map((night) => [night, { Double: 2 }]));
    const stored = update(event, { accommodations: withNights(nights('2026-01-01', 400)) }).details;
    const patch = {
      ...Object.fromEntries(nights('2026-01-01', 10).map((night) => [night, null])),
      ...withNights(nights('2028-01-01', 10)),
    };
    expect(Object.keys(update(stored, { accommodations: patch }).details.accommodations)).toHaveLength(400);
  });

  it('accepts 50 meeting-room ranges and rejects 51', () => {
    const ranges = (n: number) => nights('2026-01-01', n).map((day) => ({ startDate: day, endDate: day }));
    expect(update(event, { meetingRoomDates: ranges(50) }).details.meetingRoomDates).toHaveLength(50);
    expect(fieldsAndCodes(problemsOf(() => update(event, { meetingRoomDates: ranges(51) })))).toEqual([
      ['meetingRoomDates', 'too_many'],
    ]);
  });

  it('accepts a meeting-room range of 366 days inclusive and rejects 367', () => {
    const ok = { startDate: '2026-01-01', endDate: '2027-01-01' };
    const tooLong = { startDate: '2026-01-01', endDate: '2027-01-02' };
    expect(update(event, { meetingRoomDates: [ok] }).details.meetingRoomDates).toEqual([ok]);
    expect(fieldsAndCodes(problemsOf(() => update(event, { meetingRoomDates: [ok, tooLong] })))).toEqual([
      ['meetingRoomDates[1]', 'too_long'],
    ]);
  });
});

describe('applyUpdate: numbers (D6)', () => {
  const event = makeEvent({ name: 'Numbers' });

  it.each([
    'numPeople',
    'numMeetingRoomsNeeded',
  ] as const)('takes %s as an integer from 0 to 2^53 - 1', (field) => {
    expect(update(event, { [field]: 0 }).details[field]).toBe(0);
    expect(update(event, { [field]: 2 ** 53 - 1 }).details[field]).toBe(2 ** 53 - 1);
    for (const bad of [2 ** 53, -1, 1.5, '5', Number.NaN, Number.POSITIVE_INFINITY, true, [], {}]) {
      const problems = problemsOf(() => update(event, { [field]: bad }));
      expect(problems.map((p) => p.field)).toEqual([field]);
    }
  });

  it('takes room counts as integers from 0', () => {
    const night = (count: unknown) => ({ accommodations: { '2026-05-01': { Single: count } } });
    expect(update(event, night(0)).details.accommodations).toEqual({ '2026-05-01': { Single: 0 } });
    for (const bad of [-1, 2.5, 2 ** 53, '3']) {
      expect(problemsOf(() => update(event, night(bad))).map((p) => p.field)).toEqual([
        'accommodations.2026-05-01.Single',
      ]);
    }
  });

  it('takes budget amounts that are finite, at least 0, with at most 2 decimals', () => {
    for (const amount of [0, 0.1, 0.29, 19.99, 1e21]) {
      expect(update(event, { budgetBreakdown: { venue: amount } }).details.budgetBreakdown).toEqual({
        venue: amount,
      });
    }
    for (const bad of [0.001, 1e-7, -1, Number.NaN, Number.POSITIVE_INFINITY, '100', true]) {
      expect(
        problemsOf(() => update(event, { budgetBreakdown: { venue: bad } })).map((p) => p.field),
      ).toEqual(['budgetBreakdown.venue']);
    }
  });
});

describe('applyUpdate: dates (D6)', () => {
  const event = makeEvent({ name: 'Dates' });

  it('accepts leap days only in leap years', () => {
    const leap = { startDate: '2024-02-29', endDate: '2024-02-29' };
    expect(update(event, { meetingRoomDates: [leap] }).details.meetingRoomDates).toEqual([leap]);
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          update(event, { meetingRoomDates: [{ startDate: '2026-02-29', endDate: '2026-03-01' }] }),
        ),
      ),
    ).toEqual([['meetingRoomDates[0].startDate', 'invalid_date']]);
    expect(
      fieldsAndCodes(problemsOf(() => update(event, { accommodations: { '2026-02-29': { Single: 1 } } }))),
    ).toEqual([['accommodations.2026-02-29', 'invalid_date']]);
  });

  it('requires startDate on or before endDate', () => {
    const oneDay = { startDate: '2026-05-01', endDate: '2026-05-01' };
    expect(update(event, { meetingRoomDates: [oneDay] }).details.meetingRoomDates).toEqual([oneDay]);
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          update(event, { meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-01' }] }),
        ),
      ),
    ).toEqual([['meetingRoomDates[0].endDate', 'out_of_range']]);
  });

  it('takes decisionDeadline as an RFC 3339 date-time or a date', () => {
    for (const deadline of ['2026-05-01', '2026-05-01T17:00:00Z', '2026-05-01T17:00:00.5+01:00']) {
      expect(update(event, { decisionDeadline: deadline }).details.decisionDeadline).toBe(deadline);
    }
    for (const bad of ['2026-02-29', '2026-05-01T17:00', 'May 1st', '2026-05-01T25:00:00Z', 20260501]) {
      expect(problemsOf(() => update(event, { decisionDeadline: bad })).map((p) => p.field)).toEqual([
        'decisionDeadline',
      ]);
    }
  });
});

describe('applyUpdate: read-only, ignored and unknown fields (D6, D14)', () => {
  it('accepts the whole details view re-sent unchanged, and changes nothing', () => {
    const event = makeEvent();
    const before = structuredClone(event);
    const outcome = update(event, event);
    expect(outcome.changed).toBe(false);
    expect(outcome.details).toEqual(before);
    expect(event).toEqual(before);
  });

  it('accepts the details view after a JSON round trip', () => {
    const event = makeEvent();
    const outcome = update(event, JSON.parse(JSON.stringify(event)));
    expect(outcome).toEqual({ details: event, changed: false });
  });

  it('applies the writable changes of a re-sent view and ignores its unchanged read-only fields', () => {
    const event = makeEvent();
    const { details } = update(event, { ...structuredClone(event), numPeople: 80, otherNotes: null });
    expect(details).toEqual({ ...event, numPeople: 80, otherNotes: null, updatedAt: NOW });
  });

  it.each([
    ['id', '00000000-0000-4000-8000-000000000000'],
    ['status', 'booked'],
    ['currency', 'EUR'],
    ['location', 'Paris, France'],
    ['eventDates', [{ startDate: '2027-01-01', endDate: '2027-01-01' }]],
    ['event_dates', []],
    ['agenda', []],
    ['createdAt', '2020-01-01T00:00:00.000Z'],
    ['updatedAt', '2020-01-01T00:00:00.000Z'],
  ])('rejects a different value of the read-only field %s', (field, value) => {
    const event = makeEvent();
    expect(fieldsAndCodes(problemsOf(() => update(event, { [field]: value })))).toEqual([
      [field, 'read_only'],
    ]);
  });

  it('accepts the stored id sent back in upper case, as an id in the path is', () => {
    const event = makeEvent();
    expect(EVENT_ID).toMatch(/[a-f]/);
    expect(update(event, { id: EVENT_ID.toUpperCase() })).toEqual({ details: event, changed: false });
    const { details } = update(event, {
      ...structuredClone(event),
      id: EVENT_ID.toUpperCase(),
      numPeople: 7,
    });
    expect(details).toEqual({ ...event, numPeople: 7, updatedAt: NOW });
  });

  it.each([
    ['another UUID in upper case', '00000000-0000-4000-8000-00000000000A'],
    ['the id with its dashes removed', EVENT_ID.replaceAll('-', '')],
    ['the id in braces', `{${EVENT_ID}}`],
    ['the id with a space', ` ${EVENT_ID}`],
  ])('still rejects as read_only an id that is %s', (_case, value) => {
    const event = makeEvent();
    expect(fieldsAndCodes(problemsOf(() => update(event, { id: value })))).toEqual([['id', 'read_only']]);
  });

  it('points agenda changes to agendaOperations', () => {
    const event = makeEvent();
    const [problem] = problemsOf(() => update(event, { agenda: [] }));
    expect(problem?.message).toContain('agendaOperations');
  });

  it('compares event_dates with the stored eventDates', () => {
    const event = makeEvent();
    expect(update(event, { event_dates: event.eventDates }).changed).toBe(false);
  });

  it('ignores organizationId whatever its value', () => {
    const event = makeEvent();
    expect(update(event, { organizationId: 'someone-else', numPeople: 5 }).details).toEqual({
      ...event,
      numPeople: 5,
      updatedAt: NOW,
    });
    expect(update(event, { organizationId: null }).changed).toBe(false);
  });

  it('rejects unknown fields by name, together with every other problem', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      update(event, { title: 'x', createdBy: 'me', numPeople: -1, EventDates: [] }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['title', 'unknown_field'],
      ['createdBy', 'unknown_field'],
      ['numPeople', 'out_of_range'],
      ['EventDates', 'unknown_field'],
    ]);
  });

  it('rejects a body that is not an object', () => {
    const event = makeEvent();
    for (const body of [null, [], 'text', 5]) {
      expect(fieldsAndCodes(problemsOf(() => update(event, body)))).toEqual([['', 'invalid_type']]);
    }
  });
});

describe('applyUpdate: prototype keys (D14)', () => {
  const dangerous = ['__proto__', 'constructor', 'prototype'];

  function expectNoPollution() {
    const probe = {} as Record<string, unknown>;
    expect(probe.polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
  }

  it.each(dangerous)('rejects %s at the top level by name', (key) => {
    const event = makeEvent();
    const patch = JSON.parse(`{"${key}": {"polluted": true}, "numPeople": 3}`);
    expect(Object.hasOwn(patch, key)).toBe(true);
    expect(fieldsAndCodes(problemsOf(() => update(event, patch)))).toEqual([[key, 'unknown_field']]);
    expectNoPollution();
  });

  it.each(dangerous)('rejects %s nested in every object of the patch', (key) => {
    const event = makeEvent();
    const poison = `"${key}": {"polluted": true}`;
    const patch = JSON.parse(`{
      "budgetBreakdown": {${poison}},
      "accommodations": {${poison}, "2026-05-01": {${poison}}},
      "formattedLocations": [{"city": "Oslo", ${poison}}],
      "meetingRoomDates": [{"startDate": "2026-05-02", "endDate": "2026-05-04", ${poison}}],
      "agendaOperations": [
        {"op": "add", "session": {"title": "T", "dates": ["2026-05-02"], "startTime": "09:00", "endTime": "10:00", ${poison}}},
        {"op": "remove", "sessionId": "${event.agenda[0]!.id}", ${poison}}
      ]
    }`);
    expect(fieldsAndCodes(problemsOf(() => update(event, patch)))).toEqual([
      [`budgetBreakdown.${key}`, 'unknown_field'],
      [`accommodations.${key}`, 'unknown_field'],
      [`accommodations.2026-05-01.${key}`, 'unknown_field'],
      [`formattedLocations[0].${key}`, 'unknown_field'],
      [`meetingRoomDates[0].${key}`, 'unknown_field'],
      [`agendaOperations[0].session.${key}`, 'unknown_field'],
      [`agendaOperations[1].${key}`, 'unknown_field'],
    ]);
    expectNoPollution();
  });

  it('never lets a prototype key reach the stored event', () => {
    const event = makeEvent();
    const patch = JSON.parse('{"budgetBreakdown": {"__proto__": {"venue": 1}}}');
    problemsOf(() => update(event, patch));
    expect(Object.getPrototypeOf(event.budgetBreakdown)).toBe(Object.prototype);
    expect(event.budgetBreakdown).toEqual({ venue: 5000, fb: 1200.5 });
  });
});

describe('applyUpdate: derived fields after a change (D8)', () => {
  it('recomputes formatted_address, location and eventDates', () => {
    const event = makeEvent({ name: 'Derived', agenda: [] });
    const { details } = update(event, {
      formattedLocations: [
        {
          city: 'Denver',
          state: 'CO',
          country: 'USA',
          formatted_address: 'Somewhere else',
          place_id: 'made-up',
        },
        { city: 'Kyoto', state: '', country: 'Japan' },
        { city: 'Zug', state: null, country: null },
      ],
      accommodations: { '2026-05-01': { Single: 1 }, '2026-05-09': { Single: 0, Twin: 0 } },
      meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-03' }],
    });
    expect(details.formattedLocations).toEqual([
      // A sent place_id is kept here; the app layer checks it against the place the city names (src/app/places.ts).
      {
        city: 'Denver',
        state: 'CO',
        country: 'USA',
        formatted_address: 'Denver, CO, USA',
        place_id: 'made-up',
      },
      { city: 'Kyoto', state: '', country: 'Japan', formatted_address: 'Kyoto, Japan' },
      { city: 'Zug', formatted_address: 'Zug' },
    ]);
    expect(details.location).toBe('Denver, CO, USA; Kyoto, Japan; Zug');
    expect(details.eventDates).toEqual([{ startDate: '2026-05-01', endDate: '2026-05-03' }]);
  });
});

describe('applyUpdate: every problem at once, nothing changed (D5)', () => {
  it('lists every problem of a request in one ValidationError with field paths', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      update(event, {
        name: '',
        numPeople: 1.5,
        budgetBreakdown: { venue: 0.001 },
        accommodations: { '2026-05-02': { Kingsize: 1 }, 'May 3': { Single: 1 } },
        formattedLocations: [{ city: 'Rome' }, { state: 'NY' }],
        meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-04' }],
        decisionDeadline: 'soon',
        agendaOperations: [
          { op: 'remove', sessionId: event.agenda[0]!.id },
          { op: 'update', sessionId: 'nope', session: { title: 'x' } },
          {
            op: 'add',
            session: { title: 'New', dates: ['2026-05-02'], startTime: '9:00', endTime: '10:00' },
          },
          { op: 'update', sessionId: event.agenda[1]!.id, session: { startTime: '25:00' } },
        ],
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['name', 'empty'],
      ['numPeople', 'invalid_type'],
      ['budgetBreakdown.venue', 'invalid_format'],
      ['accommodations.2026-05-02.Kingsize', 'unknown_field'],
      ['accommodations.May 3', 'invalid_date'],
      ['formattedLocations[1].city', 'required'],
      ['decisionDeadline', 'invalid_format'],
      ['agendaOperations[1].sessionId', 'unknown_session'],
      ['agendaOperations[2].session.startTime', 'invalid_format'],
      ['agendaOperations[3].session.startTime', 'invalid_format'],
    ]);
  });

  it('leaves the input event and the patch deeply unchanged when it rejects the patch', () => {
    const event = makeEvent();
    const eventBefore = structuredClone(event);
    const patch = {
      budgetBreakdown: { fb: null, venue: -5 },
      accommodations: { '2026-05-01': { Single: null }, '2026-05-02': null },
      formattedLocations: [{ city: 'Rome' }],
      agendaOperations: [{ op: 'remove', sessionId: event.agenda[0]!.id }, { op: 'bogus' }],
    };
    const patchBefore = structuredClone(patch);
    expect(problemsOf(() => update(event, patch)).length).toBeGreaterThan(0);
    expect(event).toEqual(eventBefore);
    expect(patch).toEqual(patchBefore);
  });

  it('leaves the input event unchanged when it applies a patch, and shares no objects with the patch', () => {
    const event = makeEvent();
    const eventBefore = structuredClone(event);
    const patch = {
      budgetBreakdown: { av: 10 },
      accommodations: { '2026-05-03': { Single: 1 } },
      decisionFactors: ['Price'],
      meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-05' }],
    };
    const { details } = update(event, patch);
    expect(event).toEqual(eventBefore);
    patch.decisionFactors.push('mutated');
    patch.meetingRoomDates[0]!.endDate = '2030-01-01';
    patch.accommodations['2026-05-03'].Single = 99;
    expect(details.decisionFactors).toEqual(['Price']);
    expect(details.meetingRoomDates).toEqual([{ startDate: '2026-05-02', endDate: '2026-05-05' }]);
    expect(details.accommodations['2026-05-03']).toEqual({ Single: 1 });
  });
});

describe('applyUpdate: status and change tracking', () => {
  it('refuses any update of a cancelled event before looking at the fields', () => {
    const event = { ...makeEvent(), status: 'cancelled' as const };
    expect(() => update(event, { numPeople: 5 })).toThrow(EventCancelledError);
    expect(() => update(event, { name: null, bogus: 1, agendaOperations: 'x' })).toThrow(EventCancelledError);
    expect(() => update(event, {})).toThrow(EventCancelledError);
  });

  it('checks that the body is an object before the cancellation, as the HTTP order does (D5)', () => {
    const event = { ...makeEvent(), status: 'cancelled' as const };
    expect(fieldsAndCodes(problemsOf(() => update(event, [])))).toEqual([['', 'invalid_type']]);
  });

  it('accepts updates in every status but cancelled', () => {
    for (const status of STATUSES.filter((s) => s !== 'cancelled')) {
      const event = { ...makeEvent(), status };
      expect(update(event, { numPeople: 7 }).details).toMatchObject({ numPeople: 7, status });
    }
  });

  it('reports no change, and keeps updatedAt, when the patch sets what is already stored', () => {
    const event = makeEvent();
    const outcome = update(event, {
      name: event.name,
      numPeople: event.numPeople,
      budgetBreakdown: { venue: 5000 },
    });
    expect(outcome.changed).toBe(false);
    expect(outcome.details).toBe(event);
    expect(update(event, {}).changed).toBe(false);
  });

  it('stamps updatedAt and keeps createdAt on a real change', () => {
    const event = makeEvent();
    const { details } = update(event, { name: 'Renamed' });
    expect(details.updatedAt).toBe(NOW);
    expect(details.createdAt).toBe(CREATED);
  });
});
