/**
 * The computed, read-only parts of a proposal (D23), worked out on every read in the proposal's
 * currency: totals, room-block coverage against the event's request, each amount against the event's
 * budget lines, and the attrition exposure at 80% pickup. Money is summed in integer cents and each
 * percentage rounded once to the cent, halves up, so a total is exactly the sum of its parts.
 */
import { divideRoundingHalfUp, fromCents, percentOfCents, toBasisPoints, toCents } from './money.js';
import type { Proposal, ProposalTerms } from './proposal.js';
import type { RoomRate, RoomRates } from './room-rates.js';
import {
  type Accommodations,
  type BudgetBreakdown,
  type EventDetails,
  ROOM_TYPES,
  type RoomType,
} from './types.js';

export const TOTAL_PARTS = ['rooms', 'roomTax', 'meetingRooms', 'foodBeverage', 'av', 'other'] as const;
export type TotalPart = (typeof TOTAL_PARTS)[number];

/** Amounts in the proposal's currency; `total` is the sum of the six parts. */
export type ProposalTotals = Record<TotalPart | 'total', number>;

export const TOTALS_LABELS: Record<TotalPart | 'total', string> = {
  rooms: 'Guest rooms',
  roomTax: 'Room tax',
  meetingRooms: 'Meeting rooms',
  foodBeverage: 'Food and beverage (with service charge)',
  av: 'Audio-visual',
  other: 'Other charges',
  total: 'Total',
};

/** Rooms still missing per night and room type: `{ night: { type: missing } }`. */
export type Shortfall = Record<string, Partial<Record<RoomType, number>>>;

export interface Coverage {
  /** Σ of the rooms the event asks for, per night and type. */
  requestedRoomNights: number;
  /** Σ of the rooms offered, on any night and of any type. */
  offeredRoomNights: number;
  /** Σ per night and type of min(requested, offered). */
  coveredRoomNights: number;
  /** covered ÷ requested × 100 with one decimal (halves up); null when the event asks for no rooms. */
  percent: number | null;
  shortfall: Shortfall;
}

export const COVERAGE_LABELS: Record<keyof Coverage, string> = {
  requestedRoomNights: 'Room nights requested',
  offeredRoomNights: 'Room nights offered',
  coveredRoomNights: 'Room nights covered',
  percent: 'Coverage',
  shortfall: 'Rooms short',
};

/** Which parts of the totals each of the event's budget lines is compared with (D23). */
export const BUDGET_LINE_PARTS = {
  venue: ['rooms', 'roomTax', 'meetingRooms'],
  fb: ['foodBeverage'],
  av: ['av'],
  other: ['other'],
} as const satisfies Record<string, readonly TotalPart[]>;
export type ComparedBudgetLine = keyof typeof BUDGET_LINE_PARTS;

export interface BudgetComparison {
  budgeted: number;
  proposed: number;
}

/** Per budget line the event has (of the four compared); absent lines are left out. */
export type ProposalBudget = Partial<Record<ComparedBudgetLine, BudgetComparison>>;

export interface ProposalFigures {
  totals: ProposalTotals;
  coverage: Coverage;
  /** Null when the proposal's currency is not the event's: amounts in two currencies are never compared. */
  budget: ProposalBudget | null;
  /** Null when the venue gave no attrition percent: its terms are unknown, not zero. */
  attritionExposureAt80: number | null;
}

/** A proposal as read: with its computed parts (D23). */
export type ProposalView = Proposal & ProposalFigures;

/** What the figures read of the event. */
export type FiguresEvent = Pick<EventDetails, 'currency' | 'budgetBreakdown' | 'accommodations'>;

type PricedTerms = Pick<
  ProposalTerms,
  | 'rooms'
  | 'roomTaxPercent'
  | 'meetingRoomRental'
  | 'foodBeverageMinimum'
  | 'serviceChargePercent'
  | 'avEstimate'
  | 'otherCharges'
>;

const centsOf = (amount: number | null): bigint => (amount === null ? 0n : toCents(amount));
const basisPointsOf = (percent: number | null): bigint => (percent === null ? 0n : toBasisPoints(percent));

function cellsOf(rates: RoomRates): Array<[string, RoomType, RoomRate]> {
  const cells: Array<[string, RoomType, RoomRate]> = [];
  for (const [night, types] of Object.entries(rates)) {
    for (const [roomType, cell] of Object.entries(types) as Array<[RoomType, RoomRate]>) {
      cells.push([night, roomType, cell]);
    }
  }
  return cells;
}

/** Σ count × rate over every night and room type, in cents. */
export function roomsInCents(rates: RoomRates): bigint {
  let cents = 0n;
  for (const [, , cell] of cellsOf(rates)) cents += BigInt(cell.count) * toCents(cell.rate);
  return cents;
}

/** The totals in cents: the exact sums from which `proposalTotals` is written. */
export function totalsInCents(terms: PricedTerms): Record<TotalPart | 'total', bigint> {
  const rooms = roomsInCents(terms.rooms);
  const foodBeverageMinimum = centsOf(terms.foodBeverageMinimum);
  const parts: Record<TotalPart, bigint> = {
    rooms,
    roomTax: percentOfCents(rooms, basisPointsOf(terms.roomTaxPercent)),
    meetingRooms: centsOf(terms.meetingRoomRental),
    foodBeverage:
      foodBeverageMinimum + percentOfCents(foodBeverageMinimum, basisPointsOf(terms.serviceChargePercent)),
    av: centsOf(terms.avEstimate),
    other: centsOf(terms.otherCharges),
  };
  const total = TOTAL_PARTS.reduce((sum, part) => sum + parts[part], 0n);
  return { ...parts, total };
}

