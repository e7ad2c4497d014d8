import { describe, expect, it } from 'vitest';
import { copyNight, gridEntries, gridNights, nightRooms } from './room-grid.js';

const GRID = {
  _csrf: 'token',
  version: 'v1',
  'accommodations.2030-05-10.Single': '40',
  'accommodations.2030-05-10.Double': '',
  'accommodations.2030-05-11.Single': '80',
  'accommodations.2030-05-11.Double': '10',
  'accommodations.2030-05-12.Single': '',
  'accommodations.2030-05-12.Double': '',
  removeNight: ['2030-05-12'],
};

describe('the room grid as typed', () => {
  it('reads its nights, its own entries and the rooms of a night as the totals count them', () => {
    expect(gridNights(GRID)).toEqual(['2030-05-10', '2030-05-11', '2030-05-12']);
    expect(Object.keys(gridEntries(GRID))).not.toContain('version');
    expect(nightRooms(GRID, '2030-05-11')).toBe(90);
    expect(nightRooms({ ...GRID, 'accommodations.2030-05-10.Double': 'abc' }, '2030-05-10')).toBe(40);
    expect(nightRooms({ ...GRID, removeNight: '2030-05-11' }, '2030-05-11')).toBe(0);
  });

  it('copies a night as typed onto a range, counting the nights and room nights it adds', () => {
    const copy = copyNight(GRID, '2030-05-11', ['2030-05-10', '2030-05-12', '2030-05-13']);
    expect(copy.values['accommodations.2030-05-10.Single']).toBe('80');
    expect(copy.values['accommodations.2030-05-10.Double']).toBe('10');
    expect(copy.values['accommodations.2030-05-13.Single']).toBe('80');
    expect(copy.values['accommodations.2030-05-13.Twin']).toBe('');
    // The night ticked for removal gets the copy, so it is no longer ticked.
    expect(copy.values.removeNight).toEqual([]);
    expect(copy.nightsAdded).toBe(2);
    expect(copy.roomNightsAdded).toBe(90 - 40 + 90 + 90);
    // Nothing else of the grid changes.
    expect(copy.values['accommodations.2030-05-11.Single']).toBe('80');
    expect(copy.values.version).toBe('v1');
  });

  it('counts a copy of a smaller night as fewer room nights, and no night added', () => {
    const copy = copyNight(GRID, '2030-05-10', ['2030-05-11']);
    expect(copy.values['accommodations.2030-05-11.Double']).toBe('');
    expect(copy.nightsAdded).toBe(0);
    expect(copy.roomNightsAdded).toBe(-50);
  });
});
