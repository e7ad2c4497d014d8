import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import {
  readAward,
  readDecline,
  readNewVenueRequest,
  readReplyDateMove,
  readTurnDown,
} from './venue-request-bodies.js';

const NOW = '2027-03-10T15:00:00.000Z';
const VENUE_ID = '5B1F0C5E-8C1A-4F7E-9A51-3C2D1E0F9A8B';

function problemsOf(action: () => unknown): Array<[string, string]> {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems.map((problem) => [problem.field, problem.code]);
    throw error;
  }
  throw new Error('expected a ValidationError, but the call succeeded');
}

describe('readNewVenueRequest', () => {
  it('reads the venue id in its canonical form and an optional due date', () => {
    expect(readNewVenueRequest({ venueId: VENUE_ID }, NOW)).toEqual({
      venueId: VENUE_ID.toLowerCase(),
      responseDueDate: null,
    });
    expect(
      readNewVenueRequest({ venueId: VENUE_ID, responseDueDate: '2027-03-10' }, NOW).responseDueDate,
    ).toBe('2027-03-10');
  });

  it('refuses a due date in the past, a malformed one, a missing venue and unknown fields, all at once', () => {
    expect(problemsOf(() => readNewVenueRequest({ responseDueDate: '2027-03-09', x: 1 }, NOW))).toEqual([
      ['x', 'unknown_field'],
      ['venueId', 'required'],
      ['responseDueDate', 'in_the_past'],
    ]);
    expect(
      problemsOf(() => readNewVenueRequest({ venueId: 'v1', responseDueDate: '10/03/2027' }, NOW)),
    ).toEqual([
      ['venueId', 'invalid_format'],
      ['responseDueDate', 'invalid_date'],
    ]);
  });
});

describe('readTurnDown and readDecline', () => {
  it('read a known reason and a trimmed comment; a blank comment is none', () => {
    expect(readTurnDown({ reason: 'dates_unavailable' })).toEqual({
      reason: 'dates_unavailable',
      comment: null,
    });
    expect(readTurnDown({ reason: 'rate_too_low', comment: '  We start at 220.  ' })).toEqual({
      reason: 'rate_too_low',
      comment: 'We start at 220.',
    });
    expect(readDecline({ reason: 'late_response', comment: '   ' })).toEqual({
      reason: 'late_response',
      comment: null,
    });
  });

  it('need a reason from their own list', () => {
    expect(problemsOf(() => readTurnDown({}))).toEqual([['reason', 'required']]);
    expect(problemsOf(() => readTurnDown({ reason: 'rate_too_high' }))).toEqual([
      ['reason', 'invalid_value'],
    ]);
    expect(problemsOf(() => readDecline({ reason: 'rate_too_low' }))).toEqual([['reason', 'invalid_value']]);
    expect(problemsOf(() => readDecline({ reason: 3 }))).toEqual([['reason', 'invalid_value']]);
  });

  it('need a comment when the reason is other', () => {
    expect(problemsOf(() => readTurnDown({ reason: 'other' }))).toEqual([['comment', 'required']]);
    expect(problemsOf(() => readDecline({ reason: 'other', comment: ' ' }))).toEqual([
      ['comment', 'required'],
    ]);
    expect(readDecline({ reason: 'other', comment: 'Too far from the airport' }).comment).toBe(
      'Too far from the airport',
    );
  });

  it('refuse a comment over 1,000 characters once, and unknown fields', () => {
    expect(
      problemsOf(() => readDecline({ reason: 'other', comment: 'c'.repeat(1001), extra: true })),
    ).toEqual([
      ['extra', 'unknown_field'],
      ['comment', 'too_long'],
    ]);
  });
});

describe('readAward', () => {
  it('reads an optional comment and nothing else', () => {
    expect(readAward({})).toEqual({ comment: null });
    expect(readAward({ comment: 'Best terms' })).toEqual({ comment: 'Best terms' });
    expect(problemsOf(() => readAward({ reason: 'x' }))).toEqual([['reason', 'unknown_field']]);
    expect(problemsOf(() => readAward('yes'))).toEqual([['', 'invalid_type']]);
  });
});

describe('readReplyDateMove (D28)', () => {
  it('reads a new reply date that has not ended everywhere on Earth', () => {
    expect(readReplyDateMove({ responseDueDate: '2027-03-22' }, NOW)).toEqual({
      responseDueDate: '2027-03-22',
    });
    expect(readReplyDateMove({ responseDueDate: '2027-03-10' }, NOW)).toEqual({
      responseDueDate: '2027-03-10',
    });
  });

  it('names the date missing, null, malformed or past, and any other field', () => {
    expect(problemsOf(() => readReplyDateMove({}, NOW))).toEqual([['responseDueDate', 'required']]);
    expect(problemsOf(() => readReplyDateMove({ responseDueDate: null }, NOW))).toEqual([
      ['responseDueDate', 'required'],
    ]);
    expect(problemsOf(() => readReplyDateMove({ responseDueDate: '2027-02-30' }, NOW))[0]?.[0]).toBe(
      'responseDueDate',
    );
    expect(problemsOf(() => readReplyDateMove({ responseDueDate: '2027-03-01' }, NOW))).toEqual([
      ['responseDueDate', 'in_the_past'],
    ]);
    expect(problemsOf(() => readReplyDateMove({ responseDueDate: '2027-03-22', note: 'x' }, NOW))).toEqual([
      ['note', 'unknown_field'],
    ]);
    expect(problemsOf(() => readReplyDateMove([], NOW))).toEqual([['', 'invalid_type']]);
  });
});
