import { describe, expect, it } from 'vitest';
import { ValidationError } from '../domain/errors.js';
import { parseJsonBody } from './json-body.js';

function hazardOf(text: string) {
  try {
    parseJsonBody(text);
  } catch (error) {
    if (error instanceof ValidationError) return error.problems.map((p) => [p.field, p.code]);
    throw error;
  }
  return undefined;
}

describe('parseJsonBody: I-JSON (RFC 7493)', () => {
  it('takes a sound body whose strings hold colons, braces, quotes and escaped pairs', () => {
    const text = String.raw`{"a":"x: {\"y\": [1, 2]}, z:","b":[{"c":"\ud83c\udf89 :"},{"c":9007199254740991}],"d\"e":{"f:":-1.5e3}}`;
    expect(parseJsonBody(text)).toEqual(JSON.parse(text));
  });

  it('refuses a key repeated in an object inside an array, even when the counts of other objects hide nothing', () => {
    expect(hazardOf('{"agenda":[{"title":"a"},{"title":"b","title":"c"}]}')).toEqual([
      ['agenda[1].title', 'duplicate_key'],
    ]);
  });

  it('refuses a key repeated where a string before it holds a colon', () => {
    expect(hazardOf('{"notes":"a:b","notes":"c"}')).toEqual([['notes', 'duplicate_key']]);
  });

  it('refuses what parsing alone would change: a number past 2^53 − 1 and a lone surrogate escape', () => {
    expect(hazardOf('{"n":[1,9007199254740992]}')).toEqual([['n[1]', 'out_of_range']]);
    expect(hazardOf(String.raw`{"t":{"u":"\ud83c"}}`)).toEqual([['t.u', 'invalid_characters']]);
  });
});
