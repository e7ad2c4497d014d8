/**
 * The Proposals tab as plain data (D24): one column per request that has a proposal, one row per
 * figure, each cell with the words the page shows and the plain value the CSV writes; the other
 * requests with their status and reason; and each proposal's coverage night by night. The page and the
 * CSV are both drawn from it, so they never disagree. Amounts are in each proposal's own currency and
 * never summed across proposals.
 */
import type { RequestDocument } from '../app/sourcing.js';
import { isPastDate } from '../domain/anywhere-on-earth.js';
import { HOLD_OPTION_LABELS, PROPOSAL_FIELD_LABELS } from '../domain/proposal.js';
import type { ComparisonMarks } from '../domain/proposal-comparison.js';
import { MARK_LABELS } from '../domain/proposal-comparison.js';
import {
  averageNightlyRate,
  BUDGET_LINE_PARTS,
  type BudgetComparison,
  COVERAGE_LABELS,
  type ComparedBudgetLine,
  isOverBudget,
  type ProposalView,
  TOTALS_LABELS,
  type TotalPart,
} from '../domain/proposal-figures.js';
import { type EventDetails, ROOM_TYPES, type RoomType } from '../domain/types.js';
import { isSourcing, type RequestStatus } from '../domain/venue-request.js';
import type { CsvCell } from './csv.js';
import { count, dateRange, day, instant, money, percent } from './format.js';
import { BUDGET_LABELS, declineReasonLabel, requestStatusLabel, turnDownReasonLabel } from './words.js';

/** A figure of one proposal: what the page shows, what the CSV writes, and how it stands out. */
export interface ComparisonCell {
  text: string;
  value: CsvCell;
  /** Words that mark the cell (over budget, a mark, expired), shown beside the figure, never colour alone. */
  flags: string[];
  /** Over budget or expired: the cell is drawn as a warning too. */
  warning?: boolean;
}

export interface ComparisonRow {
  id: string;
  label: string;
  /** The event's budget for the line the row's amount falls under, in the event's currency. */
  budget: { text: string; value: number } | null;
  cells: ComparisonCell[];
}

export interface ComparisonGroup {
  id: string;
  label: string;
  rows: ComparisonRow[];
}

export interface ComparisonColumn {
  requestId: string;
  venueName: string;
  venueCity: string;
  status: RequestStatus;
  /** The request's status in words, with the planner's reason when declined. */
  statusText: string;
  currency: string;
  /** The marks this proposal has, in words ("Lowest total", "Best coverage"). */
  marks: string[];
  /** Its validUntil has passed: it cannot be awarded until the venue revises it. */
  expired: boolean;
  mayAward: boolean;
  mayDecline: boolean;
  /** A standing proposal answering an older version of the request, or expired: the venue may be asked to revise it (D26). */
  mayAskRevision: boolean;
  proposal: ProposalView;
}

/** A request without a proposal: its venue, its status and, when turned down, why. */
export interface OtherRequest {
  requestId: string;
  venueName: string;
  venueCity: string;
  statusText: string;
  reason: string | null;
}

export interface Comparison {
  eventCurrency: string;
  /** Every currency the proposals are in, sorted: more than one means totals are compared within each. */
  currencies: string[];
  columns: ComparisonColumn[];
  groups: ComparisonGroup[];
  others: OtherRequest[];
}

/** What the table reads of the event's sourcing (EventSourcingView). */
export interface ComparisonInput {
  details: Pick<EventDetails, 'currency' | 'budgetBreakdown' | 'accommodations' | 'status'>;
  requests: readonly RequestDocument[];
  marks: ComparisonMarks;
  now: string;
  /** The latest version of the request sent to venues (D26); a proposal answering an older one is marked. */
  latestVersion?: number;
  /** By older version: what changed from it to the latest, each change in words ("Attendees: 140 → 160"). */
  changesSince?: ReadonlyMap<number, readonly string[]>;
}

