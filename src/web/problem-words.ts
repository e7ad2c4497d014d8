/**
 * The domain's problems in a planner's words. The API keeps its messages and codes (D4: "must be an
 * RFC 3339 date-time", "must be after startTime"); the dashboard says each one from the problem's
 * `code` and the kind of control its field names, so no page shows an API name, a format's name or a
 * machine limit. Translating here, at the dashboard's edge, keeps the domain's problems one list for
 * every adapter and the words in the one adapter that shows them.
 */
import { fieldNamed } from '../domain/event-field-table.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password-policy.js';
import { LIMITS } from '../domain/types.js';
import { VENUE_LIMITS } from '../domain/venue.js';
import { MAX_REQUESTS_PER_EVENT } from '../domain/venue-request-steps.js';
import { MAX_RANGE_NIGHTS } from './event-days.js';
import { day } from './format.js';

/** What a control holds, as far as its problems are concerned. */
type ControlKind =
  | 'text'
  | 'name'
  | 'city'
  | 'title'
  | 'note'
  | 'count'
  | 'amount'
  | 'date'
  | 'time'
  | 'deadline'
  | 'range'
  | 'lines'
  | 'days'
  | 'night'
  | 'nights'
  | 'firstNight'
  | 'lastNight'
  | 'nightToCopy'
  | 'sessions'
  | 'session'
  | 'currency'
  | 'password'
  | 'notifications';

const SESSION_CONTROLS: Record<string, ControlKind> = {
  title: 'title',
  dates: 'days',
  startTime: 'time',
  endTime: 'time',
  capacity: 'count',
  avRequirements: 'lines',
  fbRequirements: 'lines',
  sessionId: 'session',
  removeSession: 'session',
  agendaOperations: 'sessions',
};

/** The room grid's "Add nights" and "Copy night" controls (their problems come from event-days.ts). */
const NIGHT_RANGE_CONTROLS: Record<string, ControlKind> = {
  from: 'firstNight',
  to: 'lastNight',
  copyFrom: 'firstNight',
  copyTo: 'lastNight',
  copyNight: 'nightToCopy',
};

/** The kind of a form control named after an API field path (see forms.ts). */
function kindOf(control: string): ControlKind {
  if (SESSION_CONTROLS[control]) return SESSION_CONTROLS[control];
  if (NIGHT_RANGE_CONTROLS[control]) return NIGHT_RANGE_CONTROLS[control];
  if (control === 'comment' || control === 'reason') return 'note';
  if (control === 'password') return 'password';
  if (control === 'notifications') return 'notifications';
  if (control === 'decisionDeadlineTime') return 'time';
  if (/^budgetBreakdown\.\w+$/.test(control)) return 'amount';
  if (/^accommodations\.[^.]+\.[^.]+$/.test(control)) return 'count';
  if (/^accommodations\.[^.]+$/.test(control)) return 'night';
  if (/^meetingRoomDates\[\d+\]\.(startDate|endDate)$/.test(control)) return 'date';
  if (/^meetingRoomDates\[\d+\]$/.test(control)) return 'range';
  if (/^formattedLocations\[\d+\]\.city$/.test(control)) return 'city';
  const field = fieldNamed(/^\w+/.exec(control)?.[0] ?? '');
  switch (field?.kind) {
    case 'count':
      return 'count';
    case 'deadline':
      return 'deadline';
    case 'textList':
      return 'lines';
    case 'accommodations':
      return 'nights';
    case 'sessions':
      return 'sessions';
    case 'currency':
      return 'currency';
    default:
      return control === 'name' ? 'name' : 'text';
  }
}

/** The most characters a control takes, from the field table (free text otherwise). */
function maxLengthOf(control: string): number {
  return fieldNamed(control)?.maxLength ?? LIMITS.freeText;
}

/** The most entries a list control takes. */
function maxItemsOf(control: string): number {
  return fieldNamed(control)?.maxItems ?? LIMITS.sessionRequirements;
}

/** "(got 120)" or "(it has 6)" in the API's message: what the person typed, said back to them. */
function typedCount(message: string | undefined): string {
  const typed = /\((?:got|it has) (\d+)\)/.exec(message ?? '')?.[1];
  return typed ? ` (this has ${typed})` : '';
}

