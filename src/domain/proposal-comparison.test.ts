import { describe, expect, it } from 'vitest';
import { bestCoverage, type ComparedProposal, comparisonMarks, lowestTotals } from './proposal-comparison.js';

function compared(
  requestId: string,
  currency: string,
  total: number,
  covered: number,
  requested = 70,
): ComparedProposal {
  return {
    requestId,
    currency,
    totals: { total },
    coverage: { coveredRoomNights: covered, requestedRoomNights: requested },
  };
}

describe('lowestTotals', () => {
  it('marks the lowest total among proposals in one currency', () => {
    expect(
      lowestTotals([
        compared('a', 'EUR', 27504.15, 58),
        compared('b', 'EUR', 25990, 70),
        compared('c', 'EUR', 31000, 40),
      ]),
    ).toEqual({
      EUR: ['b'],
    });
  });

  it('never compares across currencies: the lowest is decided within each currency', () => {
    // 9,000 USD is not "lower" than 10,000 EUR: they are never compared.
    expect(
      lowestTotals([
        compared('a', 'EUR', 10000, 0),
        compared('b', 'USD', 9000, 0),
        compared('c', 'EUR', 12000, 0),
        compared('d', 'USD', 9500, 0),
      ]),
    ).toEqual({ EUR: ['a'], USD: ['b'] });
  });

  it('marks every proposal tied for lowest, and none when all tie or one stands alone', () => {
    expect(
      lowestTotals([
        compared('a', 'EUR', 100, 0),
        compared('b', 'EUR', 100, 0),
        compared('c', 'EUR', 120, 0),
      ]),
    ).toEqual({
      EUR: ['a', 'b'],
    });
    expect(lowestTotals([compared('a', 'EUR', 100, 0), compared('b', 'EUR', 100, 0)])).toEqual({});
    expect(lowestTotals([compared('a', 'EUR', 100, 0), compared('b', 'USD', 90, 0)])).toEqual({});
    expect(lowestTotals([])).toEqual({});
  });

  it('compares to the cent, not by floating-point noise', () => {
    expect(
      lowestTotals([
        compared('a', 'EUR', 0.1 + 0.2, 0),
        compared('b', 'EUR', 0.3, 0),
        compared('c', 'EUR', 0.31, 0),
      ]),
    ).toEqual({
      EUR: ['a', 'b'],
    });
  });
});

describe('bestCoverage', () => {
  it('marks the proposals covering the most requested room nights, whatever their currency', () => {
    expect(
      bestCoverage([
        compared('a', 'EUR', 1, 58),
        compared('b', 'USD', 1, 70),
        compared('c', 'EUR', 1, 70),
        compared('d', 'EUR', 1, 12),
      ]),
    ).toEqual(['b', 'c']);
  });

  it('marks none when the event asks for no rooms or when every proposal covers the same', () => {
    expect(bestCoverage([compared('a', 'EUR', 1, 0, 0), compared('b', 'EUR', 1, 0, 0)])).toEqual([]);
    expect(bestCoverage([compared('a', 'EUR', 1, 0), compared('b', 'EUR', 1, 0)])).toEqual([]);
    expect(bestCoverage([compared('a', 'EUR', 1, 70)])).toEqual([]);
  });
});

describe('comparisonMarks', () => {
  it('gives both marks at once', () => {
    expect(comparisonMarks([compared('a', 'EUR', 100, 70), compared('b', 'EUR', 90, 60)])).toEqual({
      lowestTotal: { EUR: ['b'] },
      bestCoverage: ['a'],
    });
  });
});
