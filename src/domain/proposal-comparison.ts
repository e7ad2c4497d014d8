/**
 * The marks of the Proposals tab (D24): the lowest total and the best room-block coverage. Totals in
 * different currencies are never compared: the lowest total is decided within each currency. A mark
 * is given only where it tells proposals apart: when every proposal compared ties (one alone
 * included), none is marked.
 */
import { toCents } from './money.js';
import type { Coverage, ProposalTotals } from './proposal-figures.js';

/** What the marks read of each proposal shown (one per request, its latest revision). */
export interface ComparedProposal {
  requestId: string;
  currency: string;
  totals: Pick<ProposalTotals, 'total'>;
  coverage: Pick<Coverage, 'coveredRoomNights' | 'requestedRoomNights'>;
}

export interface ComparisonMarks {
  /** By currency: the requests whose total is the lowest among the proposals in that currency. */
  lowestTotal: Record<string, string[]>;
  /** The requests whose proposals cover the most requested room nights. */
  bestCoverage: string[];
}

export const MARK_LABELS = {
  lowestTotal: 'Lowest total',
  bestCoverage: 'Best coverage',
} as const;

/** The ids of the items with the best score, or none when every item ties. */
function best<T>(
  items: readonly T[],
  score: (item: T) => bigint,
  prefer: 'lowest' | 'highest',
  id: (item: T) => string,
): string[] {
  if (items.length === 0) return [];
  const scores = items.map(score);
  const target = scores.reduce((a, b) => ((prefer === 'lowest' ? b < a : b > a) ? b : a));
  const winners = items.filter((_, index) => scores[index] === target);
  return winners.length === items.length ? [] : winners.map(id);
}

/** Per currency, the requests with the lowest total in it (ties all marked; none when all tie). */
export function lowestTotals(proposals: readonly ComparedProposal[]): Record<string, string[]> {
  const byCurrency = new Map<string, ComparedProposal[]>();
  for (const proposal of proposals) {
    const group = byCurrency.get(proposal.currency) ?? [];
    group.push(proposal);
    byCurrency.set(proposal.currency, group);
  }
  const marks: Record<string, string[]> = {};
  for (const [currency, group] of [...byCurrency].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const winners = best(
      group,
      (proposal) => toCents(proposal.totals.total),
      'lowest',
      (proposal) => proposal.requestId,
    );
    if (winners.length > 0) marks[currency] = winners;
  }
  return marks;
}

/**
 * The requests covering the most requested room nights (ties all marked). None when the event asks for
 * no rooms or when all tie.
 */
export function bestCoverage(proposals: readonly ComparedProposal[]): string[] {
  const covering = proposals.filter((proposal) => proposal.coverage.requestedRoomNights > 0);
  // Some proposal covering more than another covers more than none: a mark is never for 0 nights.
  return best(
    covering,
    (proposal) => BigInt(proposal.coverage.coveredRoomNights),
    'highest',
    (proposal) => proposal.requestId,
  );
}

export function comparisonMarks(proposals: readonly ComparedProposal[]): ComparisonMarks {
  return { lowestTotal: lowestTotals(proposals), bestCoverage: bestCoverage(proposals) };
}