/** Calendar dates named in the API's message (`2030-05-09`), as the dashboard writes dates. */
function datesIn(message: string | undefined): string {
  const dates = (message ?? '').match(/\d{4}-\d{2}-\d{2}/g) ?? [];
  return dates.map(day).join('; ');
}

const EXAMPLE_DATE = 'May 12, 2027';
const ENTER_DATE = `Enter a date, e.g. ${EXAMPLE_DATE}.`;
const ENTER_TIME = 'Enter a time in the 24-hour form, e.g. 09:30 or 14:00.';
const WHOLE_NUMBER = 'Enter a whole number of 0 or more.';

/** What to say of a problem in a control of a kind, by the problem's code; undefined when it has no words here. */
function wordsFor(
  kind: ControlKind,
  problem: { field: string; code: string; message?: string },
): string | undefined {
  const { code, message, field } = problem;
  switch (kind) {
    case 'count':
      return WHOLE_NUMBER;
    case 'amount':
      if (code === 'invalid_format') return 'Use at most two decimals, e.g. 1200.50.';
      if (code === 'out_of_range') return 'Enter an amount of 0 or more.';
      return 'Enter an amount, e.g. 1200 or 1200.50.';
    case 'date':
      // A row's other day left blank arrives as "" (the form sends what was typed).
      if (code === 'required' || message?.includes('(got "")'))
        return field.endsWith('endDate') ? 'Enter the last day too.' : 'Enter the first day too.';
      if (code === 'out_of_range') return 'The last day must not be before the first day.';
      return ENTER_DATE;
    case 'range':
      if (code === 'too_long')
        return `A range may span at most ${LIMITS.meetingRoomRangeDays} days${typedCount(message)}.`;
      return 'Enter a first and a last day.';
    case 'deadline':
      return ENTER_DATE;
    case 'time':
      if (code === 'out_of_range')
        return field.endsWith('startTime') ? 'Must be before the end time.' : 'Must be after the start time.';
      return ENTER_TIME;
    case 'days':
      if (code === 'duplicate') return 'Choose each day once.';
      if (code === 'outside_meeting_room_dates') {
        const dates = datesIn(message);
        return `Choose days within the meeting-room dates${dates ? ` (not ${dates})` : ''}.`;
      }
      if (code === 'too_many') return `Choose at most ${LIMITS.sessionDates} days.`;
      if (code === 'required' || code === 'empty') return 'Choose at least one day.';
      return 'Choose days from the list.';
    case 'night':
      return 'This night is not a real date.';
    case 'firstNight':
      return `Enter the first night as a date, e.g. ${EXAMPLE_DATE}.`;
    case 'lastNight':
      if (code === 'out_of_range') {
        const first = datesIn(message);
        return `The last night must be on or after the first night${first ? `, ${first}` : ''}.`;
      }
      if (code === 'too_many')
        return `A range holds at most ${MAX_RANGE_NIGHTS} nights${typedCount(message)}.`;
      return `Enter the last night as a date, e.g. ${EXAMPLE_DATE}, or leave it blank for one night.`;
    case 'nightToCopy':
      return 'Choose a night to copy.';
    case 'nights':
      if (code === 'too_many') return `An event may have at most ${LIMITS.accommodationNights} nights.`;
      return undefined;
    case 'sessions':
      if (code === 'too_many') return `An agenda may have at most ${LIMITS.agendaSessions} sessions.`;
      return undefined;
    case 'session':
      if (code === 'unknown_session') return 'This session no longer exists; reload the agenda.';
      return undefined;
    case 'lines':
      if (code === 'too_many') return `Enter at most ${maxItemsOf(field)} lines.`;
      if (code === 'too_long') return `Each line may have at most ${LIMITS.freeText} characters.`;
      return textWords(code, field, message);
    case 'currency':
      return 'Enter a currency code, e.g. USD, EUR or GBP.';
    case 'password':
      if (code === 'too_short')
        return `Use at least ${PASSWORD_MIN_LENGTH} characters${typedCount(message)}.`;
      if (code === 'too_long') return `Use at most ${PASSWORD_MAX_LENGTH} characters${typedCount(message)}.`;
      if (code === 'common_password')
        return 'This password is on a list of common passwords; choose one that is harder to guess.';
      return undefined;
    case 'notifications':
      return 'Choose only among the mails listed here; reload the page and try again.';
    case 'name':
      if (code === 'required' || code === 'empty') return 'Enter a name for the event.';
      return textWords(code, field, message);
    case 'title':
      if (code === 'required' || code === 'empty') return 'Enter a title for the session.';
      return textWords(code, field, message);
    case 'city':
      if (code === 'required' || code === 'empty') return 'Enter a city, or leave the whole row blank.';
      return textWords(code, field, message);
    case 'note':
      if (code === 'required' || code === 'empty')
        return `Enter a ${field}: it is kept in the event's history.`;
      return textWords(code, field, message);
    case 'text':
      return textWords(code, field, message);
  }
}

