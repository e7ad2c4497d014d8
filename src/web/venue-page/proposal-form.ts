/**
 * The venue's proposal form and the API's proposal body (D23), both ways. Controls are named like the
 * API's field paths (`validUntil`, `rooms.2027-05-12.Single.count`, `cancellation[0].percent`), so a
 * problem's field names its control. What was typed is passed on as typed whenever it is not plainly
 * what the field takes, so the domain refuses it with its own codes and the page says them in words.
 */
import type { VenueProposalView } from '../../app/venue-portal.js';
import { eventSpan } from '../../domain/proposal.js';
import { type Accommodations, type DateRange, ROOM_TYPES, type RoomType } from '../../domain/types.js';
import { type FormBody, field, type RowMap, toFormField } from '../forms.js';

/** Amounts for the whole event, in the order the form shows them. */
export const AMOUNT_CONTROLS = [
  'meetingRoomRental',
  'foodBeverageMinimum',
  'avEstimate',
  'otherCharges',
] as const;

/** Percentages of the terms, in the order the form shows them. */
export const PERCENT_CONTROLS = [
  'roomTaxPercent',
  'serviceChargePercent',
  'attritionPercent',
  'depositPercent',
  'commissionPercent',
] as const;

/** Spare cancellation rows after the ones filled in (rows left blank are not sent). */
const SPARE_CANCELLATION_ROWS = 2;
const MIN_CANCELLATION_ROWS = 3;

const PLAIN_NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/** Blank is nothing; a plain number is that number; anything else goes on as typed, to be refused. */
function numberValue(raw: string): number | string | null {
  if (raw.trim() === '') return null;
  return PLAIN_NUMBER.test(raw) ? Number(raw) : raw.trim();
}

const ROOM_CELL = /^rooms\.(\d{4}-\d{2}-\d{2})\.(\w+)\.(count|rate)$/;
const CANCELLATION_ROW = /^cancellation\[(\d+)\]\.(daysBefore|percent)$/;

/**
 * The proposal body from the form, and `controlOf`, which names the control a problem of the body
 * belongs to (cancellation rows left blank are not sent, so the body's positions differ from the form's).
 */
export function proposalBody(form: FormBody): {
  body: Record<string, unknown>;
  controlOf: (field: string) => string;
} {
  const body: Record<string, unknown> = {};
  const text = (name: string) => field(form, name).trim();
  if (text('validUntil') !== '') body.validUntil = text('validUntil');
  if (text('currency') !== '') body.currency = text('currency').toUpperCase();
  const start = text('offeredDates.startDate');
  const end = text('offeredDates.endDate');
  if (start !== '' || end !== '') {
    body.offeredDates = {
      ...(start === '' ? {} : { startDate: start }),
      ...(end === '' ? {} : { endDate: end }),
    };
  }
  if (text('holdOption') !== '') body.holdOption = text('holdOption');

  const rooms: Record<string, Record<string, { count: unknown; rate: unknown }>> = {};
  for (const name of Object.keys(form).sort()) {
    const match = ROOM_CELL.exec(name);
    if (!match || match[3] !== 'count') continue;
    const [, night, type] = match;
    const count = numberValue(field(form, `rooms.${night}.${type}.count`));
    const rate = numberValue(field(form, `rooms.${night}.${type}.rate`));
    if (count === null && rate === null) continue;
    rooms[night!] ??= {};
    rooms[night!]![type!] = { count, rate };
  }
  if (Object.keys(rooms).length > 0) body.rooms = rooms;

  for (const name of [...AMOUNT_CONTROLS, ...PERCENT_CONTROLS]) {
    const value = numberValue(field(form, name));
    if (value !== null) body[name] = value;
  }
  if (text('cutoffDate') !== '') body.cutoffDate = text('cutoffDate');

  const rows: RowMap = { cancellation: [] };
  const steps: Array<Record<string, unknown>> = [];
  for (const index of cancellationIndexes(form)) {
    const daysBefore = numberValue(field(form, `cancellation[${index}].daysBefore`));
    const percent = numberValue(field(form, `cancellation[${index}].percent`));
    if (daysBefore === null && percent === null) continue;
    rows.cancellation!.push(index);
    steps.push({ daysBefore, percent });
  }
  if (steps.length > 0) body.cancellation = steps;

  const notes = field(form, 'notes');
  if (notes.trim() !== '') body.notes = notes;
  return { body, controlOf: (name) => toFormField(name, rows) };
}