const NONE = '—';
const textCell = (text: string | null, flags: string[] = []): ComparisonCell => ({
  text: text ?? NONE,
  value: text,
  flags,
});
const amountCell = (amount: number | null, currency: string, flags: string[] = []): ComparisonCell => ({
  text: amount === null ? NONE : money(amount, currency),
  value: amount,
  flags,
});
const percentCell = (value: number | null, missing = 'Not given'): ComparisonCell => ({
  text: value === null ? missing : percent(value),
  value,
  flags: [],
});
const countCell = (value: number): ComparisonCell => ({ text: count(value), value, flags: [] });

/** The status of a request in words; a declined one with the planner's reason. */
function statusText(request: RequestDocument): string {
  const status = requestStatusLabel(request.status);
  if (request.status === 'declined' && request.decision?.reason) {
    return `${status}: ${declineReasonLabel(request.decision.reason)}`;
  }
  return request.overdue ? `${status}, overdue: no answer by the reply date` : status;
}

/** Rooms short per night: "Thu, May 2, 2030: 3 Single, 1 Suite", or None. */
function shortfallText(proposal: ProposalView): string {
  const nights = Object.keys(proposal.coverage.shortfall).sort();
  if (nights.length === 0) return 'None';
  return nights
    .map((night) => {
      const types = proposal.coverage.shortfall[night]!;
      const rooms = ROOM_TYPES.filter((type) => types[type]).map((type) => `${count(types[type]!)} ${type}`);
      return `${day(night)}: ${rooms.join(', ')}`;
    })
    .join('; ');
}

/** "Under 90 days: 25%; under 30 days: 100%" (furthest step first, as kept). */
function cancellationText(proposal: ProposalView): string | null {
  if (proposal.cancellation.length === 0) return null;
  return proposal.cancellation
    .map((step) => `Under ${count(step.daysBefore)} days before: ${percent(step.percent)}`)
    .join('; ');
}

const BUDGET_LINE_WORDS: Record<ComparedBudgetLine, string> = {
  venue: `${BUDGET_LABELS.venue} (guest rooms, room tax, meeting rooms)`,
  fb: BUDGET_LABELS.fb!,
  av: BUDGET_LABELS.av!,
  other: BUDGET_LABELS.other!,
};

/** The budget line an amount row is compared with: a line of one part is compared on that part's row. */
const LINE_OF_PART: Partial<Record<TotalPart, ComparedBudgetLine>> = {
  foodBeverage: 'fb',
  av: 'av',
  other: 'other',
};

/** A proposed amount against its budget line: "Over budget by €1,100.00" or "Within budget". */
function budgetFlags(
  line: BudgetComparison | undefined,
  currency: string,
): { flags: string[]; over: boolean } {
  if (!line) return { flags: [], over: false };
  if (isOverBudget(line)) {
    const by = (Math.round(line.proposed * 100) - Math.round(line.budgeted * 100)) / 100;
    return { flags: [`Over budget by ${money(by, currency)}`], over: true };
  }
  return { flags: ['Within budget'], over: false };
}

function budgetOf(details: ComparisonInput['details'], line: ComparedBudgetLine | undefined) {
  const amount = line === undefined ? undefined : details.budgetBreakdown[line];
  return amount === undefined ? null : { text: money(amount, details.currency), value: amount };
}

/** A row of an amount compared with a budget line (or with none). */
function amountRow(
  id: string,
  label: string,
  line: ComparedBudgetLine | undefined,
  columns: readonly ComparisonColumn[],
  details: ComparisonInput['details'],
  amount: (proposal: ProposalView) => number,
): ComparisonRow {
  const budget = budgetOf(details, line);
  return {
    id,
    label,
    budget,
    cells: columns.map(({ proposal }) => {
      if (!budget || !line) return amountCell(amount(proposal), proposal.currency);
      if (proposal.budget === null) {
        return amountCell(amount(proposal), proposal.currency, [
          `Not compared: the budget is in ${details.currency}`,
        ]);
      }
      const { flags, over } = budgetFlags(proposal.budget[line], proposal.currency);
      return {
        ...amountCell(amount(proposal), proposal.currency, flags),
        ...(over ? { warning: true } : {}),
      };
    }),
  };
}

