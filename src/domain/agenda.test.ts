import { describe, expect, it } from 'vitest';
import { buildNewEvent } from './create-event.js';
import { dateText, dayNumber } from './dates.js';
import { AgendaSessionsOrphanedError, type Problem, ValidationError } from './errors.js';
import type { EventDetails } from './types.js';
import { applyUpdate } from './update-event.js';

const EVENT_ID = '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50';
const NOW = '2026-01-02T12:00:00.000Z';

function idSource(prefix: string) {
  let next = 0;
  return () => `${prefix}-0000-4000-8000-${String(++next).padStart(12, '0')}`;
}

/** Ids the update hands out, in order: NEW_ID(1) is the first added session. */
const NEW_ID = (n: number) => `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`;

const KEYNOTE = { title: 'Keynote', dates: ['2026-05-02'], startTime: '09:00', endTime: '10:00' };
const WORKSHOPS = {
  title: 'Workshops',
  dates: ['2026-05-03', '2026-05-04'],
  startTime: '11:00',
  endTime: '17:00',
  roomType: 'Classroom',
  capacity: 40,
  avRequirements: ['Projector'],
  notes: 'Bring laptops',
  useInternalSpace: true,
  internalOfficeId: 12,
  internalOfficeName: 'HQ',
};
const DINNER = { title: 'Dinner', dates: ['2026-05-05', '2026-05-06'], startTime: '19:00', endTime: '22:00' };

function makeEvent(): EventDetails {
  return buildNewEvent(
    {
      name: 'Agenda',
      meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-06' }],
      agenda: [KEYNOTE, WORKSHOPS, DINNER],
    },
    { id: EVENT_ID, now: '2026-01-01T00:00:00.000Z', newId: idSource('aaaaaaaa') },
  );
}

