import { describe, expect, it } from 'vitest';
import { fieldPath, Problems } from './problems.js';

describe('fieldPath', () => {
  it('writes object keys with dots and array indexes in brackets', () => {
    expect(fieldPath('', 'name')).toBe('name');
    expect(fieldPath('accommodations', '2026-05-02')).toBe('accommodations.2026-05-02');
    expect(fieldPath(fieldPath('agendaOperations', 3), 'session')).toBe('agendaOperations[3].session');
  });
});

describe('Problems', () => {
  it('collects problems in the order they are found', () => {
    const problems = new Problems();
    expect(problems.empty).toBe(true);
    problems.add('a', 'x', 'first');
    problems.add('b', 'y', 'second');
    expect(problems.empty).toBe(false);
    expect(problems.list).toEqual([
      { field: 'a', code: 'x', message: 'first' },
      { field: 'b', code: 'y', message: 'second' },
    ]);
  });

  it('records through a renamed view into the same list, renaming only the matching prefix', () => {
    const problems = new Problems();
    const view = problems.renamed('meetingRoomDates', 'eventDates');
    view.add('meetingRoomDates[0].endDate', 'out_of_range', 'm');
    view.add('name', 'empty', 'm');
    expect(problems.list.map((p) => p.field)).toEqual(['eventDates[0].endDate', 'name']);
    expect(view.empty).toBe(false);
  });
});