/** The lines a proposal is over budget on, in words. */
function overBudgetText(proposal: ProposalView): string {
  if (proposal.budget === null) return 'Not compared: another currency';
  const over = (Object.keys(BUDGET_LINE_PARTS) as ComparedBudgetLine[]).filter((line) => {
    const compared = proposal.budget?.[line];
    return compared !== undefined && isOverBudget(compared);
  });
  return over.length === 0 ? 'None' : over.map((line) => BUDGET_LABELS[line]).join(', ');
}

function columnsOf(input: ComparisonInput): ComparisonColumn[] {
  const multipleCurrencies =
    new Set(input.requests.flatMap((request) => (request.proposal ? [request.proposal.currency] : []))).size >
    1;
  return input.requests.flatMap((request) => {
    const proposal = request.proposal;
    if (!proposal) return [];
    const marks: string[] = [];
    if (input.marks.lowestTotal[proposal.currency]?.includes(request.id)) {
      marks.push(
        multipleCurrencies ? `${MARK_LABELS.lowestTotal} in ${proposal.currency}` : MARK_LABELS.lowestTotal,
      );
    }
    if (input.marks.bestCoverage.includes(request.id)) marks.push(MARK_LABELS.bestCoverage);
    const expired = isPastDate(proposal.validUntil, input.now);
    const proposed = request.status === 'proposed';
    return [
      {
        requestId: request.id,
        venueName: request.venue.name,
        venueCity: request.venue.city,
        status: request.status,
        statusText: statusText(request),
        currency: proposal.currency,
        marks,
        expired,
        mayAward: proposed && isSourcing(input.details.status) && !expired,
        mayDecline: proposed && input.details.status !== 'cancelled',
        mayAskRevision:
          proposed &&
          isSourcing(input.details.status) &&
          (expired || proposal.requestVersion < (input.latestVersion ?? 1)),
        proposal,
      },
    ];
  });
}

/** A proposal submitted after its reply date (D28), in words. */
export const LATE_FLAG = 'Late: sent after the reply date';

/** A proposal that answers a version older than the latest (D26), in words. */
export const olderVersionFlag = (latest: number): string =>
  `Answers an earlier version: the request is now at version ${latest}`;

