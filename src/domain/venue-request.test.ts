import { describe, expect, it } from 'vitest';
import { STATUSES } from './types.js';
import {
  DECLINE_REASON_LABELS,
  DECLINE_REASONS,
  isClosedRequest,
  isOpenRequest,
  isRequestStatus,
  isSourcing,
  REQUEST_STAGE,
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  TURN_DOWN_REASON_LABELS,
  TURN_DOWN_REASONS,
} from './venue-request.js';

describe('request statuses (D21)', () => {
  it('are open exactly while sent, viewed or proposed, and closed once final', () => {
    expect(REQUEST_STATUSES.filter(isOpenRequest)).toEqual(['sent', 'viewed', 'proposed']);
    expect(REQUEST_STATUSES.filter(isClosedRequest)).toEqual([
      'turned_down',
      'awarded',
      'declined',
      'withdrawn',
      'no_response',
    ]);
    expect(REQUEST_STAGE.shortlisted).toBe('shortlist');
  });

  it('recognises the nine statuses and nothing else', () => {
    expect(REQUEST_STATUSES.every(isRequestStatus)).toBe(true);
    expect(isRequestStatus('expired')).toBe(false);
  });

  it('has words for every status and every reason, and no two alike', () => {
    for (const labels of [REQUEST_STATUS_LABELS, TURN_DOWN_REASON_LABELS, DECLINE_REASON_LABELS]) {
      const words = Object.values(labels);
      expect(new Set(words).size).toBe(words.length);
      for (const word of words) expect(word).toMatch(/^[A-Z][a-z]/);
    }
    expect(Object.keys(REQUEST_STATUS_LABELS)).toEqual([...REQUEST_STATUSES]);
    expect(Object.keys(TURN_DOWN_REASON_LABELS)).toEqual([...TURN_DOWN_REASONS]);
    expect(Object.keys(DECLINE_REASON_LABELS)).toEqual([...DECLINE_REASONS]);
  });
});

describe('isSourcing', () => {
  it('is over once the event is booked, completed or cancelled', () => {
    expect(STATUSES.filter((status) => !isSourcing(status))).toEqual(['booked', 'completed', 'cancelled']);
  });
});
