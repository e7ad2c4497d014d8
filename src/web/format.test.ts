import { describe, expect, it } from 'vitest';
import {
  count,
  dateRange,
  dateRanges,
  day,
  deadline,
  instant,
  money,
  personName,
  statusLabel,
} from './format.js';

describe('dashboard formatting', () => {
  it('writes amounts in the event currency with its decimals', () => {
    expect(money(25000, 'USD')).toBe('$25,000.00');
    expect(money(8000.5, 'EUR')).toBe('€8,000.50');
    expect(money(1200, 'JPY')).toBe('¥1,200');
  });

  it('writes calendar dates as written, whatever the server time zone', () => {
    expect(day('2027-03-01')).toBe('Mon, Mar 1, 2027');
    expect(dateRange({ startDate: '2027-03-01', endDate: '2027-03-03' })).toBe('Mar 1 – Wed, Mar 3, 2027');
    expect(dateRange({ startDate: '2027-03-01', endDate: '2027-03-01' })).toBe('Mon, Mar 1, 2027');
    expect(dateRanges([])).toBe('—');
  });

  it('writes deadlines as dates or instants in UTC', () => {
    expect(deadline(null)).toBe('—');
    expect(deadline('2027-01-15')).toBe('Fri, Jan 15, 2027');
    expect(deadline('2027-01-15T17:30:00Z')).toBe(instant('2027-01-15T17:30:00Z'));
    expect(instant('2027-01-15T17:30:00Z')).toContain('17:30');
  });

  it('names statuses, counts and people for people', () => {
    expect(statusLabel('wait_for_proposals')).toBe('Waiting for proposals');
    expect(statusLabel('pending_approval')).toBe('Pending approval');
    expect(count(12345)).toBe('12,345');
    expect(personName({ name: null, email: 'ana@example.com' })).toBe('ana@example.com');
    expect(personName({ name: 'Ana', email: 'ana@example.com' })).toBe('Ana');
  });
});
