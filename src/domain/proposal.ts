/**
 * A venue's proposal (D23): its fields as one plain-data table, and the reading of a submitted body
 * (API JSON, or a form turned into it) with every problem named by its path. Each submission is a
 * new revision; the computed parts are in proposal-figures.ts.
 */
import type { CancellationStep } from './cancellation-ladder.js';
import { ValidationError } from './errors.js';
import { type FieldDescription, fieldLabels, readNewResource } from './field-descriptions.js';
import { fieldPath, Problems } from './problems.js';
import type { RoomRates } from './room-rates.js';
import { type DateRange, type EventDetails, LIMITS } from './types.js';
import { isPlainObject } from './values.js';

export const HOLD_OPTIONS = ['first', 'second', 'none'] as const;
export type HoldOption = (typeof HOLD_OPTIONS)[number];

export const HOLD_OPTION_LABELS: Record<HoldOption, string> = {
  first: 'First option (held for you first)',
  second: 'Second option (another group holds the first)',
  none: 'No hold',
};

/** What the venue (or a planner on its behalf) submits: every writable field of a proposal. */
export interface ProposalTerms {
  validUntil: string;
  currency: string;
  /** The dates the venue offers; by default the event's dates. Null only when the event had none. */
  offeredDates: DateRange | null;
  holdOption: HoldOption;
  rooms: RoomRates;
  meetingRoomRental: number | null;
  foodBeverageMinimum: number | null;
  avEstimate: number | null;
  otherCharges: number | null;
  roomTaxPercent: number | null;
  /** On food and beverage. */
  serviceChargePercent: number | null;
  /** Share of the room block that may go unused without charge. */
  attritionPercent: number | null;
  depositPercent: number | null;
  commissionPercent: number | null;
  cutoffDate: string | null;
  cancellation: CancellationStep[];
  notes: string | null;
}

/** Who entered a proposal: the venue on its page, or a planner on the venue's behalf (D23). */
export type ProposalSource = 'venue' | 'planner';

/** A proposal as kept: the terms of one revision. */
export interface Proposal extends ProposalTerms {
  id: string;
  requestId: string;
  /** 1 for the first submission of the request, then 2, 3, … */
  revision: number;
  submittedAt: string;
  submittedBy: ProposalSource;
  /** The version of the request it answers (D26). */
  requestVersion: number;
  /** Submitted after the reply date then in force (D28). */
  late: boolean;
}

const amount = <const Name extends string>(name: Name, label: string, hint?: string) =>
  ({
    name,
    label,
    ...(hint === undefined ? {} : { hint }),
    access: 'writable',
    kind: { type: 'amount' },
    required: false,
    whenNull: 'null',
  }) as const;

const percent = <const Name extends string>(name: Name, label: string, hint?: string) =>
  ({
    name,
    label,
    ...(hint === undefined ? {} : { hint }),
    access: 'writable',
    kind: { type: 'percent' },
    required: false,
    whenNull: 'null',
  }) as const;

/** Every field of a proposal as read, in the order the API writes them. */
export const PROPOSAL_FIELDS = [
  { name: 'id', label: 'Id', access: 'read_only', source: 'service' },
  { name: 'requestId', label: 'Request', access: 'read_only', source: 'service' },
  { name: 'revision', label: 'Revision', access: 'read_only', source: 'service' },
  { name: 'submittedAt', label: 'Submitted', access: 'read_only', source: 'service' },
  { name: 'submittedBy', label: 'Submitted by', access: 'read_only', source: 'service' },
  { name: 'requestVersion', label: 'Answers version', access: 'read_only', source: 'service' },
  { name: 'late', label: 'Late', access: 'read_only', source: 'service' },
  {
    name: 'validUntil',
    label: 'Valid until',
    hint: 'The last day the venue holds these terms.',
    access: 'writable',
    kind: { type: 'date', notInPast: true },
    required: true,
    whenNull: 'refused',
  },
  {
    name: 'currency',
    label: 'Currency',
    hint: 'ISO 4217 code; the event’s currency when not given.',
    access: 'writable',
    kind: { type: 'currency' },
    required: false,
    whenNull: 'null',
    default: { fromEvent: 'currency' },
  },
  {
    name: 'offeredDates',
    label: 'Dates offered',
    hint: 'The event’s dates when not given.',
    access: 'writable',
    kind: { type: 'date_range' },
    required: false,
    whenNull: 'null',
    default: { fromEvent: 'dates' },
  },
  {
    name: 'holdOption',
    label: 'Hold',
    access: 'writable',
    kind: { type: 'choice', choices: HOLD_OPTIONS },
    required: false,
    whenNull: 'null',
    default: { value: 'none' },
  },
  {
    name: 'rooms',
    label: 'Guest rooms',
    hint: 'Per night and room type: how many rooms, at what rate per room per night.',
    access: 'writable',
    kind: { type: 'room_rates' },
    required: false,
    whenNull: 'empty_object',
  },
  amount('meetingRoomRental', 'Meeting-room rental', 'For the whole event.'),
  amount('foodBeverageMinimum', 'Food and beverage minimum', 'For the whole event, before service charge.'),
  amount('avEstimate', 'Audio-visual estimate', 'For the whole event.'),
  amount('otherCharges', 'Other charges', 'For the whole event.'),
  percent('roomTaxPercent', 'Room tax (%)'),
  percent('serviceChargePercent', 'Service charge on food and beverage (%)'),
  percent('attritionPercent', 'Attrition (%)', 'Share of the room block that may go unused without charge.'),
  percent('depositPercent', 'Deposit (%)'),
  percent('commissionPercent', 'Commission (%)'),
  {
    name: 'cutoffDate',
    label: 'Cut-off date',
    hint: 'When rooms not yet booked return to the venue.',
    access: 'writable',
    kind: { type: 'date', notInPast: false },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'cancellation',
    label: 'Cancellation terms',
    hint: 'Each step: the share of the total charged when cancelled fewer than that many days before the first day.',
    access: 'writable',
    kind: { type: 'cancellation_ladder' },
    required: false,
    whenNull: 'empty_list',
  },
  {
    name: 'notes',
    label: 'Notes',
    access: 'writable',
    kind: { type: 'text', maxLength: LIMITS.freeText },
    required: false,
    whenNull: 'null',
  },
  { name: 'totals', label: 'Totals', access: 'read_only', source: 'computed' },
  { name: 'coverage', label: 'Room-block coverage', access: 'read_only', source: 'computed' },
  { name: 'budget', label: 'Against the budget', access: 'read_only', source: 'computed' },
  {
    name: 'attritionExposureAt80',
    label: 'Attrition exposure at 80% pickup',
    hint: 'What the venue may charge if only 80% of the offered rooms are used.',
    access: 'read_only',
    source: 'computed',
  },
] as const satisfies readonly FieldDescription[];