function operate(event: EventDetails, agendaOperations: unknown, extra: Record<string, unknown> = {}) {
  return applyUpdate(event, { ...extra, agendaOperations }, { now: NOW, newId: idSource('bbbbbbbb') });
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

function orphansOf(action: () => unknown) {
  try {
    action();
  } catch (error) {
    if (error instanceof AgendaSessionsOrphanedError) return error.orphanedSessions;
    throw error;
  }
  throw new Error('expected an AgendaSessionsOrphanedError, but the call succeeded');
}

const fieldsAndCodes = (problems: Problem[]) => problems.map((p) => [p.field, p.code]);

describe('agendaOperations: add (D7)', () => {
  it('adds a session with a server-assigned id, defaults for the other fields and no optional ones', () => {
    const event = makeEvent();
    const { details } = operate(event, [
      { op: 'add', session: { title: 'Lunch', dates: ['2026-05-02'], startTime: '12:00', endTime: '13:00' } },
    ]);
    expect(details.agenda).toHaveLength(4);
    expect(details.agenda.slice(0, 3)).toEqual(event.agenda);
    expect(details.agenda[3]).toStrictEqual({
      id: NEW_ID(1),
      title: 'Lunch',
      dates: ['2026-05-02'],
      startTime: '12:00',
      endTime: '13:00',
      roomType: '',
      capacity: 0,
      avRequirements: [],
      fbRequirements: [],
      avOtherText: '',
      fbOtherText: '',
      notes: '',
    });
    expect(details.updatedAt).toBe(NOW);
  });

  it('keeps every field given, optional ones included, and sorts the days', () => {
    const event = makeEvent();
    const session = {
      title: 'Board',
      dates: ['2026-05-04', '2026-05-02'],
      startTime: '08:00',
      endTime: '08:30',
      roomType: 'Boardroom',
      capacity: 12,
      avRequirements: ['Screen'],
      fbRequirements: ['Coffee'],
      avOtherText: 'HDMI',
      fbOtherText: 'Oat milk',
      notes: 'Confidential',
      useInternalSpace: false,
      internalOfficeId: 0,
      internalOfficeName: '',
    };
    const { details } = operate(event, [{ op: 'add', session }]);
    expect(details.agenda[3]).toStrictEqual({
      id: NEW_ID(1),
      ...session,
      dates: ['2026-05-02', '2026-05-04'],
    });
  });

  it('treats null on add as the default value', () => {
    const event = makeEvent();
    const { details } = operate(event, [
      { op: 'add', session: { ...KEYNOTE, roomType: null, capacity: null, useInternalSpace: null } },
    ]);
    expect(details.agenda[3]).toMatchObject({ roomType: '', capacity: 0 });
    expect(details.agenda[3]).not.toHaveProperty('useInternalSpace');
  });

  it('requires title, dates, startTime and endTime, listing each missing one', () => {
    const event = makeEvent();
    expect(
      fieldsAndCodes(problemsOf(() => operate(event, [{ op: 'add', session: { notes: 'x' } }]))),
    ).toEqual([
      ['agendaOperations[0].session.title', 'required'],
      ['agendaOperations[0].session.dates', 'required'],
      ['agendaOperations[0].session.startTime', 'required'],
      ['agendaOperations[0].session.endTime', 'required'],
    ]);
  });

  it('reports missing fields together with invalid ones', () => {
    const event = makeEvent();
    const problems = problemsOf(() => operate(event, [{ op: 'add', session: { title: '', capacity: -2 } }]));
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session.title', 'empty'],
      ['agendaOperations[0].session.capacity', 'out_of_range'],
      ['agendaOperations[0].session.dates', 'required'],
      ['agendaOperations[0].session.startTime', 'required'],
      ['agendaOperations[0].session.endTime', 'required'],
    ]);
  });

  it('refuses a client-sent id', () => {
    const event = makeEvent();
    const session = { ...KEYNOTE, id: '11111111-1111-4111-8111-111111111111' };
    expect(fieldsAndCodes(problemsOf(() => operate(event, [{ op: 'add', session }])))).toEqual([
      ['agendaOperations[0].session.id', 'read_only'],
    ]);
  });

  it('refuses a sessionId on add and a missing session', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [{ op: 'add', sessionId: event.agenda[0]!.id, session: KEYNOTE }, { op: 'add' }]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].sessionId', 'not_allowed'],
      ['agendaOperations[1].session', 'required'],
    ]);
  });

  it('requires the end after the start', () => {
    const event = makeEvent();
    for (const [startTime, endTime] of [
      ['10:00', '10:00'],
      ['10:00', '09:59'],
    ]) {
      expect(
        fieldsAndCodes(
          problemsOf(() => operate(event, [{ op: 'add', session: { ...KEYNOTE, startTime, endTime } }])),
        ),
      ).toEqual([['agendaOperations[0].session.endTime', 'out_of_range']]);
    }
    expect(
      operate(event, [{ op: 'add', session: { ...KEYNOTE, startTime: '00:00', endTime: '23:59' } }]).details
        .agenda,
    ).toHaveLength(4);
  });

  it('still judges the times and the days of a session when another of its fields is rejected', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'add', session: { title: '', dates: ['2026-05-09'], startTime: '10:00', endTime: '09:00' } },
        { op: 'add', session: { dates: ['2026-05-02', '2026-05-02'], startTime: '10:00', endTime: '10:00' } },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session.title', 'empty'],
      ['agendaOperations[0].session.endTime', 'out_of_range'],
      ['agendaOperations[1].session.dates', 'duplicate'],
      ['agendaOperations[1].session.title', 'required'],
      ['agendaOperations[1].session.endTime', 'out_of_range'],
      ['agendaOperations[0].session.dates', 'outside_meeting_room_dates'],
    ]);
  });

  it('does not judge the order of times when one of them is itself rejected', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'add', session: { ...KEYNOTE, startTime: '25:00', endTime: '08:00' } },
        { op: 'update', sessionId: event.agenda[0]!.id, session: { startTime: '9am', endTime: '08:00' } },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session.startTime', 'invalid_format'],
      ['agendaOperations[1].session.startTime', 'invalid_format'],
    ]);
  });

  it('requires non-empty, unique, real days', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'add', session: { ...KEYNOTE, dates: [] } },
        { op: 'add', session: { ...KEYNOTE, dates: ['2026-05-02', '2026-05-02'] } },
        { op: 'add', session: { ...KEYNOTE, dates: ['2026-05-02', '2026-02-30'] } },
        { op: 'add', session: { ...KEYNOTE, dates: '2026-05-02' } },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session.dates', 'empty'],
      ['agendaOperations[1].session.dates', 'duplicate'],
      ['agendaOperations[2].session.dates[1]', 'invalid_date'],
      ['agendaOperations[3].session.dates', 'invalid_type'],
    ]);
  });

  it('checks the type of every session field and rejects unknown ones', () => {
    const event = makeEvent();
    const session = {
      ...KEYNOTE,
      roomType: 5,
      capacity: 1.5,
      avRequirements: 'Projector',
      fbRequirements: ['ok', 3],
      avOtherText: 'x'.repeat(1001),
      fbOtherText: null,
      notes: [],
      useInternalSpace: 'yes',
      internalOfficeId: -1,
      internalOfficeName: {},
      room: 'A',
    };
    expect(fieldsAndCodes(problemsOf(() => operate(event, [{ op: 'add', session }])))).toEqual([
      ['agendaOperations[0].session.room', 'unknown_field'],
      ['agendaOperations[0].session.roomType', 'invalid_type'],
      ['agendaOperations[0].session.capacity', 'invalid_type'],
      ['agendaOperations[0].session.avRequirements', 'invalid_type'],
      ['agendaOperations[0].session.fbRequirements[1]', 'invalid_type'],
      ['agendaOperations[0].session.avOtherText', 'too_long'],
      ['agendaOperations[0].session.notes', 'invalid_type'],
      ['agendaOperations[0].session.useInternalSpace', 'invalid_type'],
      ['agendaOperations[0].session.internalOfficeId', 'out_of_range'],
      ['agendaOperations[0].session.internalOfficeName', 'invalid_type'],
    ]);
  });

  it('takes capacity as an integer from 0 to 2^53 - 1', () => {
    const event = makeEvent();
    expect(
      operate(event, [{ op: 'add', session: { ...KEYNOTE, capacity: 2 ** 53 - 1 } }]).details.agenda[3]
        ?.capacity,
    ).toBe(2 ** 53 - 1);
    expect(
      fieldsAndCodes(
        problemsOf(() => operate(event, [{ op: 'add', session: { ...KEYNOTE, capacity: 2 ** 53 } }])),
      ),
    ).toEqual([['agendaOperations[0].session.capacity', 'out_of_range']]);
  });

  it('limits the title and free-text fields of a session to 1,000 characters', () => {
    const event = makeEvent();
    const long = '😀'.repeat(1000);
    const session = {
      ...KEYNOTE,
      title: long,
      avOtherText: long,
      fbOtherText: long,
      notes: long,
      roomType: long,
    };
    expect(operate(event, [{ op: 'add', session }]).details.agenda[3]).toMatchObject(session);
    expect(
      fieldsAndCodes(
        problemsOf(() => operate(event, [{ op: 'add', session: { ...session, title: `${long}x` } }])),
      ),
    ).toEqual([['agendaOperations[0].session.title', 'too_long']]);
  });

  it('limits a session to 366 days and each requirements list to 50 entries', () => {
    const days = Array.from({ length: 367 }, (_, i) => dateText(dayNumber('2026-01-01')! + i));
    // Two ranges, since one may span at most 366 days: all 367 days are meeting-room days.
    const roomy = operate(makeEvent(), [], {
      meetingRoomDates: [
        { startDate: '2026-01-01', endDate: '2027-01-01' },
        { startDate: '2027-01-02', endDate: '2027-01-02' },
      ],
    }).details;
    expect(
      operate(roomy, [{ op: 'add', session: { ...KEYNOTE, dates: days.slice(0, 366) } }]).details.agenda[3]
        ?.dates,
    ).toHaveLength(366);
    const items = (n: number) => Array.from({ length: n }, (_, i) => `item ${i}`);
    const problems = problemsOf(() =>
      operate(roomy, [
        { op: 'add', session: { ...KEYNOTE, dates: days } },
        { op: 'add', session: { ...KEYNOTE, avRequirements: items(50), fbRequirements: items(51) } },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session.dates', 'too_many'],
      ['agendaOperations[1].session.fbRequirements', 'too_many'],
    ]);
  });

  it('refuses a whitespace-only title', () => {
    const event = makeEvent();
    expect(
      fieldsAndCodes(problemsOf(() => operate(event, [{ op: 'add', session: { ...KEYNOTE, title: '  ' } }]))),
    ).toEqual([['agendaOperations[0].session.title', 'empty']]);
  });

  it('gives each added session its own default arrays', () => {
    const event = makeEvent();
    const { details } = operate(event, [
      { op: 'add', session: KEYNOTE },
      { op: 'add', session: KEYNOTE },
    ]);
    expect(details.agenda[3]!.avRequirements).not.toBe(details.agenda[4]!.avRequirements);
    expect(details.agenda[3]!.fbRequirements).not.toBe(details.agenda[4]!.fbRequirements);
  });
});