function cancellationIndexes(form: FormBody): number[] {
  const indexes = new Set<number>();
  for (const name of Object.keys(form)) {
    const match = CANCELLATION_ROW.exec(name);
    if (match) indexes.add(Number(match[1]));
  }
  return [...indexes].sort((a, b) => a - b);
}

const amountText = (value: number | null) => (value === null ? '' : String(value));

/**
 * The form's values: the latest proposal's terms for a revision, else the event's currency and dates
 * and no hold, so a first proposal starts from what was asked.
 */
export function proposalFormValues(
  proposal: VenueProposalView | null,
  event: { currency: string; eventDates: readonly DateRange[] },
): FormBody {
  if (!proposal) {
    const span = eventSpan(event.eventDates);
    return {
      currency: event.currency,
      'offeredDates.startDate': span?.startDate ?? '',
      'offeredDates.endDate': span?.endDate ?? '',
      holdOption: 'none',
    };
  }
  const values: FormBody = {
    validUntil: proposal.validUntil,
    currency: proposal.currency,
    'offeredDates.startDate': proposal.offeredDates?.startDate ?? '',
    'offeredDates.endDate': proposal.offeredDates?.endDate ?? '',
    holdOption: proposal.holdOption,
    cutoffDate: proposal.cutoffDate ?? '',
    notes: proposal.notes ?? '',
  };
  for (const [night, cells] of Object.entries(proposal.rooms)) {
    for (const [type, cell] of Object.entries(cells)) {
      if (!cell) continue;
      values[`rooms.${night}.${type}.count`] = String(cell.count);
      values[`rooms.${night}.${type}.rate`] = String(cell.rate);
    }
  }
  for (const name of AMOUNT_CONTROLS) values[name] = amountText(proposal[name]);
  for (const name of PERCENT_CONTROLS) values[name] = amountText(proposal[name]);
  proposal.cancellation.forEach((step, index) => {
    values[`cancellation[${index}].daysBefore`] = String(step.daysBefore);
    values[`cancellation[${index}].percent`] = String(step.percent);
  });
  return values;
}

/** The room grid the form shows: the nights and room types asked for, and any the values hold. */
export function roomGrid(
  requested: Accommodations,
  values: FormBody,
): { nights: string[]; types: RoomType[] } {
  const nights = new Set(Object.keys(requested));
  const types = new Set<string>();
  for (const counts of Object.values(requested)) {
    for (const [type, rooms] of Object.entries(counts)) if ((rooms ?? 0) > 0) types.add(type);
  }
  for (const name of Object.keys(values)) {
    const match = ROOM_CELL.exec(name);
    if (!match || !(ROOM_TYPES as readonly string[]).includes(match[2]!)) continue;
    nights.add(match[1]!);
    types.add(match[2]!);
  }
  return { nights: [...nights].sort(), types: ROOM_TYPES.filter((type) => types.has(type)) };
}

/** The cancellation rows the form shows: those with values, then spare ones. */
export function cancellationRows(values: FormBody): number[] {
  const filled = cancellationIndexes(values).filter(
    (index) =>
      field(values, `cancellation[${index}].daysBefore`).trim() !== '' ||
      field(values, `cancellation[${index}].percent`).trim() !== '',
  );
  const last = filled.length === 0 ? -1 : filled[filled.length - 1]!;
  const count = Math.max(MIN_CANCELLATION_ROWS, last + 1 + SPARE_CANCELLATION_ROWS);
  return Array.from({ length: count }, (_, index) => index);
}