/** The whole comparison: columns, rows in groups, and the requests without a proposal. */
export function proposalComparison(input: ComparisonInput): Comparison {
  const { details } = input;
  const columns = columnsOf(input);
  const each = (make: (column: ComparisonColumn) => ComparisonCell) => columns.map(make);
  const row = (id: string, label: string, make: (column: ComparisonColumn) => ComparisonCell) => ({
    id,
    label,
    budget: null,
    cells: each(make),
  });
  const amount = (id: TotalPart | 'total', line?: ComparedBudgetLine) =>
    amountRow(id, TOTALS_LABELS[id], line, columns, details, (proposal) => proposal.totals[id]);
  const venueParts = BUDGET_LINE_PARTS.venue;

  const groups: ComparisonGroup[] = [
    {
      id: 'offer',
      label: 'The offer',
      rows: [
        row('status', 'Status', (column) => textCell(column.statusText)),
        row('marks', 'Marks', (column) =>
          textCell(column.marks.length === 0 ? null : column.marks.join('; ')),
        ),
        row('offeredDates', PROPOSAL_FIELD_LABELS.offeredDates, ({ proposal }) =>
          textCell(proposal.offeredDates && dateRange(proposal.offeredDates)),
        ),
        row('holdOption', PROPOSAL_FIELD_LABELS.holdOption, ({ proposal }) =>
          textCell(HOLD_OPTION_LABELS[proposal.holdOption]),
        ),
        row('validUntil', PROPOSAL_FIELD_LABELS.validUntil, ({ proposal, expired }) => ({
          text: day(proposal.validUntil),
          value: proposal.validUntil,
          flags: expired ? ['Expired: ask the venue for a revision'] : [],
          ...(expired ? { warning: true } : {}),
        })),
        row('currency', PROPOSAL_FIELD_LABELS.currency, ({ proposal }) => textCell(proposal.currency)),
        row('submittedAt', PROPOSAL_FIELD_LABELS.submittedAt, ({ proposal }) => ({
          text: instant(proposal.submittedAt),
          value: proposal.submittedAt,
          flags: proposal.late ? [LATE_FLAG] : [],
          ...(proposal.late ? { warning: true } : {}),
        })),
        row('requestVersion', PROPOSAL_FIELD_LABELS.requestVersion, ({ proposal }) => {
          const older = proposal.requestVersion < (input.latestVersion ?? 1);
          return {
            text: `Version ${proposal.requestVersion}`,
            value: proposal.requestVersion,
            flags: older
              ? [
                  olderVersionFlag(input.latestVersion ?? 1),
                  ...(input.changesSince?.get(proposal.requestVersion) ?? []).map(
                    (change) => `Changed since: ${change}`,
                  ),
                ]
              : [],
            ...(older ? { warning: true } : {}),
          };
        }),
      ],
    },
    {
      id: 'rooms',
      label: 'Guest rooms',
      rows: [
        row('coverage', `${COVERAGE_LABELS.percent} (%)`, ({ proposal, marks }) => ({
          ...percentCell(proposal.coverage.percent, 'No rooms requested'),
          flags: marks.filter((mark) => mark === MARK_LABELS.bestCoverage),
        })),
        row('coveredRoomNights', COVERAGE_LABELS.coveredRoomNights, ({ proposal }) =>
          countCell(proposal.coverage.coveredRoomNights),
        ),
        row('requestedRoomNights', COVERAGE_LABELS.requestedRoomNights, ({ proposal }) =>
          countCell(proposal.coverage.requestedRoomNights),
        ),
        row('offeredRoomNights', COVERAGE_LABELS.offeredRoomNights, ({ proposal }) =>
          countCell(proposal.coverage.offeredRoomNights),
        ),
        row('shortfall', COVERAGE_LABELS.shortfall, ({ proposal }) => textCell(shortfallText(proposal))),
        row('averageNightlyRate', 'Average nightly rate', ({ proposal }) =>
          amountCell(averageNightlyRate(proposal), proposal.currency),
        ),
      ],
    },
    {
      id: 'costs',
      label: `Costs, each in the proposal’s currency, against the budget in ${details.currency}`,
      rows: [
        amount('rooms'),
        amount('roomTax'),
        amount('meetingRooms'),
        amountRow('venueLine', BUDGET_LINE_WORDS.venue, 'venue', columns, details, (proposal) =>
          venueParts.reduce(
            (sum, part) => (Math.round(sum * 100) + Math.round(proposal.totals[part] * 100)) / 100,
            0,
          ),
        ),
        amount('foodBeverage', LINE_OF_PART.foodBeverage),
        amount('av', LINE_OF_PART.av),
        amount('other', LINE_OF_PART.other),
        {
          ...amount('total'),
          cells: columns.map(({ proposal, marks }) =>
            amountCell(
              proposal.totals.total,
              proposal.currency,
              marks.filter((mark) => mark.startsWith(MARK_LABELS.lowestTotal)),
            ),
          ),
        },
        row('overBudget', 'Over budget on', ({ proposal }) => {
          const text = overBudgetText(proposal);
          return {
            ...textCell(text),
            ...(text !== 'None' && proposal.budget !== null ? { warning: true } : {}),
          };
        }),
      ],
    },
    {
      id: 'terms',
      label: 'Terms',
      rows: [
        row('attritionPercent', PROPOSAL_FIELD_LABELS.attritionPercent, ({ proposal }) =>
          percentCell(proposal.attritionPercent),
        ),
        row('attritionExposureAt80', PROPOSAL_FIELD_LABELS.attritionExposureAt80, ({ proposal }) =>
          proposal.attritionExposureAt80 === null
            ? { text: 'Unknown: no attrition given', value: null, flags: [] }
            : amountCell(proposal.attritionExposureAt80, proposal.currency),
        ),
        row('cancellation', PROPOSAL_FIELD_LABELS.cancellation, ({ proposal }) =>
          textCell(cancellationText(proposal) ?? 'None given'),
        ),
        row('depositPercent', PROPOSAL_FIELD_LABELS.depositPercent, ({ proposal }) =>
          percentCell(proposal.depositPercent),
        ),
        row('commissionPercent', PROPOSAL_FIELD_LABELS.commissionPercent, ({ proposal }) =>
          percentCell(proposal.commissionPercent),
        ),
        row('cutoffDate', PROPOSAL_FIELD_LABELS.cutoffDate, ({ proposal }) => ({
          text: proposal.cutoffDate ? day(proposal.cutoffDate) : 'Not given',
          value: proposal.cutoffDate,
          flags: [],
        })),
        row('notes', PROPOSAL_FIELD_LABELS.notes, ({ proposal }) => textCell(proposal.notes)),
        row('submitted', 'Received', ({ proposal }) =>
          textCell(
            `Revision ${proposal.revision}, ${instant(proposal.submittedAt)}, ${
              proposal.submittedBy === 'venue' ? 'from the venue' : 'entered by a planner'
            }`,
          ),
        ),
      ],
    },
  ];

  const others = input.requests
    .filter((request) => !request.proposal)
    .map((request) => ({
      requestId: request.id,
      venueName: request.venue.name,
      venueCity: request.venue.city,
      statusText: requestStatusLabel(request.status),
      reason: request.turnDown
        ? [turnDownReasonLabel(request.turnDown.reason), request.turnDown.comment].filter(Boolean).join(': ')
        : null,
    }));

  return {
    eventCurrency: details.currency,
    currencies: [...new Set(columns.map((column) => column.currency))].sort(),
    columns,
    groups,
    others,
  };
}

