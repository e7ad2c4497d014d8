/**
 * A request body read as the service reads it (D14 and I-JSON, RFC 7493): JSON whose every parser
 * agrees, so a key repeated in one object, a number beyond ±(2^53 − 1), an unpaired surrogate escape
 * or nesting deeper than 32 levels is a 400 naming where it is.
 *
 * A valid body is proven so cheaply: the keys in the text (colons outside strings) are counted
 * against the keys JSON.parse kept, and the parsed value is walked once for numbers, depth and, when
 * the text has any escape, surrogates. Only a body with a hazard is scanned character by character,
 * to name the first hazard in the text.
 */
import { closingQuote, holdsNoHazard, keysWritten } from '../../src/http/json-body.js';
import { fieldPath, type Problem } from './checks.js';
import { badBody, invalid } from './refusal.js';

const MAX_DEPTH = 32;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const TOO_DEEP = `nests deeper than ${MAX_DEPTH} levels`;
const DUPLICATE_KEY = 'appears more than once in one object';
const LONE_SURROGATE_ESCAPE = 'contains an unpaired surrogate (\\uD800-\\uDFFF)';
const INEXACT_NUMBER = `is a number beyond what JSON can carry exactly (at most ${Number.MAX_SAFE_INTEGER} in size)`;

const inexact = (value: number) => !Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER;

interface Frame {
  keys: Set<string> | undefined;
  key: string;
  index: number;
}

function hazardAt(frames: Frame[], code: string, message: string): Problem {
  let path = '';
  for (const frame of frames) path = frame.keys ? fieldPath(path, frame.key) : fieldPath(path, frame.index);
  return { field: path === '' ? 'body' : path, code, message };
}

/** The first hazard in the text, read character by character (only for a body known to have one). */
function firstHazard(text: string): Problem | undefined {
  const frames: Frame[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '{' || c === '[') {
      if (frames.length >= MAX_DEPTH) return hazardAt(frames, 'too_deep', TOO_DEEP);
      frames.push({ keys: c === '{' ? new Set() : undefined, key: '', index: 0 });
      expectKey = c === '{';
      i++;
    } else if (c === '}' || c === ']') {
      frames.pop();
      expectKey = false;
      i++;
    } else if (c === ',') {
      const top = frames[frames.length - 1]!;
      if (top.keys) expectKey = true;
      else top.index++;
      i++;
    } else if (c === '"') {
      const end = closingQuote(text, i);
      const raw = text.slice(i + 1, end);
      const escaped = raw.includes('\\');
      const value = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
      if (expectKey) {
        const top = frames[frames.length - 1]!;
        const duplicate = top.keys!.has(value);
        top.keys!.add(value);
        top.key = value;
        expectKey = false;
        if (duplicate) return hazardAt(frames, 'duplicate_key', DUPLICATE_KEY);
      }
      if (escaped && LONE_SURROGATE.test(value))
        return hazardAt(frames, 'invalid_characters', LONE_SURROGATE_ESCAPE);
      i = end + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let end = i + 1;
      while (end < text.length && '0123456789.eE+-'.includes(text[end]!)) end++;
      if (inexact(Number(text.slice(i, end)))) return hazardAt(frames, 'out_of_range', INEXACT_NUMBER);
      i = end;
    } else i++;
  }
  return undefined;
}

/** The body as a JSON object, or a 400 Refusal saying what is wrong with it. */
export function parseObjectBody(text: string): Record<string, unknown> {
  if (text === '') throw badBody('required', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badBody('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  const keys = { count: 0 };
  if (!holdsNoHazard(value, 1, text.includes('\\'), keys) || keys.count !== keysWritten(text)) {
    const hazard = firstHazard(text);
    if (hazard) throw invalid([hazard]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid([
      { field: 'body', code: 'invalid_type', message: 'The request body must be a JSON object.' },
    ]);
  }
  return value as Record<string, unknown>;
}