describe('agendaOperations: update (D7)', () => {
  it('changes only the given fields and keeps the session in place', () => {
    const event = makeEvent();
    const target = event.agenda[1]!;
    const { details } = operate(event, [
      { op: 'update', sessionId: target.id, session: { title: 'Deep dives', capacity: 45 } },
    ]);
    expect(details.agenda).toEqual([
      event.agenda[0],
      { ...target, title: 'Deep dives', capacity: 45 },
      event.agenda[2],
    ]);
  });

  it('resets defaulted fields with null and removes optional ones', () => {
    const event = makeEvent();
    const target = event.agenda[1]!;
    const { details } = operate(event, [
      {
        op: 'update',
        sessionId: target.id,
        session: {
          roomType: null,
          capacity: null,
          avRequirements: null,
          notes: null,
          useInternalSpace: null,
          internalOfficeId: null,
          internalOfficeName: null,
        },
      },
    ]);
    expect(details.agenda[1]).toStrictEqual({
      id: target.id,
      title: 'Workshops',
      dates: ['2026-05-03', '2026-05-04'],
      startTime: '11:00',
      endTime: '17:00',
      roomType: '',
      capacity: 0,
      avRequirements: [],
      fbRequirements: [],
      avOtherText: '',
      fbOtherText: '',
      notes: '',
    });
  });

  it('cannot clear the required fields', () => {
    const event = makeEvent();
    const session = { title: null, dates: null, startTime: null, endTime: null };
    expect(
      fieldsAndCodes(
        problemsOf(() => operate(event, [{ op: 'update', sessionId: event.agenda[0]!.id, session }])),
      ),
    ).toEqual([
      ['agendaOperations[0].session.title', 'required'],
      ['agendaOperations[0].session.dates', 'required'],
      ['agendaOperations[0].session.startTime', 'required'],
      ['agendaOperations[0].session.endTime', 'required'],
    ]);
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          operate(event, [{ op: 'update', sessionId: event.agenda[0]!.id, session: { dates: [] } }]),
        ),
      ),
    ).toEqual([['agendaOperations[0].session.dates', 'empty']]);
  });

  it('judges the times against the stored ones, naming the field that was sent', () => {
    const event = makeEvent();
    const id = event.agenda[0]!.id; // 09:00-10:00
    expect(
      fieldsAndCodes(
        problemsOf(() => operate(event, [{ op: 'update', sessionId: id, session: { startTime: '10:30' } }])),
      ),
    ).toEqual([['agendaOperations[0].session.startTime', 'out_of_range']]);
    expect(
      fieldsAndCodes(
        problemsOf(() => operate(event, [{ op: 'update', sessionId: id, session: { endTime: '08:00' } }])),
      ),
    ).toEqual([['agendaOperations[0].session.endTime', 'out_of_range']]);
    expect(
      operate(event, [{ op: 'update', sessionId: id, session: { startTime: '10:30', endTime: '11:00' } }])
        .details.agenda[0],
    ).toMatchObject({ startTime: '10:30', endTime: '11:00' });
  });

  it('refuses an id inside the session', () => {
    const event = makeEvent();
    const id = event.agenda[0]!.id;
    expect(
      fieldsAndCodes(
        problemsOf(() => operate(event, [{ op: 'update', sessionId: id, session: { id, title: 'x' } }])),
      ),
    ).toEqual([['agendaOperations[0].session.id', 'read_only']]);
  });

  it('requires a session object and a known sessionId', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'update', sessionId: event.agenda[0]!.id },
        { op: 'update', session: { title: 'x' } },
        { op: 'update', sessionId: 42, session: { title: 'x' } },
        { op: 'update', sessionId: '00000000-0000-4000-8000-000000000000', session: { title: 'x' } },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session', 'required'],
      ['agendaOperations[1].sessionId', 'required'],
      ['agendaOperations[2].sessionId', 'invalid_type'],
      ['agendaOperations[3].sessionId', 'unknown_session'],
    ]);
  });

  it('accepts an empty change as a no-op', () => {
    const event = makeEvent();
    expect(operate(event, [{ op: 'update', sessionId: event.agenda[0]!.id, session: {} }]).changed).toBe(
      false,
    );
  });
});

