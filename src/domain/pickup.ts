/**
 * The pickup of an awarded room block (D30): how many rooms the rooming list fills per night and room
 * type against the contract, and the two amounts that matter before the event: what the venue may
 * charge under the attrition clause if the event were held with today's list, and what cancelling
 * today would cost. Money is worked in integer cents and rounded once, halves up (money.ts).
 */
import type { CancellationStep } from './cancellation-ladder.js';
import { dateText, dayNumber } from './dates.js';
import { divideRoundingHalfUp, fromCents, percentOfCents, toBasisPoints, toCents } from './money.js';
import type { RoomRates } from './room-rates.js';
import { ROOM_TYPES, type RoomType } from './types.js';

export const ATTRITION_BASES = ['cumulative', 'nightly'] as const;
/** `cumulative`: one allowance over the whole block; `nightly`: the allowance applied night by night. */
export type AttritionBasis = (typeof ATTRITION_BASES)[number];

export const ATTRITION_BASIS_LABELS: Record<AttritionBasis, string> = {
  cumulative: 'Over the whole block',
  nightly: 'Night by night',
};

/** What the pickup reads of one guest on the rooming list. */
export interface StayingGuest {
  id: string;
  roomType: RoomType;
  /** `YYYY-MM-DD`: the first night stayed. */
  arrival: string;
  /** `YYYY-MM-DD`: the morning of leaving; the guest stays every night from arrival to the day before. */
  departure: string;
  /** Another guest's id: the two share one room. */
  sharesWith: string | null;
}

export interface PickupCell {
  /** Rooms of the block for the night and type. */
  contracted: number;
  /** Rooms the list fills: guests sharing a room count as one. */
  picked: number;
  /** max(0, contracted − picked). */
  short: number;
  /** max(0, picked − contracted). */
  over: number;
}

export type PickupGrid = Record<string, Partial<Record<RoomType, PickupCell>>>;

export interface PickupTotals {
  contracted: number;
  picked: number;
  short: number;
  over: number;
}

/**
 * Each guest's share group: guests linked by `sharesWith` (in either direction, and through one
 * another) share a room. The root is the group's first guest in list order.
 */
function shareGroups(guests: readonly StayingGuest[]): Map<string, string> {
  const parent = new Map<string, string>();
  for (const guest of guests) parent.set(guest.id, guest.id);
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    let at = id;
    while (at !== root) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const order = new Map(guests.map((guest, index) => [guest.id, index]));
  for (const guest of guests) {
    if (guest.sharesWith === null || !parent.has(guest.sharesWith)) continue;
    const a = find(guest.id);
    const b = find(guest.sharesWith);
    if (a === b) continue;
    if (order.get(a)! < order.get(b)!) parent.set(b, a);
    else parent.set(a, b);
  }
  const roots = new Map<string, string>();
  for (const guest of guests) roots.set(guest.id, find(guest.id));
  return roots;
}

/**
 * The rooms filled per night and room type: a guest fills a room of their type on every night from
 * arrival to the day before departure; guests of one share group present on the same night in the same
 * type fill one room. Nights and types with no contracted room and no guest are left out; a guest on a
 * night or type the block does not hold counts as over.
 */
export function pickupGrid(rooms: RoomRates, guests: readonly StayingGuest[]): PickupGrid {
  const picked = new Map<string, number>();
  const groupsSeen = new Map<string, Set<string>>();
  const roots = shareGroups(guests);
  const sharing = new Set<string>();
  for (const guest of guests) {
    if (guest.sharesWith !== null && roots.has(guest.sharesWith)) {
      sharing.add(guest.id);
      sharing.add(guest.sharesWith);
    }
  }
  for (const guest of guests) {
    const first = dayNumber(guest.arrival);
    const end = dayNumber(guest.departure);
    if (first === undefined || end === undefined) continue;
    const root = sharing.has(guest.id) ? roots.get(guest.id)! : null;
    for (let day = first; day < end; day++) {
      const key = `${dateText(day)}|${guest.roomType}`;
      if (root !== null) {
        let seen = groupsSeen.get(key);
        if (!seen) {
          seen = new Set();
          groupsSeen.set(key, seen);
        }
        if (seen.has(root)) continue;
        seen.add(root);
      }
      picked.set(key, (picked.get(key) ?? 0) + 1);
    }
  }
  const nights = new Set(Object.keys(rooms));
  for (const key of picked.keys()) nights.add(key.slice(0, 10));
  const grid: PickupGrid = {};
  for (const night of [...nights].sort()) {
    const cells: Partial<Record<RoomType, PickupCell>> = {};
    for (const roomType of ROOM_TYPES) {
      const contracted = rooms[night]?.[roomType]?.count;
      const filled = picked.get(`${night}|${roomType}`) ?? 0;
      if (contracted === undefined && filled === 0) continue;
      const block = contracted ?? 0;
      cells[roomType] = {
        contracted: block,
        picked: filled,
        short: Math.max(0, block - filled),
        over: Math.max(0, filled - block),
      };
    }
    if (Object.keys(cells).length > 0) grid[night] = cells;
  }
  return grid;
}