/**
 * `rooms` (Σ count × rate), `roomTax` (rooms × roomTaxPercent), `meetingRooms`, `foodBeverage`
 * (minimum × (1 + serviceChargePercent)), `av`, `other` and `total`; an amount not given counts as 0.
 */
export function proposalTotals(terms: PricedTerms): ProposalTotals {
  return totalsFromCents(totalsInCents(terms));
}

function totalsFromCents(cents: Record<TotalPart | 'total', bigint>): ProposalTotals {
  return {
    rooms: fromCents(cents.rooms),
    roomTax: fromCents(cents.roomTax),
    meetingRooms: fromCents(cents.meetingRooms),
    foodBeverage: fromCents(cents.foodBeverage),
    av: fromCents(cents.av),
    other: fromCents(cents.other),
    total: fromCents(cents.total),
  };
}

/** How much of the event's room block the offered rooms cover, night by night and type by type. */
export function roomBlockCoverage(requested: Accommodations, offered: RoomRates): Coverage {
  let requestedRoomNights = 0;
  let coveredRoomNights = 0;
  const shortfall: Shortfall = {};
  for (const night of Object.keys(requested).sort()) {
    const wanted = requested[night]!;
    for (const roomType of ROOM_TYPES) {
      const count = wanted[roomType] ?? 0;
      if (count === 0) continue;
      const available = offered[night]?.[roomType]?.count ?? 0;
      requestedRoomNights += count;
      coveredRoomNights += Math.min(count, available);
      if (available < count) shortfall[night] = { ...shortfall[night], [roomType]: count - available };
    }
  }
  const offeredRoomNights = cellsOf(offered).reduce((sum, [, , cell]) => sum + cell.count, 0);
  const percent =
    requestedRoomNights === 0
      ? null
      : Number(divideRoundingHalfUp(BigInt(coveredRoomNights) * 1000n, BigInt(requestedRoomNights))) / 10;
  return { requestedRoomNights, offeredRoomNights, coveredRoomNights, percent, shortfall };
}

/**
 * Each of the event's budget lines that a proposal's amounts fall under (`venue` ↔ rooms + roomTax +
 * meetingRooms, `fb` ↔ foodBeverage, `av` ↔ av, `other` ↔ other), as `{ budgeted, proposed }`; null
 * when the proposal's currency is not the event's.
 */
export function budgetComparison(
  totals: Record<TotalPart, bigint>,
  proposalCurrency: string,
  event: { currency: string; budgetBreakdown: BudgetBreakdown },
): ProposalBudget | null {
  if (proposalCurrency !== event.currency) return null;
  const budget: ProposalBudget = {};
  for (const line of Object.keys(BUDGET_LINE_PARTS) as ComparedBudgetLine[]) {
    const budgeted = event.budgetBreakdown[line];
    if (budgeted === undefined) continue;
    const proposed = BUDGET_LINE_PARTS[line].reduce((sum: bigint, part: TotalPart) => sum + totals[part], 0n);
    budget[line] = { budgeted, proposed: fromCents(proposed) };
  }
  return budget;
}

/** Whether a line's proposed amount is over what was budgeted. */
export function isOverBudget(line: BudgetComparison): boolean {
  return toCents(line.proposed) > toCents(line.budgeted);
}

/**
 * What the venue may charge if only 80% of the offered rooms are used: rooms × max(0, 0.2 −
 * attritionPercent / 100), rounded to the cent; null when no attrition percent was given.
 */
export function attritionExposureAt80(
  terms: Pick<ProposalTerms, 'rooms' | 'attritionPercent'>,
): number | null {
  if (terms.attritionPercent === null) return null;
  const unusedBeyondAllowance = 2000n - toBasisPoints(terms.attritionPercent);
  if (unusedBeyondAllowance <= 0n) return 0;
  return fromCents(percentOfCents(roomsInCents(terms.rooms), unusedBeyondAllowance));
}

/** The average price of an offered room night (rooms ÷ offered room nights, to the cent); null when none is offered. */
export function averageNightlyRate(terms: Pick<ProposalTerms, 'rooms'>): number | null {
  const nights = cellsOf(terms.rooms).reduce((sum, [, , cell]) => sum + cell.count, 0);
  if (nights === 0) return null;
  return fromCents(divideRoundingHalfUp(roomsInCents(terms.rooms), BigInt(nights)));
}

/** Every computed part of a proposal, against the event as it is now. */
export function proposalFigures(terms: ProposalTerms, event: FiguresEvent): ProposalFigures {
  const cents = totalsInCents(terms);
  return {
    totals: totalsFromCents(cents),
    coverage: roomBlockCoverage(event.accommodations, terms.rooms),
    budget: budgetComparison(cents, terms.currency, event),
    attritionExposureAt80: attritionExposureAt80(terms),
  };
}

/** A proposal as the API and the pages read it: its terms and its computed parts. */
export function proposalView(proposal: Proposal, event: FiguresEvent): ProposalView {
  return { ...proposal, ...proposalFigures(proposal, event) };
}