describe('agendaOperations: remove (D7)', () => {
  it('removes a session and keeps the others in order', () => {
    const event = makeEvent();
    const { details } = operate(event, [{ op: 'remove', sessionId: event.agenda[1]!.id }]);
    expect(details.agenda).toEqual([event.agenda[0], event.agenda[2]]);
  });

  it('treats a second remove of the same id in one request as an unknown id', () => {
    const event = makeEvent();
    const id = event.agenda[1]!.id;
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'remove', sessionId: id },
        { op: 'remove', sessionId: id },
      ]),
    );
    expect(problems).toEqual([
      {
        field: 'agendaOperations[1].sessionId',
        code: 'unknown_session',
        message: expect.stringContaining(id),
      },
    ]);
  });

  it('treats an update after a remove of the same id as an unknown id', () => {
    const event = makeEvent();
    const id = event.agenda[1]!.id;
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          operate(event, [
            { op: 'remove', sessionId: id },
            { op: 'update', sessionId: id, session: { title: 'x' } },
          ]),
        ),
      ),
    ).toEqual([['agendaOperations[1].sessionId', 'unknown_session']]);
  });

  it('refuses a session body on remove and a missing or unknown sessionId', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'remove', sessionId: event.agenda[0]!.id, session: { title: 'x' } },
        { op: 'remove' },
        { op: 'remove', sessionId: 'not-a-session' },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session', 'not_allowed'],
      ['agendaOperations[1].sessionId', 'required'],
      ['agendaOperations[2].sessionId', 'unknown_session'],
    ]);
  });
});

