/**
 * The venue's page in words: the request's state as the venue reads it, the names of the proposal and
 * turn-down controls, and their problems said from the domain's codes (never the API's messages, field
 * names or codes). The labels come from the domain's proposal table, as the API's documentation does.
 */
import { CANCELLATION_LIMITS } from '../../domain/cancellation-ladder.js';
import { PROPOSAL_FIELD_LABELS, type ProposalFieldName } from '../../domain/proposal.js';
import type { RequestStatus } from '../../domain/venue-request.js';
import { day } from '../format.js';
import { problemWords } from '../problem-words.js';
import { AMOUNT_CONTROLS, PERCENT_CONTROLS } from './proposal-form.js';

/** Where the request stands, said to the venue. */
const STATE_WORDS: Record<RequestStatus, string> = {
  shortlisted: 'Not sent yet',
  sent: 'Waiting for your proposal',
  viewed: 'Waiting for your proposal',
  proposed: 'Proposal sent',
  turned_down: 'You turned this request down',
  awarded: 'Awarded to you',
  declined: 'Declined by the planner',
  withdrawn: 'Withdrawn by the planner',
  no_response: 'Closed without a response',
};

export const requestStateWords = (status: RequestStatus): string => STATE_WORDS[status];

/** Why a closed request takes no answer, for the box at the top of its page. */
export function closedWords(status: RequestStatus, eventStatus: 'sourcing' | 'over'): string {
  switch (status) {
    case 'awarded':
      return 'This request is closed: the planner awarded the event to you. They will be in touch to book it.';
    case 'declined':
      return 'This request is closed: the planner declined your proposal.';
    case 'withdrawn':
      return 'This request is closed: the planner withdrew it.';
    case 'turned_down':
      return 'This request is closed: you turned it down.';
    case 'no_response':
      return 'This request is closed: it was closed without a response.';
    default:
      return eventStatus === 'over'
        ? 'This request is closed: the event no longer takes proposals.'
        : 'This request is closed.';
  }
}

const PART_WORDS: Record<string, string> = {
  startDate: 'first day',
  endDate: 'last day',
  daysBefore: 'days before',
  percent: 'share charged',
  count: 'rooms',
  rate: 'rate',
};

/** A person's name for a control of the venue's forms: `rooms.2027-05-12.Single.rate` → "Single, night of Wed, May 12, 2027: rate". */
export function venueControlLabel(path: string): string {
  const cell = /^rooms\.(\d{4}-\d{2}-\d{2})(?:\.(\w+)(?:\.(count|rate))?)?$/.exec(path);
  if (cell) {
    const night = `night of ${day(cell[1]!)}`;
    if (!cell[2]) return `Guest rooms, ${night}`;
    return `${cell[2]}, ${night}${cell[3] ? `: ${PART_WORDS[cell[3]]}` : ''}`;
  }
  const step = /^cancellation\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (step) {
    return `Cancellation terms, step ${Number(step[1]) + 1}${step[2] ? `: ${PART_WORDS[step[2]] ?? ''}` : ''}`;
  }
  const dates = /^offeredDates\.(startDate|endDate)$/.exec(path);
  if (dates) return `${PROPOSAL_FIELD_LABELS.offeredDates}: ${PART_WORDS[dates[1]!]}`;
  if (path === 'reason') return 'Reason';
  if (path === 'comment') return 'Comment';
  return Object.hasOwn(PROPOSAL_FIELD_LABELS, path)
    ? PROPOSAL_FIELD_LABELS[path as ProposalFieldName]
    : 'This field';
}

const ENTER_DATE = 'Enter a date, e.g. May 12, 2027.';
const WHOLE_NUMBER = 'Enter a whole number of 0 or more.';

function amountWords(code: string): string {
  if (code === 'invalid_format') return 'Use at most two decimals, e.g. 1200.50.';
  if (code === 'out_of_range') return 'Enter an amount of 0 or more.';
  return 'Enter an amount, e.g. 1200 or 1200.50.';
}

