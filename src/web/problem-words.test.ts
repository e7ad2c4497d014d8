import { describe, expect, it } from 'vitest';
import { buildNewEvent } from '../domain/create-event.js';
import { type Problem, ValidationError } from '../domain/errors.js';
import { passwordProblems } from '../domain/password-policy.js';
import { applyUpdate } from '../domain/update-event.js';
import { nightRange } from './event-days.js';
import { detailsBody, type FormBody, roomsBody, sessionBody, sessionField, toFormField } from './forms.js';
import { problemWords } from './problem-words.js';

const CONTEXT = { id: '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50', now: '2026-01-01T00:00:00.000Z' };
let nextId = 0;
const newId = () => `00000000-0000-4000-8000-${String(++nextId).padStart(12, '0')}`;

/** An API name (numPeople, startTime), a code (pending_approval), a format's name or a machine limit. */
const NOT_WORDS =
  /\b[a-z]+[A-Z]\w*|\b[a-z]+_[a-z_]+\b|RFC|ISO|YYYY|HH:MM|9007199254740991|2\^53|\bnull\b|a string/;

function problemsOf(change: () => unknown): Problem[] {
  try {
    change();
  } catch (error) {
    if (error instanceof ValidationError) return error.problems;
    throw error;
  }
  throw new Error('the change was accepted');
}

/** What the details form would send for these controls, refused by the domain, in the form's words. */
function detailsWords(form: FormBody): Array<{ field: string; words: string }> {
  const { body, rows } = detailsBody(form);
  const problems = problemsOf(() => buildNewEvent(body, { ...CONTEXT, newId }));
  return problems.map((problem) => {
    const field = toFormField(problem.field, rows);
    return { field, words: problemWords({ ...problem, field }) };
  });
}

const event = () =>
  buildNewEvent(
    { name: 'Summit', meetingRoomDates: [{ startDate: '2030-05-01', endDate: '2030-05-03' }] },
    { ...CONTEXT, newId },
  );

