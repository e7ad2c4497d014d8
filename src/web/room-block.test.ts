import { describe, expect, it } from 'vitest';
import { roomBlock } from './room-block.js';

describe('the room block', () => {
  it('totals each night, each room type, the peak night and the room nights', () => {
    const block = roomBlock({
      '2027-03-02': { Single: 30, Double: 12 },
      '2027-03-01': { Single: 10, Suite: 2 },
      '2027-03-03': {},
    });
    expect(block.nights.map((night) => [night.night, night.total])).toEqual([
      ['2027-03-01', 12],
      ['2027-03-02', 42],
      ['2027-03-03', 0],
    ]);
    expect(block.totalsByType).toMatchObject({ Single: 40, Double: 12, Suite: 2, Twin: 0 });
    expect(block.peak).toEqual({ night: '2027-03-02', rooms: 42 });
    expect(block.roomNights).toBe(54);
  });

  it('names the earliest of equal nights as the peak, and none when no room is booked', () => {
    expect(roomBlock({ '2027-03-02': { VIP: 5 }, '2027-03-01': { Staff: 5 } }).peak?.night).toBe(
      '2027-03-01',
    );
    expect(roomBlock({ '2027-03-01': {} }).peak).toBeUndefined();
    expect(roomBlock({}).roomNights).toBe(0);
  });
});