function percentWords(code: string, message: string | undefined): string {
  if (code === 'invalid_format') return 'Use at most two decimals, e.g. 12.5.';
  if (code === 'out_of_range' && message?.includes('at least')) {
    const least = /at least ([\d.]+)/.exec(message)?.[1];
    return `A step nearer the event must charge at least as much as one further away${least ? ` (at least ${least}%)` : ''}.`;
  }
  return 'Enter a percentage from 0 to 100, e.g. 10 or 12.5.';
}

/** Calendar dates named in a domain message, as the page writes dates. */
const datesIn = (message: string | undefined) => ((message ?? '').match(/\d{4}-\d{2}-\d{2}/g) ?? []).map(day);

/**
 * A problem of the venue's forms in words, for the control `field` names. Controls shared with the
 * dashboard (notes, comment) take the dashboard's words; anything else without words of its own gets
 * a plain sentence.
 */
export function venueProblemWords(problem: { field: string; code: string; message?: string }): string {
  const { field, code, message } = problem;
  if (/^rooms\.[^.]+\.[^.]+\.rate$/.test(field)) {
    return code === 'required' ? 'Enter the rate per room per night too.' : amountWords(code);
  }
  if (/^rooms\.[^.]+\.[^.]+\.count$/.test(field)) {
    return code === 'required' ? 'Enter how many rooms too.' : WHOLE_NUMBER;
  }
  if (/^rooms\.[^.]+$/.test(field)) {
    const [from, to] = datesIn(message);
    if (code === 'outside_offered_dates')
      return `This night is outside the dates you offer${from && to ? ` (${from} to ${to})` : ''}: change the dates offered, or leave the night blank.`;
    return 'This night is not a real date.';
  }
  if (field === 'rooms') {
    if (code === 'nothing_priced')
      return 'Price something: guest rooms, a meeting-room rental or a food and beverage minimum.';
    return 'Check the guest rooms and try again.';
  }
  if ((AMOUNT_CONTROLS as readonly string[]).includes(field)) return amountWords(code);
  if ((PERCENT_CONTROLS as readonly string[]).includes(field)) return percentWords(code, message);
  const step = /^cancellation\[\d+\]\.(daysBefore|percent)$/.exec(field);
  if (step?.[1] === 'percent')
    return code === 'required' ? 'Enter the share charged too.' : percentWords(code, message);
  if (step?.[1] === 'daysBefore') {
    if (code === 'required') return 'Enter the number of days too.';
    if (code === 'duplicate') return 'Another step is for the same number of days; give each step its own.';
    if (code === 'out_of_range' && message?.includes('days'))
      return `Enter at most ${CANCELLATION_LIMITS.daysBefore} days.`;
    return WHOLE_NUMBER;
  }
  if (field === 'cancellation') return `Give at most ${CANCELLATION_LIMITS.steps} steps.`;
  switch (field) {
    case 'validUntil':
      if (code === 'required') return 'Enter the last day these terms hold.';
      if (code === 'in_the_past') return 'Enter a day from today on: this day has passed.';
      return ENTER_DATE;
    case 'cutoffDate': {
      const [first] = datesIn(message);
      if (code === 'out_of_range')
        return `Must not be after the first day offered${first ? `, ${first}` : ''}.`;
      return ENTER_DATE;
    }
    case 'offeredDates.startDate':
      return code === 'required' ? 'Enter the first day too.' : ENTER_DATE;
    case 'offeredDates.endDate':
      if (code === 'required') return 'Enter the last day too.';
      if (code === 'out_of_range') return 'The last day must not be before the first day.';
      return ENTER_DATE;
    case 'currency':
      return 'Enter a currency code, e.g. USD, EUR or GBP.';
    case 'holdOption':
      return 'Choose a hold from the list.';
    case 'reason':
      return 'Choose a reason.';
    case 'comment':
      if (code === 'required') return 'Say why: a comment is needed when the reason is another one.';
      return problemWords({ field: 'notes', code, message });
    case 'notes':
      return problemWords({ field: 'notes', code, message });
  }
  return 'This value cannot be used; check it and try again.';
}
