import { describe, expect, it } from 'vitest';
import { blankEvent, buildNewEvent, isCurrencyCode } from './create-event.js';
import { type Problem, ValidationError } from './errors.js';

const EVENT_ID = '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50';
const NOW = '2026-01-01T00:00:00.000Z';
const SESSION = { title: 'Keynote', dates: ['2026-05-02'], startTime: '09:00', endTime: '10:00' };
const MAY = [{ startDate: '2026-05-01', endDate: '2026-05-03' }];

function create(body: unknown) {
  let next = 0;
  const newId = () => `aaaaaaaa-0000-4000-8000-${String(++next).padStart(12, '0')}`;
  return buildNewEvent(body, { id: EVENT_ID, now: NOW, newId });
}

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

describe('buildNewEvent (D9)', () => {
  it('creates a draft in USD from a name alone, every other field empty', () => {
    expect(create({ name: 'Offsite' })).toStrictEqual({ ...blankEvent(EVENT_ID, NOW), name: 'Offsite' });
    expect(blankEvent(EVENT_ID, NOW)).toMatchObject({
      id: EVENT_ID,
      status: 'draft',
      currency: 'USD',
      location: '',
      eventDates: [],
      agenda: [],
      numPeople: 0,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('requires a name, listing it with every other problem', () => {
    expect(fieldsAndCodes(problemsOf(() => create({ numPeople: -3 })))).toEqual([
      ['name', 'required'],
      ['numPeople', 'out_of_range'],
    ]);
    expect(fieldsAndCodes(problemsOf(() => create({ name: null })))).toEqual([['name', 'required']]);
    expect(fieldsAndCodes(problemsOf(() => create({ name: ' ' })))).toEqual([['name', 'empty']]);
    expect(fieldsAndCodes(problemsOf(() => create({ name: 'n'.repeat(101) })))).toEqual([
      ['name', 'too_long'],
    ]);
    expect(create({ name: 'n'.repeat(100) }).name).toHaveLength(100);
  });

  it('takes every writable field of the update, with the same checks', () => {
    const event = create({
      name: 'Summit',
      formattedLocations: [{ city: 'Austin', state: 'TX', country: 'USA' }],
      numPeople: 80,
      budgetBreakdown: { venue: 1000.5, fb: null },
      flexibility: 'A week either way',
      decisionDeadline: '2026-04-01T12:00:00Z',
      accommodations: { '2026-04-30': { Single: 3 }, '2026-05-05': { Twin: 0 } },
      meetingRoomDates: MAY,
      numMeetingRoomsNeeded: 1,
      foodBeverageRequirements: 'Halal',
      meetingRooms: 'U-shape',
      otherNotes: 'n/a',
      notesForVenue: 'Step-free access',
      decisionFactors: ['Other'],
      decisionFactorOtherText: 'Parking',
      additionalServices: ['AV crew'],
    });
    expect(event).toMatchObject({
      location: 'Austin, TX, USA',
      formattedLocations: [
        { city: 'Austin', state: 'TX', country: 'USA', formatted_address: 'Austin, TX, USA' },
      ],
      budgetBreakdown: { venue: 1000.5 },
      accommodations: { '2026-04-30': { Single: 3 }, '2026-05-05': { Twin: 0 } },
      eventDates: [{ startDate: '2026-04-30', endDate: '2026-05-03' }],
      decisionFactorOtherText: 'Parking',
    });
    expect(
      fieldsAndCodes(problemsOf(() => create({ name: 'x', budgetBreakdown: { venue: 0.005 } }))),
    ).toEqual([['budgetBreakdown.venue', 'invalid_format']]);
  });

  it('turns eventDates into the initial meetingRoomDates', () => {
    const event = create({ name: 'x', eventDates: MAY });
    expect(event.meetingRoomDates).toEqual(MAY);
    expect(event.eventDates).toEqual(MAY);
    expect(create({ name: 'x', event_dates: MAY }).meetingRoomDates).toEqual(MAY);
  });

  it('names eventDates in its problems and applies the meeting-room limits to it', () => {
    const problems = problemsOf(() =>
      create({
        name: 'x',
        eventDates: [
          { startDate: '2026-05-03', endDate: '2026-05-01' },
          { startDate: '2026-01-01', endDate: '2027-01-02' },
        ],
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['eventDates[0].endDate', 'out_of_range'],
      ['eventDates[1]', 'too_long'],
    ]);
    const ranges = Array.from({ length: 51 }, () => ({ startDate: '2026-05-01', endDate: '2026-05-01' }));
    expect(fieldsAndCodes(problemsOf(() => create({ name: 'x', eventDates: ranges })))).toEqual([
      ['eventDates', 'too_many'],
    ]);
  });

  it('refuses eventDates together with meetingRoomDates or event_dates', () => {
    expect(
      fieldsAndCodes(problemsOf(() => create({ name: 'x', eventDates: MAY, meetingRoomDates: MAY }))),
    ).toEqual([['meetingRoomDates', 'conflict']]);
    expect(
      fieldsAndCodes(problemsOf(() => create({ name: 'x', eventDates: MAY, event_dates: MAY }))),
    ).toEqual([['event_dates', 'conflict']]);
  });

  it('takes an ISO 4217 currency and defaults to USD', () => {
    expect(create({ name: 'x', currency: 'EUR' }).currency).toBe('EUR');
    expect(create({ name: 'x', currency: 'JPY' }).currency).toBe('JPY');
    expect(create({ name: 'x' }).currency).toBe('USD');
    expect(create({ name: 'x', currency: null }).currency).toBe('USD');
    for (const bad of ['usd', 'EURO', 'XQQ', '', 840]) {
      expect(fieldsAndCodes(problemsOf(() => create({ name: 'x', currency: bad })))).toEqual([
        ['currency', 'invalid_value'],
      ]);
    }
    expect(isCurrencyCode('GBP')).toBe(true);
    expect(isCurrencyCode('gbp')).toBe(false);
  });

  it('builds agenda sessions like add: ids from the service, defaults filled in', () => {
    const event = create({ name: 'x', eventDates: MAY, agenda: [SESSION, { ...SESSION, title: 'Lunch' }] });
    expect(event.agenda).toStrictEqual([
      {
        id: 'aaaaaaaa-0000-4000-8000-000000000001',
        ...SESSION,
        roomType: '',
        capacity: 0,
        avRequirements: [],
        fbRequirements: [],
        avOtherText: '',
        fbOtherText: '',
        notes: '',
      },
      expect.objectContaining({ id: 'aaaaaaaa-0000-4000-8000-000000000002', title: 'Lunch' }),
    ]);
  });

  it('checks agenda sessions like add, naming agenda[i]', () => {
    const problems = problemsOf(() =>
      create({
        name: 'x',
        eventDates: MAY,
        agenda: [
          { ...SESSION, id: '11111111-1111-4111-8111-111111111111' },
          { title: 'No times', dates: ['2026-05-01'] },
          { ...SESSION, startTime: '10:00', endTime: '09:00' },
          { ...SESSION, dates: ['2026-05-02', '2026-05-02'] },
          'session',
        ],
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agenda[0].id', 'read_only'],
      ['agenda[1].startTime', 'required'],
      ['agenda[1].endTime', 'required'],
      ['agenda[2].endTime', 'out_of_range'],
      ['agenda[3].dates', 'duplicate'],
      ['agenda[4]', 'invalid_type'],
    ]);
  });

  it('requires every agenda day inside the meeting-room dates', () => {
    expect(fieldsAndCodes(problemsOf(() => create({ name: 'x', agenda: [SESSION] })))).toEqual([
      ['agenda[0].dates', 'outside_meeting_room_dates'],
    ]);
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          create({
            name: 'x',
            eventDates: MAY,
            agenda: [SESSION, { ...SESSION, dates: ['2026-05-03', '2026-05-04'] }],
          }),
        ),
      ),
    ).toEqual([['agenda[1].dates', 'outside_meeting_room_dates']]);
    expect(create({ name: 'x', meetingRoomDates: MAY, agenda: [SESSION] }).agenda).toHaveLength(1);
  });

  it('judges the sound sessions even when another session is rejected', () => {
    const problems = problemsOf(() =>
      create({ name: 'x', eventDates: MAY, agenda: [{ ...SESSION, dates: ['2026-06-01'] }, { title: '' }] }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agenda[1].title', 'empty'],
      ['agenda[1].dates', 'required'],
      ['agenda[1].startTime', 'required'],
      ['agenda[1].endTime', 'required'],
      ['agenda[0].dates', 'outside_meeting_room_dates'],
    ]);
  });

  it('still judges the times and days of a session that has another problem', () => {
    const problems = problemsOf(() =>
      create({
        name: 'x',
        eventDates: MAY,
        agenda: [{ ...SESSION, title: '', dates: ['2026-06-01'], startTime: '11:00' }],
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agenda[0].title', 'empty'],
      ['agenda[0].endTime', 'out_of_range'],
      ['agenda[0].dates', 'outside_meeting_room_dates'],
    ]);
  });

  it('does not judge sessions against meeting-room dates that were rejected or sent twice', () => {
    const badRange = [{ startDate: '2026-05-03', endDate: '2026-05-01' }];
    expect(
      fieldsAndCodes(problemsOf(() => create({ name: 'x', eventDates: badRange, agenda: [SESSION] }))),
    ).toEqual([['eventDates[0].endDate', 'out_of_range']]);
    expect(
      fieldsAndCodes(problemsOf(() => create({ name: 'x', meetingRoomDates: badRange, agenda: [SESSION] }))),
    ).toEqual([['meetingRoomDates[0].endDate', 'out_of_range']]);
    expect(
      fieldsAndCodes(
        problemsOf(() => create({ name: 'x', eventDates: MAY, meetingRoomDates: [], agenda: [SESSION] })),
      ),
    ).toEqual([['meetingRoomDates', 'conflict']]);
  });

  it('accepts up to 200 agenda sessions, like 200 adds in one request', () => {
    const sessions = (n: number) => Array.from({ length: n }, () => SESSION);
    expect(create({ name: 'x', eventDates: MAY, agenda: sessions(200) }).agenda).toHaveLength(200);
    expect(
      fieldsAndCodes(problemsOf(() => create({ name: 'x', eventDates: MAY, agenda: sessions(201) }))),
    ).toEqual([['agenda', 'too_many']]);
  });

  it('ignores organizationId and refuses fields the service sets', () => {
    expect(create({ name: 'x', organizationId: 'another-org' })).toStrictEqual(create({ name: 'x' }));
    const problems = problemsOf(() =>
      create({ name: 'x', id: EVENT_ID, status: 'draft', location: '', createdAt: NOW, updatedAt: NOW }),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['id', 'read_only'],
      ['status', 'read_only'],
      ['location', 'read_only'],
      ['createdAt', 'read_only'],
      ['updatedAt', 'read_only'],
    ]);
  });

  it('refuses unknown fields, agendaOperations included', () => {
    const problems = problemsOf(() => create({ name: 'x', title: 'y', agendaOperations: [], numpeople: 3 }));
    expect(fieldsAndCodes(problems)).toEqual([
      ['title', 'unknown_field'],
      ['agendaOperations', 'unknown_field'],
      ['numpeople', 'unknown_field'],
    ]);
  });

  it('refuses prototype keys by name without polluting Object.prototype', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const body = JSON.parse(`{
        "name": "x",
        "eventDates": [{"startDate": "2026-05-01", "endDate": "2026-05-03"}],
        "${key}": {"polluted": true},
        "budgetBreakdown": {"${key}": {"polluted": true}},
        "agenda": [{"title": "T", "dates": ["2026-05-02"], "startTime": "09:00", "endTime": "10:00", "${key}": {"polluted": true}}]
      }`);
      expect(fieldsAndCodes(problemsOf(() => create(body)))).toEqual([
        [key, 'unknown_field'],
        [`budgetBreakdown.${key}`, 'unknown_field'],
        [`agenda[0].${key}`, 'unknown_field'],
      ]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('rejects a body that is not an object', () => {
    for (const body of [null, [], 'x']) {
      expect(fieldsAndCodes(problemsOf(() => create(body)))).toEqual([['', 'invalid_type']]);
    }
  });

  it('leaves the request body unchanged and shares no objects with it', () => {
    const body = {
      name: 'x',
      eventDates: structuredClone(MAY),
      decisionFactors: ['Price'],
      agenda: [structuredClone(SESSION)],
    };
    const before = structuredClone(body);
    const event = create(body);
    expect(body).toEqual(before);
    body.eventDates[0]!.endDate = '2030-01-01';
    body.decisionFactors.push('mutated');
    body.agenda[0]!.dates.push('2026-05-03');
    expect(event.meetingRoomDates).toEqual(MAY);
    expect(event.decisionFactors).toEqual(['Price']);
    expect(event.agenda[0]!.dates).toEqual(['2026-05-02']);
  });

  it('judges a session the same whether its fields are as usual or not, naming each one at fault', () => {
    const event = create({
      name: 'x',
      meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-05' }],
      agenda: [
        {
          ...SESSION,
          title: 'Café 🎉',
          dates: ['2026-05-03', '2026-05-01'],
          capacity: 0,
          avRequirements: ['Mic 🎤'],
        },
      ],
    });
    const [session] = event.agenda;
    expect(session).toMatchObject({ title: 'Café 🎉', dates: ['2026-05-01', '2026-05-03'], capacity: 0 });
    expect(session!.avRequirements).toEqual(['Mic 🎤']);
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          create({
            name: 'x',
            meetingRoomDates: MAY,
            agenda: [
              { ...SESSION, title: '   ' },
              { ...SESSION, dates: ['2026-05-02', '2026-05-02'] },
              { ...SESSION, capacity: 1.5, startTime: '9:00' },
              { ...SESSION, notes: 'a\ud800b', avRequirements: ['ok', 7] },
            ],
          }),
        ),
      ),
    ).toEqual([
      ['agenda[0].title', 'empty'],
      ['agenda[1].dates', 'duplicate'],
      ['agenda[2].startTime', 'invalid_format'],
      ['agenda[2].capacity', 'invalid_type'],
      ['agenda[3].avRequirements[1]', 'invalid_type'],
      ['agenda[3].notes', 'invalid_characters'],
    ]);
  });

  it('names a problem of event_dates by the name it was sent under, nested fields included', () => {
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          create({ name: 'x', event_dates: [{ startDate: '2026-05-03', endDate: '2026-05-01' }] }),
        ),
      ),
    ).toEqual([['event_dates[0].endDate', 'out_of_range']]);
  });

  it('gives every new event arrays and objects of its own', () => {
    const first = create({ name: 'a' });
    const second = create({ name: 'b' });
    expect(first.agenda).not.toBe(second.agenda);
    expect(first.accommodations).not.toBe(second.accommodations);
    expect(first.budgetBreakdown).not.toBe(second.budgetBreakdown);
    expect(Object.keys(first)).toEqual(Object.keys(blankEvent(EVENT_ID, NOW)));
  });
});