describe('agendaOperations: session ids are UUIDs, matched in any case', () => {
  it('updates and removes sessions addressed by their id in upper case', () => {
    const event = makeEvent();
    const [keynote, workshops, dinner] = event.agenda;
    expect(keynote!.id).toMatch(/[a-f]/);
    const { details } = operate(event, [
      { op: 'update', sessionId: keynote!.id.toUpperCase(), session: { title: 'Opening keynote' } },
      { op: 'remove', sessionId: workshops!.id.toUpperCase() },
    ]);
    expect(details.agenda).toEqual([{ ...keynote, title: 'Opening keynote' }, dinner]);
    expect(details.agenda[0]!.id).toBe(keynote!.id);
  });

  it('treats a remove in upper case and then in lower case as the same session', () => {
    const event = makeEvent();
    const id = event.agenda[1]!.id;
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          operate(event, [
            { op: 'remove', sessionId: id.toUpperCase() },
            { op: 'remove', sessionId: id },
          ]),
        ),
      ),
    ).toEqual([['agendaOperations[1].sessionId', 'unknown_session']]);
  });

  it('still refuses an upper-case id that names no session', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [{ op: 'remove', sessionId: 'AAAAAAAA-0000-4000-8000-000000000099' }]),
    );
    expect(fieldsAndCodes(problems)).toEqual([['agendaOperations[0].sessionId', 'unknown_session']]);
  });
});

