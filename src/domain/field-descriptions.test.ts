import { describe, expect, it } from 'vitest';
import {
  checkFieldValue,
  emptyValue,
  type FieldDescription,
  fieldLabels,
  mergeResource,
  readNewResource,
  type WritableFieldDescription,
} from './field-descriptions.js';
import { INVALID, Problems } from './problems.js';

const NOW = '2027-03-10T15:00:00.000Z';

const SAMPLE = [
  { name: 'id', label: 'Id', access: 'read_only', source: 'service' },
  {
    name: 'title',
    label: 'Title',
    access: 'writable',
    kind: { type: 'line', maxLength: 20 },
    required: true,
    whenNull: 'refused',
  },
  {
    name: 'size',
    label: 'Size',
    access: 'writable',
    kind: { type: 'count' },
    required: false,
    whenNull: 'null',
  },
  {
    name: 'tags',
    label: 'Tags',
    access: 'writable',
    kind: { type: 'cancellation_ladder' },
    required: false,
    whenNull: 'empty_list',
  },
  {
    name: 'mode',
    label: 'Mode',
    access: 'writable',
    kind: { type: 'choice', choices: ['a', 'b'] },
    required: false,
    whenNull: 'null',
    default: { value: 'a' },
  },
  {
    name: 'money',
    label: 'Money',
    access: 'writable',
    kind: { type: 'currency' },
    required: false,
    whenNull: 'null',
    default: { fromEvent: 'currency' },
  },
  { name: 'total', label: 'Total', access: 'read_only', source: 'computed' },
] as const satisfies readonly FieldDescription[];

function read(body: Record<string, unknown>, defaults?: Record<string, unknown>) {
  const problems = new Problems();
  const values = readNewResource(SAMPLE, body, problems, { now: NOW, ignored: ['organizationId'], defaults });
  return { values, problems: problems.list.map((problem) => [problem.field, problem.code]) };
}

function merge(current: Record<string, unknown>, patch: Record<string, unknown>) {
  const problems = new Problems();
  const values = mergeResource(SAMPLE, current, patch, problems, { now: NOW, ignored: ['organizationId'] });
  return { values, problems: problems.list.map((problem) => [problem.field, problem.code]) };
}

describe('readNewResource', () => {
  it('gives absent fields their default or their empty value, in table order', () => {
    const { values, problems } = read({ title: 'T' }, { money: 'EUR' });
    expect(problems).toEqual([]);
    expect(values).toEqual({ title: 'T', size: null, tags: [], mode: 'a', money: 'EUR' });
    expect(Object.keys(values)).toEqual(['title', 'size', 'tags', 'mode', 'money']);
  });

  it('treats null like an absent field on create', () => {
    expect(read({ title: 'T', size: null, mode: null }).values).toMatchObject({ size: null, mode: 'a' });
  });

  it('reports every problem at once: missing, read-only, computed, unknown and invalid', () => {
    expect(read({ id: 'x', total: 3, colour: 'red', size: -1, organizationId: 'ignored' }).problems).toEqual([
      ['id', 'read_only'],
      ['total', 'read_only'],
      ['colour', 'unknown_field'],
      ['title', 'required'],
      ['size', 'out_of_range'],
    ]);
  });
});

describe('mergeResource', () => {
  const current = {
    id: 'v1',
    title: 'Old',
    size: 3,
    tags: [{ daysBefore: 3, percent: 10 }],
    mode: 'b',
    money: 'USD',
  };

  it('leaves omitted fields alone, clears with null and replaces with a value', () => {
    const { values, problems } = merge(current, { size: null, tags: null, title: 'New' });
    expect(problems).toEqual([]);
    expect(values).toEqual({ ...current, title: 'New', size: null, tags: [] });
  });

  it('refuses to clear a required field', () => {
    expect(merge(current, { title: null }).problems).toEqual([['title', 'required']]);
  });

  it('ignores a read-only field sent back unchanged and refuses a changed one', () => {
    expect(merge(current, { id: 'v1', total: null }).problems).toEqual([]);
    expect(merge(current, { id: 'v2', total: 5 }).problems).toEqual([
      ['id', 'read_only'],
      ['total', 'read_only'],
    ]);
  });

  it('refuses unknown fields, ignores the ignored ones and never modifies its input', () => {
    const before = structuredClone(current);
    expect(merge(current, { colour: 'red', organizationId: 'x', title: 'Newer' }).problems).toEqual([
      ['colour', 'unknown_field'],
    ]);
    expect(current).toEqual(before);
  });
});

describe('checkFieldValue', () => {
  const field = (kind: WritableFieldDescription['kind']): WritableFieldDescription => ({
    name: 'f',
    label: 'F',
    access: 'writable',
    kind,
    required: false,
    whenNull: 'null',
  });
  const check = (description: WritableFieldDescription, value: unknown) => {
    const problems = new Problems();
    const result = checkFieldValue(description, value, 'f', problems, { now: NOW });
    return { result, codes: problems.list.map((problem) => problem.code) };
  };

  it('refuses a date in the past only when the kind says so, judged anywhere on Earth', () => {
    // At 15:00 UTC on the 10th it is already the 10th in UTC−12: the 9th has ended everywhere.
    expect(check(field({ type: 'date', notInPast: true }), '2027-03-09').codes).toEqual(['in_the_past']);
    expect(check(field({ type: 'date', notInPast: true }), '2027-03-10').result).toBe('2027-03-10');
    expect(check(field({ type: 'date', notInPast: false }), '2020-01-01').result).toBe('2020-01-01');
  });

  it('checks currencies and choices', () => {
    expect(check(field({ type: 'currency' }), 'EUR').result).toBe('EUR');
    expect(check(field({ type: 'currency' }), 'eur').codes).toEqual(['invalid_value']);
    expect(check(field({ type: 'choice', choices: ['x', 'y'] }), 'z')).toEqual({
      result: INVALID,
      codes: ['invalid_value'],
    });
  });
});

describe('emptyValue and fieldLabels', () => {
  it('gives a new empty value each time and the labels by name', () => {
    const tags = SAMPLE[3];
    const first = emptyValue(tags);
    expect(first).toEqual([]);
    expect(emptyValue(tags)).not.toBe(first);
    expect(fieldLabels(SAMPLE)).toMatchObject({ title: 'Title', total: 'Total' });
  });
});
