import { describe, expect, it } from 'vitest';
import type { RequestDocument } from '../app/sourcing.js';
import type { Proposal, ProposalTerms } from '../domain/proposal.js';
import { comparisonMarks } from '../domain/proposal-comparison.js';
import { proposalView } from '../domain/proposal-figures.js';
import { comparisonCsvRows, coverageLines, proposalComparison } from './proposal-table.js';

const details = {
  currency: 'EUR',
  status: 'proposals_received' as const,
  budgetBreakdown: { venue: 10000, fb: 2000, transport: 900 },
  accommodations: { '2030-05-01': { Single: 10 }, '2030-05-02': { Single: 10, Double: 2 } },
};

const terms = (extra: Partial<ProposalTerms> = {}): ProposalTerms => ({
  validUntil: '2030-03-01',
  currency: 'EUR',
  offeredDates: { startDate: '2030-05-01', endDate: '2030-05-03' },
  holdOption: 'none',
  rooms: {
    '2030-05-01': { Single: { count: 10, rate: 100 } },
    '2030-05-02': { Single: { count: 10, rate: 100 }, Double: { count: 2, rate: 150 } },
  },
  meetingRoomRental: 1000,
  foodBeverageMinimum: 1500,
  avEstimate: null,
  otherCharges: null,
  roomTaxPercent: null,
  serviceChargePercent: null,
  attritionPercent: null,
  depositPercent: null,
  commissionPercent: null,
  cutoffDate: null,
  cancellation: [],
  notes: null,
  ...extra,
});

let next = 0;
function request(
  name: string,
  status: RequestDocument['status'],
  proposalTerms?: ProposalTerms,
): RequestDocument {
  const id = `request-${++next}`;
  const proposal: Proposal | undefined = proposalTerms && {
    ...proposalTerms,
    id: `proposal-${next}`,
    requestId: id,
    revision: 1,
    requestVersion: 1,
    late: false,
    submittedAt: '2030-01-10T09:00:00Z',
    submittedBy: 'venue',
  };
  return {
    id,
    eventId: 'event',
    venue: { id: `venue-${next}`, name, email: `${next}@venues.example`, city: 'Lisbon' },
    status,
    responseDueDate: null,
    sentAt: '2030-01-01T00:00:00Z',
    viewedAt: null,
    respondedAt: null,
    turnDown: status === 'turned_down' ? { reason: 'event_too_small', comment: null } : null,
    decision: null,
    remindedAt: null,
    overdue: false,
    proposal: proposal ? proposalView(proposal, details) : null,
    createdAt: '2030-01-01T00:00:00Z',
    updatedAt: '2030-01-01T00:00:00Z',
  };
}

function comparisonOf(requests: RequestDocument[], now = '2030-02-01T12:00:00Z') {
  const standing = requests.flatMap((r) =>
    r.status === 'proposed' && r.proposal ? [{ ...r.proposal, requestId: r.id }] : [],
  );
  return proposalComparison({ details, requests, marks: comparisonMarks(standing), now });
}

const rowOf = (comparison: ReturnType<typeof proposalComparison>, id: string) =>
  comparison.groups.flatMap((group) => group.rows).find((row) => row.id === id)!;