export type ProposalFieldName = (typeof PROPOSAL_FIELDS)[number]['name'];

/** The label people read for each field of a proposal. */
export const PROPOSAL_FIELD_LABELS: Record<ProposalFieldName, string> = fieldLabels(PROPOSAL_FIELDS);

/** The one range from the event's first day to its last, or null when it has no dates. */
export function eventSpan(eventDates: readonly DateRange[]): DateRange | null {
  const first = eventDates[0];
  const last = eventDates[eventDates.length - 1];
  return first && last ? { startDate: first.startDate, endDate: last.endDate } : null;
}

export interface ProposalContext {
  event: Pick<EventDetails, 'currency' | 'eventDates'>;
  now: string;
}

/**
 * The terms of a submitted proposal, or a ValidationError naming every problem by its path. Beyond each
 * field's own rules: rooms only on nights inside the offered dates, a cut-off date not after the first
 * offered day, and something priced (rooms, a meeting-room rental or a food and beverage minimum).
 * Read-only and unknown fields are refused.
 */
export function readProposal(body: unknown, context: ProposalContext): ProposalTerms {
  if (!isPlainObject(body)) {
    throw new ValidationError([
      { field: '', code: 'invalid_type', message: 'the request body must be a JSON object' },
    ]);
  }
  const problems = new Problems();
  const values = readNewResource(PROPOSAL_FIELDS, body, problems, {
    now: context.now,
    defaults: { currency: context.event.currency, offeredDates: eventSpan(context.event.eventDates) },
  }) as Partial<ProposalTerms>;

  const { rooms, offeredDates, cutoffDate } = values;
  if (rooms && offeredDates) {
    for (const night of Object.keys(rooms)) {
      if (night < offeredDates.startDate || night > offeredDates.endDate) {
        problems.add(
          fieldPath('rooms', night),
          'outside_offered_dates',
          `is outside the dates offered (${offeredDates.startDate} to ${offeredDates.endDate})`,
        );
      }
    }
  }
  if (cutoffDate && offeredDates && cutoffDate > offeredDates.startDate) {
    problems.add(
      'cutoffDate',
      'out_of_range',
      `must not be after the first day offered (${offeredDates.startDate})`,
    );
  }
  const pricedFieldsSound = ['rooms', 'meetingRoomRental', 'foodBeverageMinimum'].every(
    (name) =>
      !problems.list.some((problem) => problem.field === name || problem.field.startsWith(`${name}.`)),
  );
  if (pricedFieldsSound && !pricesSomething(values)) {
    problems.add(
      'rooms',
      'nothing_priced',
      'a proposal must price something: rooms, a meeting-room rental or a food and beverage minimum',
    );
  }
  if (!problems.empty) throw new ValidationError(problems.list);
  return values as ProposalTerms;
}

function pricesSomething(terms: Partial<ProposalTerms>): boolean {
  const roomOffered = Object.values(terms.rooms ?? {}).some((night) =>
    Object.values(night).some((cell) => cell.count > 0),
  );
  return (
    roomOffered ||
    (terms.meetingRoomRental !== null && terms.meetingRoomRental !== undefined) ||
    (terms.foodBeverageMinimum !== null && terms.foodBeverageMinimum !== undefined)
  );
}