function textWords(code: string, field: string, message: string | undefined): string | undefined {
  if (code === 'too_long') return `Use at most ${maxLengthOf(field)} characters${typedCount(message)}.`;
  if (code === 'required' || code === 'empty') return 'This cannot be left empty.';
  if (code === 'invalid_characters') return 'Remove the control characters (such as tabs) from this text.';
  if (code === 'line_break') return 'Keep this to one line.';
  return undefined;
}

/**
 * A problem in the words the dashboard shows, for the control `field` names (a form's control, after
 * forms.ts renamed the API's field to it). Anything without words of its own (a problem no form of
 * the dashboard can cause) gets a plain sentence, never the API's message.
 */
export function problemWords(problem: { field: string; code: string; message?: string }): string {
  return wordsFor(kindOf(problem.field), problem) ?? 'This value cannot be used; check it and try again.';
}

/** The most characters each text field of a venue takes. */
const VENUE_TEXT_LIMITS: Record<string, number> = {
  name: VENUE_LIMITS.name,
  city: VENUE_LIMITS.place,
  state: VENUE_LIMITS.place,
  country: VENUE_LIMITS.place,
  contactName: VENUE_LIMITS.contactName,
  phone: VENUE_LIMITS.phone,
  website: VENUE_LIMITS.website,
  notes: VENUE_LIMITS.notes,
  email: 254,
};

/** A problem of the venue form (D20) in words: its controls are named as a venue's fields. */
export function venueProblemWords(problem: { field: string; code: string; message?: string }): string {
  const { field, code, message } = problem;
  const limit = VENUE_TEXT_LIMITS[field];
  if (code === 'too_long' && limit !== undefined)
    return `Use at most ${limit} characters${typedCount(message)}.`;
  if (code === 'line_break') return 'Keep this to one line: it goes into the heading of a mail.';
  if (code === 'invalid_characters') return 'Remove the control characters (such as tabs) from this text.';
  switch (field) {
    case 'name':
      return "Enter the venue's name.";
    case 'email':
      if (code === 'required' || code === 'empty') return 'Enter the email address requests should go to.';
      return 'Enter one email address, e.g. sales@hotel.example.';
    case 'city':
      return 'Enter the city the venue is in.';
    case 'website':
      return 'Enter an address that starts with https://, e.g. https://hotel.example.';
    case 'guestRooms':
    case 'largestMeetingRoomCapacity':
      return WHOLE_NUMBER;
    default:
      return problemWords(problem);
  }
}

/** A problem of the form that adds a venue to an event (D21): the venue chosen and its reply date. */
/** The new reply date's problems (D28), in words. */
export function replyDateProblemWords(problem: { field: string; code: string }): string {
  if (problem.code === 'in_the_past') return 'Choose a date from today on.';
  if (problem.code === 'required') return `Enter the new reply date, e.g. ${EXAMPLE_DATE}.`;
  return ENTER_DATE;
}

export function venueRequestProblemWords(problem: { field: string; code: string; message?: string }): string {
  const { field, code } = problem;
  if (field === 'responseDueDate') {
    if (code === 'in_the_past') return 'Choose a date from today on, or leave it blank for the usual date.';
    return `${ENTER_DATE} Or leave it blank for the usual date.`;
  }
  if (code === 'too_many') return `An event can ask at most ${MAX_REQUESTS_PER_EVENT} venues.`;
  if (code === 'unknown_venue') return 'This venue is not in your directory any more; choose another.';
  return 'Choose a venue from the list.';
}