describe('the Proposals tab as data', () => {
  it('gives one column per request with a proposal, and lists the others with their reason', () => {
    const comparison = comparisonOf([
      request('Cheap', 'proposed', terms({ meetingRoomRental: 500 })),
      request('Small', 'turned_down'),
      request('Dear', 'proposed', terms({ meetingRoomRental: 9000 })),
      request('Silent', 'sent'),
    ]);
    expect(comparison.columns.map((column) => column.venueName)).toEqual(['Cheap', 'Dear']);
    expect(comparison.others).toMatchObject([
      { venueName: 'Small', statusText: 'Turned down by the venue', reason: 'The event is too small' },
      { venueName: 'Silent', statusText: 'Sent', reason: null },
    ]);
    expect(comparison.columns[0]!.marks).toEqual(['Lowest total']);
    expect(comparison.columns[1]!.marks).toEqual([]);
  });

  it('marks a late proposal and one that answers an earlier version, in words, in the page and the CSV', () => {
    const late = request('Late', 'proposed', terms());
    const older = request('Older', 'proposed', terms());
    late.proposal = { ...late.proposal!, late: true, requestVersion: 2 };
    older.proposal = { ...older.proposal!, requestVersion: 1 };
    const standing = [late, older].map((r) => ({ ...r.proposal!, requestId: r.id }));
    const comparison = proposalComparison({
      details,
      requests: [late, older],
      marks: comparisonMarks(standing),
      now: '2030-02-01T12:00:00Z',
      latestVersion: 2,
    });
    expect(rowOf(comparison, 'submittedAt').cells.map((cell) => cell.flags)).toEqual([
      ['Late: sent after the reply date'],
      [],
    ]);
    const versions = rowOf(comparison, 'requestVersion').cells;
    expect(versions.map((cell) => [cell.text, cell.flags])).toEqual([
      ['Version 2', []],
      ['Version 1', ['Answers an earlier version: the request is now at version 2']],
    ]);
    expect(versions[1]?.warning).toBe(true);
    expect(comparisonCsvRows(comparison)).toContainEqual(['Answers version', null, 2, 1]);
  });

  it('compares each amount with its budget line, in the event currency only', () => {
    const comparison = comparisonOf([
      request('Over', 'proposed', terms({ meetingRoomRental: 9000 })),
      request('Dollars', 'proposed', terms({ currency: 'USD' })),
    ]);
    const venue = rowOf(comparison, 'venueLine');
    expect(venue.budget).toEqual({ text: '€10,000.00', value: 10000 });
    // Rooms 2,300 + rental 9,000 = 11,300: over the venue line by 1,300.
    expect(venue.cells[0]).toMatchObject({ text: '€11,300.00', value: 11300, warning: true });
    expect(venue.cells[0]!.flags).toEqual(['Over budget by €1,300.00']);
    expect(venue.cells[1]!.flags).toEqual(['Not compared: the budget is in EUR']);
    expect(rowOf(comparison, 'foodBeverage').cells[0]!.flags).toEqual(['Within budget']);
    // No AV line in the budget: nothing to compare with.
    expect(rowOf(comparison, 'av').budget).toBeNull();
    expect(rowOf(comparison, 'av').cells[0]!.flags).toEqual([]);
    expect(rowOf(comparison, 'total').budget).toBeNull();
    expect(rowOf(comparison, 'overBudget').cells.map((cell) => cell.text)).toEqual([
      'Venue',
      'Not compared: another currency',
    ]);
    expect(comparison.currencies).toEqual(['EUR', 'USD']);
  });

  it('marks an expired proposal, which cannot be awarded but may still be declined', () => {
    const comparison = comparisonOf([request('Late', 'proposed', terms({ validUntil: '2030-01-15' }))]);
    const [column] = comparison.columns;
    expect(column).toMatchObject({ expired: true, mayAward: false, mayDecline: true });
    expect(rowOf(comparison, 'validUntil').cells[0]!.flags).toEqual([
      'Expired: ask the venue for a revision',
    ]);
  });

  it('writes the CSV rows: the header, then plain numbers and the page’s words', () => {
    const rows = comparisonCsvRows(
      comparisonOf([
        request('Full', 'proposed', terms()),
        request('Short', 'proposed', terms({ rooms: { '2030-05-01': { Single: { count: 4, rate: 80 } } } })),
      ]),
    );
    expect(rows[0]).toEqual(['Row', 'Budget (EUR)', 'Full, Lisbon', 'Short, Lisbon']);
    expect(rows.find((row) => row[0] === 'Total')).toEqual(['Total', null, 4800, 2820]);
    expect(rows.find((row) => row[0] === 'Coverage (%)')).toEqual(['Coverage (%)', null, 100, 18.2]);
    expect(rows.find((row) => row[0] === 'Rooms short')![3]).toBe(
      'Wed, May 1, 2030: 6 Single; Thu, May 2, 2030: 10 Single, 2 Double',
    );
    expect(new Set(rows.map((row) => row.length))).toEqual(new Set([4]));
  });

  it('lists coverage night by night and type by type, offers beyond the block included', () => {
    const lines = coverageLines(details.accommodations, {
      rooms: {
        '2030-05-02': { Single: { count: 12, rate: 90 } },
        '2030-05-03': { Suite: { count: 1, rate: 300 } },
      },
    });
    expect(lines).toEqual([
      { night: '2030-05-01', roomType: 'Single', requested: 10, offered: 0, short: 10 },
      { night: '2030-05-02', roomType: 'Single', requested: 10, offered: 12, short: 0 },
      { night: '2030-05-02', roomType: 'Double', requested: 2, offered: 0, short: 2 },
      { night: '2030-05-03', roomType: 'Suite', requested: 0, offered: 1, short: 0 },
    ]);
  });
});