describe('agendaOperations: the list as a whole (D7)', () => {
  it('applies operations in order to a working copy', () => {
    const event = makeEvent();
    const [keynote, workshops, dinner] = event.agenda;
    const { details } = operate(event, [
      { op: 'update', sessionId: keynote!.id, session: { title: 'Opening' } },
      { op: 'update', sessionId: keynote!.id, session: { endTime: '09:45' } },
      { op: 'remove', sessionId: workshops!.id },
      { op: 'add', session: { ...KEYNOTE, title: 'Closing', dates: ['2026-05-06'] } },
      { op: 'update', sessionId: dinner!.id, session: { dates: ['2026-05-05'] } },
    ]);
    expect(details.agenda.map((s) => [s.id, s.title, s.endTime, s.dates])).toEqual([
      [keynote!.id, 'Opening', '09:45', ['2026-05-02']],
      [dinner!.id, 'Dinner', '22:00', ['2026-05-05']],
      [NEW_ID(1), 'Closing', '10:00', ['2026-05-06']],
    ]);
  });

  it('is all or nothing: one bad operation rejects the whole request and changes nothing', () => {
    const event = makeEvent();
    const before = structuredClone(event);
    const problems = problemsOf(() =>
      operate(
        event,
        [
          { op: 'remove', sessionId: event.agenda[0]!.id },
          { op: 'add', session: KEYNOTE },
          { op: 'update', sessionId: event.agenda[1]!.id, session: { capacity: -1 } },
        ],
        { name: 'Renamed' },
      ),
    );
    expect(fieldsAndCodes(problems)).toEqual([['agendaOperations[2].session.capacity', 'out_of_range']]);
    expect(event).toEqual(before);
  });

  it('names malformed operations', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        'add',
        { sessionId: event.agenda[0]!.id },
        { op: 'replace', session: KEYNOTE },
        { op: 'remove', sessionId: event.agenda[0]!.id, extra: true },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0]', 'invalid_type'],
      ['agendaOperations[1].op', 'required'],
      ['agendaOperations[2].op', 'invalid_value'],
      ['agendaOperations[3].extra', 'unknown_field'],
    ]);
  });

  it('requires agendaOperations to be an array', () => {
    const event = makeEvent();
    for (const value of [null, {}, 'add']) {
      expect(fieldsAndCodes(problemsOf(() => operate(event, value)))).toEqual([
        ['agendaOperations', 'invalid_type'],
      ]);
    }
    expect(operate(event, []).changed).toBe(false);
  });

  it('accepts 200 operations in a request and rejects 201', () => {
    const event = makeEvent();
    const adds = (n: number) => Array.from({ length: n }, () => ({ op: 'add', session: KEYNOTE }));
    expect(operate(event, adds(200)).details.agenda).toHaveLength(203);
    expect(fieldsAndCodes(problemsOf(() => operate(event, adds(201))))).toEqual([
      ['agendaOperations', 'too_many'],
    ]);
  });

  it('allows 2,000 sessions per event and no more', () => {
    let event = makeEvent(); // 3 sessions
    const adds = (n: number) => Array.from({ length: n }, () => ({ op: 'add', session: KEYNOTE }));
    let next = 0;
    const newId = () => `cccccccc-0000-4000-8000-${String(++next).padStart(12, '0')}`;
    for (let i = 0; i < 9; i++) {
      event = applyUpdate(event, { agendaOperations: adds(200) }, { now: NOW, newId }).details;
    }
    event = applyUpdate(event, { agendaOperations: adds(196) }, { now: NOW, newId }).details;
    expect(event.agenda).toHaveLength(1999);
    expect(
      applyUpdate(event, { agendaOperations: adds(1) }, { now: NOW, newId }).details.agenda,
    ).toHaveLength(2000);
    const problems = problemsOf(() => applyUpdate(event, { agendaOperations: adds(2) }, { now: NOW, newId }));
    expect(fieldsAndCodes(problems)).toEqual([['agendaOperations', 'too_many']]);
    // Removing first makes room in the same request.
    expect(
      applyUpdate(
        event,
        { agendaOperations: [{ op: 'remove', sessionId: event.agenda[0]!.id }, ...adds(2)] },
        { now: NOW, newId },
      ).details.agenda,
    ).toHaveLength(2000);
  });
});

