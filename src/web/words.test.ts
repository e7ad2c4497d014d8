import { describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../domain/event-field-table.js';
import { STATUSES } from '../domain/types.js';
import { changedFieldLabels, fieldLabel, sessionLabel, statusLabel } from './words.js';

/** An API name: a camelCase word (numPeople), or a snake_case code (pending_approval). */
const API_NAME = /\b[a-z]+[A-Z]\w*|\b[a-z]+_[a-z_]+\b/;

describe("the dashboard's words", () => {
  it('says every status in words, never its code', () => {
    expect(statusLabel('pending_approval')).toBe('Waiting for approval');
    expect(statusLabel('wait_for_proposals')).toBe('Waiting for proposals');
    for (const status of STATUSES) expect(statusLabel(status)).not.toMatch(API_NAME);
  });

  it('names the controls of the event forms from the field table', () => {
    expect(fieldLabel('numPeople')).toBe('Attendees');
    expect(fieldLabel('budgetBreakdown.venue')).toBe('Budget: Venue');
    expect(fieldLabel('meetingRoomDates[1].endDate')).toBe('Meeting-room dates, row 2: last day');
    expect(fieldLabel('meetingRoomDates[0]')).toBe('Meeting-room dates, row 1');
    expect(fieldLabel('formattedLocations[2].state')).toBe('Candidate cities, row 3: state or region');
    expect(fieldLabel('accommodations.2030-05-03.Single')).toBe('Single rooms, night of Fri, May 3, 2030');
    expect(fieldLabel('decisionDeadlineTime')).toBe('Decision deadline: time');
    expect(fieldLabel('to')).toBe('Last night');
    expect(fieldLabel('copyFrom')).toBe('First night of the range');
    expect(sessionLabel('endTime')).toBe('End time');
    expect(sessionLabel('avRequirements[2]')).toBe('AV requirements');
  });

  it('never falls back on an API name for a field it does not know', () => {
    for (const name of [
      ...FIELD_NAMES,
      'agendaOperations[0].session.title',
      'somethingElse',
      'x_y',
      'copyNight',
      'copyTo',
    ]) {
      expect(fieldLabel(name)).not.toMatch(API_NAME);
    }
    expect(sessionLabel('internalOfficeId')).not.toMatch(API_NAME);
  });

  it("names a change's fields by their labels, leaving out the derived ones", () => {
    expect(changedFieldLabels(['budgetBreakdown', 'formattedLocations', 'location', 'numPeople'])).toEqual([
      'Candidate cities',
      'Attendees',
      'Budget',
    ]);
    expect(changedFieldLabels(['eventDates', 'meetingRoomDates'])).toEqual(['Meeting-room dates']);
  });
});