/** The table as CSV rows: a header row (the row's name, the budget, then one column per venue), then one row per figure. */
export function comparisonCsvRows(comparison: Comparison): CsvCell[][] {
  const header: CsvCell[] = [
    'Row',
    `Budget (${comparison.eventCurrency})`,
    ...comparison.columns.map((column) => `${column.venueName}, ${column.venueCity}`),
  ];
  const rows: CsvCell[][] = [header];
  for (const group of comparison.groups) {
    for (const row of group.rows) {
      rows.push([row.label, row.budget?.value ?? null, ...row.cells.map((cell) => cell.value)]);
    }
  }
  return rows;
}

/** One line of a proposal's coverage grid: a night and a room type, requested, offered and short. */
export interface CoverageLine {
  night: string;
  roomType: RoomType;
  requested: number;
  offered: number;
  short: number;
}

/** Night by night and type by type, every room asked for or offered, with what is short. */
export function coverageLines(
  accommodations: EventDetails['accommodations'],
  proposal: Pick<ProposalView, 'rooms'>,
): CoverageLine[] {
  const nights = [...new Set([...Object.keys(accommodations), ...Object.keys(proposal.rooms)])].sort();
  const lines: CoverageLine[] = [];
  for (const night of nights) {
    for (const roomType of ROOM_TYPES) {
      const requested = accommodations[night]?.[roomType] ?? 0;
      const offered = proposal.rooms[night]?.[roomType]?.count ?? 0;
      if (requested === 0 && offered === 0) continue;
      lines.push({ night, roomType, requested, offered, short: Math.max(0, requested - offered) });
    }
  }
  return lines;
}