describe('agenda days and meetingRoomDates (D7)', () => {
  it('rejects an added session with days outside meetingRoomDates on that operation', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'add', session: KEYNOTE },
        { op: 'add', session: { ...KEYNOTE, dates: ['2026-05-06', '2026-05-07', '2026-05-01'] } },
      ]),
    );
    expect(problems).toEqual([
      {
        field: 'agendaOperations[1].session.dates',
        code: 'outside_meeting_room_dates',
        message: expect.stringContaining('2026-05-01, 2026-05-07'),
      },
    ]);
  });

  it('rejects an update that moves a session outside meetingRoomDates on that operation', () => {
    const event = makeEvent();
    const id = event.agenda[0]!.id;
    expect(
      fieldsAndCodes(
        problemsOf(() =>
          operate(event, [
            { op: 'update', sessionId: id, session: { dates: ['2026-05-09'] } },
            { op: 'update', sessionId: id, session: { title: 'Moved' } },
          ]),
        ),
      ),
    ).toEqual([['agendaOperations[0].session.dates', 'outside_meeting_room_dates']]);
  });

  it('names the last operation that set the days', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'add', session: KEYNOTE },
        { op: 'update', sessionId: NEW_ID(1), session: { dates: ['2026-06-01'] } },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[1].session.dates', 'outside_meeting_room_dates'],
    ]);
  });

  it('judges the days of a rejected update and of an update of an unknown session too', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [
        { op: 'update', sessionId: event.agenda[0]!.id, session: { dates: ['2026-05-09'], capacity: -1 } },
        {
          op: 'update',
          sessionId: event.agenda[1]!.id,
          session: { dates: ['2026-05-10'], endTime: '10:00' },
        },
        {
          op: 'update',
          sessionId: '00000000-0000-4000-8000-000000000000',
          session: { dates: ['2026-05-11'] },
        },
      ]),
    );
    expect(fieldsAndCodes(problems)).toEqual([
      ['agendaOperations[0].session.capacity', 'out_of_range'],
      ['agendaOperations[1].session.endTime', 'out_of_range'],
      ['agendaOperations[2].sessionId', 'unknown_session'],
      ['agendaOperations[0].session.dates', 'outside_meeting_room_dates'],
      ['agendaOperations[1].session.dates', 'outside_meeting_room_dates'],
      ['agendaOperations[2].session.dates', 'outside_meeting_room_dates'],
    ]);
  });

  it('judges days against the meetingRoomDates sent in the same request', () => {
    const event = makeEvent();
    const { details } = operate(event, [{ op: 'add', session: { ...KEYNOTE, dates: ['2026-05-07'] } }], {
      meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-07' }],
    });
    expect(details.agenda[3]?.dates).toEqual(['2026-05-07']);
    expect(details.eventDates).toEqual([{ startDate: '2026-05-02', endDate: '2026-05-07' }]);
  });

  it('refuses with orphanedSessions when a change of meetingRoomDates leaves sessions without some days', () => {
    const event = makeEvent();
    const before = structuredClone(event);
    const orphans = orphansOf(() =>
      applyUpdate(
        event,
        { meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-03' }] },
        { now: NOW, newId: idSource('bbbbbbbb') },
      ),
    );
    expect(orphans).toEqual([
      {
        sessionId: event.agenda[1]!.id,
        title: 'Workshops',
        droppedDates: ['2026-05-04'],
        fullyOrphaned: false,
      },
      {
        sessionId: event.agenda[2]!.id,
        title: 'Dinner',
        droppedDates: ['2026-05-05', '2026-05-06'],
        fullyOrphaned: true,
      },
    ]);
    expect(event).toEqual(before);
  });

  it('orphans every session when meetingRoomDates is cleared', () => {
    const event = makeEvent();
    const orphans = orphansOf(() =>
      applyUpdate(event, { meetingRoomDates: null }, { now: NOW, newId: idSource('bbbbbbbb') }),
    );
    expect(orphans.map((o) => [o.title, o.fullyOrphaned])).toEqual([
      ['Keynote', true],
      ['Workshops', true],
      ['Dinner', true],
    ]);
    expect(orphans[1]!.droppedDates).toEqual(['2026-05-03', '2026-05-04']);
  });

  it('judges only the resulting event: meeting-room dates and sessions can move together', () => {
    const event = makeEvent();
    const [keynote, workshops, dinner] = event.agenda;
    const { details } = operate(
      event,
      [
        { op: 'update', sessionId: keynote!.id, session: { dates: ['2026-06-01'] } },
        { op: 'update', sessionId: workshops!.id, session: { dates: ['2026-06-02', '2026-06-03'] } },
        { op: 'remove', sessionId: dinner!.id },
      ],
      { meetingRoomDates: [{ startDate: '2026-06-01', endDate: '2026-06-03' }] },
    );
    expect(details.agenda.map((s) => s.dates)).toEqual([['2026-06-01'], ['2026-06-02', '2026-06-03']]);
    expect(details.eventDates).toEqual([{ startDate: '2026-06-01', endDate: '2026-06-03' }]);
  });

  it('still refuses sessions the request did not move when meeting-room dates move', () => {
    const event = makeEvent();
    const orphans = orphansOf(() =>
      operate(event, [{ op: 'remove', sessionId: event.agenda[2]!.id }], {
        meetingRoomDates: [{ startDate: '2026-05-03', endDate: '2026-05-04' }],
      }),
    );
    expect(orphans).toEqual([
      { sessionId: event.agenda[0]!.id, title: 'Keynote', droppedDates: ['2026-05-02'], fullyOrphaned: true },
    ]);
  });

  it('reports the session by its new title when the request renamed it', () => {
    const event = makeEvent();
    const orphans = orphansOf(() =>
      operate(event, [{ op: 'update', sessionId: event.agenda[0]!.id, session: { title: 'Opening' } }], {
        meetingRoomDates: [{ startDate: '2026-05-03', endDate: '2026-05-06' }],
      }),
    );
    expect(orphans.map((o) => o.title)).toEqual(['Opening']);
  });

  it('reports field problems (400) before orphaned sessions (409)', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      applyUpdate(
        event,
        { meetingRoomDates: [{ startDate: '2026-05-02', endDate: '2026-05-02' }], numPeople: -1 },
        { now: NOW, newId: idSource('bbbbbbbb') },
      ),
    );
    expect(fieldsAndCodes(problems)).toEqual([['numPeople', 'out_of_range']]);
  });

  it('does not judge sessions against meetingRoomDates that were themselves rejected', () => {
    const event = makeEvent();
    const problems = problemsOf(() =>
      operate(event, [{ op: 'add', session: { ...KEYNOTE, dates: ['2026-05-09'] } }], {
        meetingRoomDates: [{ startDate: '2026-05-09', endDate: '2026-05-08' }],
      }),
    );
    expect(fieldsAndCodes(problems)).toEqual([['meetingRoomDates[0].endDate', 'out_of_range']]);
  });

  it('counts a day covered by any of several ranges', () => {
    const event = makeEvent();
    const { details } = operate(event, [], {
      meetingRoomDates: [
        { startDate: '2026-05-05', endDate: '2026-05-06' },
        { startDate: '2026-05-02', endDate: '2026-05-02' },
        { startDate: '2026-05-03', endDate: '2026-05-04' },
      ],
    });
    expect(details.meetingRoomDates).toHaveLength(3);
    expect(details.eventDates).toEqual([{ startDate: '2026-05-02', endDate: '2026-05-06' }]);
  });
});
