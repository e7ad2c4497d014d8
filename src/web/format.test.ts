import { describe, expect, it } from 'vitest';
import { count, dateRange, dateRanges, day, deadline, instant, money, personName } from './format.js';

describe('dashboard formatting', () => {
  it('writes amounts in the event currency with its decimals', () => {
    expect(money(25000, 'USD')).toBe('$25,000.00');
    expect(money(8000.5, 'EUR')).toBe('€8,000.50');
    expect(money(1200, 'JPY')).toBe('¥1,200');
  });

  it('writes calendar dates as written, whatever the server time zone', () => {
    expect(day('2027-03-01')).toBe('Mon, Mar 1, 2027');
    expect(dateRange({ startDate: '2027-03-01', endDate: '2027-03-03' })).toBe(
      'Mon, Mar 1 – Wed, Mar 3, 2027',
    );
    expect(dateRange({ startDate: '2027-12-30', endDate: '2028-01-02' })).toBe(
      'Thu, Dec 30, 2027 – Sun, Jan 2, 2028',
    );
    expect(dateRange({ startDate: '2027-03-01', endDate: '2027-03-01' })).toBe('Mon, Mar 1, 2027');
    expect(dateRanges([])).toBe('—');
  });

  it('writes deadlines as dates or instants in UTC', () => {
    expect(deadline(null)).toBe('—');
    expect(deadline('2027-01-15')).toBe('Fri, Jan 15, 2027');
    expect(deadline('2027-01-15T17:30:00Z')).toBe(instant('2027-01-15T17:30:00Z'));
    expect(instant('2027-01-15T17:30:00Z')).toContain('17:30');
  });

  it('writes the first hour of a day as 00, in the 24-hour form', () => {
    expect(instant('2027-01-15T00:05:00Z')).toBe('Jan 15, 2027, 00:05 UTC');
  });

  it('names counts and people for people', () => {
    expect(count(12345)).toBe('12,345');
    expect(personName({ name: null, email: 'ana@example.com' })).toBe('ana@example.com');
    expect(personName({ name: 'Ana', email: 'ana@example.com' })).toBe('Ana');
  });
});