describe('problems in a planner’s words', () => {
  it('says what the details form needs, in words, for every field typed wrong', () => {
    const words = detailsWords({
      name: '',
      numPeople: '-5',
      numMeetingRoomsNeeded: '99999999999999999999',
      decisionDeadline: 'next Friday',
      'budgetBreakdown.venue': 'abc',
      'budgetBreakdown.fb': '10.555',
      'budgetBreakdown.av': '-1',
      flexibility: 'x'.repeat(1001),
      'meetingRoomDates[0].startDate': '2030-05-03',
      'meetingRoomDates[0].endDate': '2030-05-01',
      'meetingRoomDates[1].startDate': '2030-13-45',
      'meetingRoomDates[1].endDate': '',
      'meetingRoomDates[2].startDate': '2030-01-01',
      'meetingRoomDates[2].endDate': '2031-06-01',
      'formattedLocations[0].city': '',
      'formattedLocations[0].country': 'Portugal',
    });
    expect(Object.fromEntries(words.map(({ field, words }) => [field, words]))).toEqual({
      name: 'Enter a name for the event.',
      numPeople: 'Enter a whole number of 0 or more.',
      numMeetingRoomsNeeded: 'Enter a whole number of 0 or more.',
      decisionDeadline: 'Enter a date, e.g. May 12, 2027.',
      'budgetBreakdown.venue': 'Enter an amount, e.g. 1200 or 1200.50.',
      'budgetBreakdown.fb': 'Use at most two decimals, e.g. 1200.50.',
      'budgetBreakdown.av': 'Enter an amount of 0 or more.',
      flexibility: 'Use at most 1000 characters (this has 1001).',
      'meetingRoomDates[0].endDate': 'The last day must not be before the first day.',
      'meetingRoomDates[1].startDate': 'Enter a date, e.g. May 12, 2027.',
      'meetingRoomDates[1].endDate': 'Enter the last day too.',
      'meetingRoomDates[2]': 'A range may span at most 366 days (this has 517).',
      'formattedLocations[0].city': 'Enter a city, or leave the whole row blank.',
    });
  });

  it('says what a session needs, in words', () => {
    const operation = (form: FormBody) => ({
      agendaOperations: [{ op: 'add', session: sessionBody(form) }],
    });
    const problems = problemsOf(() =>
      applyUpdate(event(), operation({ title: '', startTime: '25:00', endTime: '9 am', capacity: 'abc' }), {
        now: CONTEXT.now,
        newId,
      }),
    );
    const words = Object.fromEntries(
      problems.map((problem) => [
        sessionField(problem.field),
        problemWords({ ...problem, field: sessionField(problem.field) }),
      ]),
    );
    expect(words).toEqual({
      title: 'Enter a title for the session.',
      dates: 'Choose at least one day.',
      startTime: 'Enter a time in the 24-hour form, e.g. 09:30 or 14:00.',
      endTime: 'Enter a time in the 24-hour form, e.g. 09:30 or 14:00.',
      capacity: 'Enter a whole number of 0 or more.',
    });
    const order = problemsOf(() =>
      applyUpdate(
        event(),
        operation({ title: 'Dinner', dates: ['2030-05-09'], startTime: '19:00', endTime: '18:00' }),
        { now: CONTEXT.now, newId },
      ),
    );
    expect(order.map((problem) => problemWords({ ...problem, field: sessionField(problem.field) }))).toEqual([
      'Must be after the start time.',
      'Choose days within the meeting-room dates (not Thu, May 9, 2030).',
    ]);
  });

  it('says what a room cell needs, in words', () => {
    const stored = event();
    const body = roomsBody({ 'accommodations.2030-05-01.Single': '2.5' }, stored.accommodations);
    const [problem] = problemsOf(() => applyUpdate(stored, body, { now: CONTEXT.now, newId }));
    expect(problem!.field).toBe('accommodations.2030-05-01.Single');
    expect(problemWords(problem!)).toBe('Enter a whole number of 0 or more.');
  });

  it('says what a range of nights for "Add nights" and "Copy night" needs, in words', () => {
    const words = (first: string, last: string, controls: [string, string] = ['from', 'to']) => {
      const range = nightRange(first, last);
      if (!('problem' in range)) throw new Error('the range was accepted');
      const field = range.problem.field === 'first' ? controls[0] : controls[1];
      return problemWords({ ...range.problem, field });
    };
    expect(words('', '', ['copyFrom', 'copyTo'])).toBe('Enter the first night as a date, e.g. May 12, 2027.');
    expect(words('2030-02-30', '')).toBe('Enter the first night as a date, e.g. May 12, 2027.');
    expect(words('2030-05-20', 'soon')).toBe(
      'Enter the last night as a date, e.g. May 12, 2027, or leave it blank for one night.',
    );
    expect(words('2030-05-20', '2030-05-18', ['copyFrom', 'copyTo'])).toBe(
      'The last night must be on or after the first night, Mon, May 20, 2030.',
    );
    expect(words('2030-01-01', '2031-01-02')).toBe('A range holds at most 366 nights (this has 367).');
    expect(problemWords({ field: 'copyNight', code: 'required' })).toBe('Choose a night to copy.');
    for (const [first, last] of [
      ['', ''],
      ['2030-05-20', 'soon'],
      ['2030-05-20', '2030-05-18'],
      ['2030-01-01', '2031-01-02'],
    ] as const) {
      expect(words(first, last)).not.toMatch(NOT_WORDS);
    }
  });

  it('says what a password needs, in words', () => {
    const words = (password: string) =>
      passwordProblems(password, new Set(['password123'])).map(problemWords);
    expect(words('short')).toEqual(['Use at least 8 characters (this has 5).']);
    expect(words('password123')).toEqual([
      'This password is on a list of common passwords; choose one that is harder to guess.',
    ]);
  });

  it('says a forged kind of mail on the account page in words', () => {
    expect(problemWords({ field: 'notifications', code: 'invalid_value', message: 'names a kind' })).toBe(
      'Choose only among the mails listed here; reload the page and try again.',
    );
  });

  it('never shows an API name, a format or a machine limit, whatever the problem', () => {
    const problems = [
      ...detailsWords({ name: 'x'.repeat(101), currency: 'euros', decisionFactors: 'a\n'.repeat(60) }),
    ];
    expect(problems.length).toBeGreaterThan(0);
    for (const { words } of problems) expect(words).not.toMatch(NOT_WORDS);
    // A problem no form can cause still gets a sentence, not the API's message.
    const unknown = problemWords({
      field: 'formattedLocations[0].place_id',
      code: 'read_only',
      message: 'is read-only',
    });
    expect(unknown).not.toMatch(NOT_WORDS);
    expect(unknown).not.toContain('read-only');
  });
});