export function pickupTotals(grid: PickupGrid): PickupTotals {
  const totals: PickupTotals = { contracted: 0, picked: 0, short: 0, over: 0 };
  for (const cells of Object.values(grid)) {
    for (const cell of Object.values(cells)) {
      totals.contracted += cell.contracted;
      totals.picked += cell.picked;
      totals.short += cell.short;
      totals.over += cell.over;
    }
  }
  return totals;
}

/** picked ÷ contracted × 100 with one decimal (halves up); null when the block holds no room. */
export function percentPicked(totals: PickupTotals): number | null {
  if (totals.contracted === 0) return null;
  return Number(divideRoundingHalfUp(BigInt(totals.picked) * 1000n, BigInt(totals.contracted))) / 10;
}

export interface AttritionTerms {
  rooms: RoomRates;
  /** Share of the block that may go unused without charge; null when the contract does not say. */
  attritionPercent: number | null;
  attritionBasis: AttritionBasis;
  /** Share of the rate charged per unused room night beyond the allowance, 0–100. */
  attritionChargePercent: number;
}

export interface AttritionOwed {
  /** The room nights charged for. */
  roomNights: number;
  /** In the contract's currency. */
  amount: number;
  /** The nightly basis only: the rooms charged per night and type (cells with none left out). */
  charged: Record<string, Partial<Record<RoomType, number>>> | null;
}

/** ⌈rooms × (100 − attrition%) / 100⌉: the rooms that must be filled for no charge. */
export function roomsRequired(contracted: number, attritionPercent: number): number {
  const kept = BigInt(contracted) * (10_000n - toBasisPoints(attritionPercent));
  return Number((kept + 9_999n) / 10_000n);
}

/**
 * What the venue may charge if the event were held with today's pickup (D30), or null when the
 * contract gives no attrition percent (its terms are unknown, not zero).
 *
 * - cumulative: max(0, ⌈contracted room nights × (1 − attrition%)⌉ − picked room nights) × the average
 *   contracted rate (Σ count × rate ÷ Σ count) × chargePercent; every picked room night counts, an
 *   over-filled night making up for a short one.
 * - nightly: the same per night and room type, at that cell's rate, counting at most the rooms
 *   contracted that night (a night filled over its block makes up for nothing), summed.
 */
export function attritionOwed(terms: AttritionTerms, grid: PickupGrid): AttritionOwed | null {
  if (terms.attritionPercent === null) return null;
  const attrition = terms.attritionPercent;
  const charge = toBasisPoints(terms.attritionChargePercent);
  if (terms.attritionBasis === 'cumulative') {
    let contracted = 0;
    let roomsCents = 0n;
    for (const cells of Object.values(terms.rooms)) {
      for (const cell of Object.values(cells)) {
        contracted += cell.count;
        roomsCents += BigInt(cell.count) * toCents(cell.rate);
      }
    }
    const picked = pickupTotals(grid).picked;
    const roomNights = Math.max(0, roomsRequired(contracted, attrition) - picked);
    if (roomNights === 0) return { roomNights: 0, amount: 0, charged: null };
    // roomNights × (roomsCents ÷ contracted) × charge ÷ 10,000, divided once.
    const cents = divideRoundingHalfUp(
      BigInt(roomNights) * roomsCents * charge,
      BigInt(contracted) * 10_000n,
    );
    return { roomNights, amount: fromCents(cents), charged: null };
  }
  let roomNights = 0;
  let numerator = 0n;
  const charged: Record<string, Partial<Record<RoomType, number>>> = {};
  for (const [night, cells] of Object.entries(terms.rooms)) {
    for (const [roomType, cell] of Object.entries(cells) as Array<
      [RoomType, { count: number; rate: number }]
    >) {
      const picked = Math.min(grid[night]?.[roomType]?.picked ?? 0, cell.count);
      const rooms = Math.max(0, roomsRequired(cell.count, attrition) - picked);
      if (rooms === 0) continue;
      charged[night] = { ...charged[night], [roomType]: rooms };
      roomNights += rooms;
      numerator += BigInt(rooms) * toCents(cell.rate) * charge;
    }
  }
  return { roomNights, amount: fromCents(divideRoundingHalfUp(numerator, 10_000n)), charged };
}

export interface CancellationCost {
  /** The step that applies today; null when none does yet. */
  step: CancellationStep | null;
  /** Days from today to the first day (negative once it has passed). */
  daysBefore: number;
  /** The step's share of the total, in the contract's currency; 0 when no step applies. */
  amount: number;
}

/**
 * What cancelling on `today` would cost: the ladder's step nearest the first day among those that apply
 * (cancelled fewer than `daysBefore` days before the first day), times the contract's total. A ladder
 * never charges less nearer the event (checkCancellationLadder), so that step charges the most.
 */
export function cancellationCost(
  ladder: readonly CancellationStep[],
  firstDay: string,
  today: string,
  totalCents: bigint,
): CancellationCost {
  const daysBefore = dayNumber(firstDay)! - dayNumber(today)!;
  let step: CancellationStep | null = null;
  for (const candidate of ladder) {
    if (daysBefore < candidate.daysBefore && (step === null || candidate.daysBefore < step.daysBefore)) {
      step = candidate;
    }
  }
  const amount = step === null ? 0 : fromCents(percentOfCents(totalCents, toBasisPoints(step.percent)));
  return { step, daysBefore, amount };
}
