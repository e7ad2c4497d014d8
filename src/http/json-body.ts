/**
 * Request bodies are I-JSON (RFC 7493): JSON that every parser reads the same way. `JSON.parse`
 * alone accepts duplicate keys (last one wins), unpaired surrogate escapes, and numbers it cannot
 * represent (`1E400` becomes Infinity, 2^53 + 1 becomes 2^53). A sound body is proven so without
 * copying anything out of its text: the keys written in it (the colons outside strings) are counted
 * against the keys JSON.parse kept, and the parsed value is walked once for its numbers, its depth
 * and, when the text has an escape, lone surrogates. Only a body that fails that proof is scanned
 * character by character (findJsonHazard), to name its first hazard in a 400.
 */
import { type Problem, ValidationError } from '../domain/errors.js';
import { fieldPath } from '../domain/problems.js';

/** The largest request body accepted (413 above it). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The event model nests five levels deep; anything far deeper is refused before any code recurses into it. */
export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A number without exponent whose integer part has at most this many digits is below 2^53. */
const SAFE_DIGITS = 15;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

interface Frame {
  /** Keys seen so far; undefined for an array. */
  keys: Set<string> | undefined;
  key: string;
  index: number;
}

/** Parses a body; throws SyntaxError for malformed JSON, ValidationError for an I-JSON hazard. */
export function parseJsonBody(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const keys = { count: 0 };
  if (holdsNoHazard(value, 1, text.includes('\\'), keys) && keys.count === keysWritten(text)) return value;
  const hazard = findJsonHazard(text);
  if (hazard) throw new ValidationError([hazard]);
  return value;
}

/** Whether a number parsed lost nothing: finite and within ±(2^53 − 1). */
const isExact = (number: number) => Number.isFinite(number) && Math.abs(number) <= Number.MAX_SAFE_INTEGER;

/**
 * Whether `value`, parsed at nesting `depth`, is free of every hazard its parse can show (numbers,
 * depth, lone surrogates when `escapes`); counts the keys of its objects into `keys`.
 */
export function holdsNoHazard(
  value: unknown,
  depth: number,
  escapes: boolean,
  keys: { count: number },
): boolean {
  if (typeof value === 'number') return isExact(value);
  if (typeof value === 'string') return !escapes || !LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!holdsNoHazard(item, depth + 1, escapes, keys)) return false;
    return true;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    keys.count++;
    if (escapes && LONE_SURROGATE.test(key)) return false;
    if (!holdsNoHazard(object[key], depth + 1, escapes, keys)) return false;
  }
  return true;
}

/** The keys written in `text` (valid JSON): each is followed by a colon, and no other colon stands outside a string. */
export function keysWritten(text: string): number {
  let count = 0;
  let nextQuote = text.indexOf('"');
  let nextColon = text.indexOf(':');
  while (nextColon !== -1) {
    if (nextQuote === -1 || nextColon < nextQuote) {
      count++;
      nextColon = text.indexOf(':', nextColon + 1);
      continue;
    }
    const end = closingQuote(text, nextQuote);
    nextQuote = text.indexOf('"', end + 1);
    if (nextColon < end) nextColon = text.indexOf(':', end + 1);
  }
  return count;
}

/** The first hazard in `text`, which must already be valid JSON; undefined when there is none. */
export function findJsonHazard(text: string): Problem | undefined {
  const stack: Frame[] = [];
  let expectKey = false;
  let i = 0;
  // Where the next backslash is (-1: none left): a string without one is taken as it is, and only
  // a key's text is copied out. Moved on only when passed, so the text is searched once.
  let nextBackslash = text.indexOf('\\');
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (stack.length >= MAX_JSON_DEPTH) {
        return problem(stack, 'too_deep', `nests deeper than ${MAX_JSON_DEPTH} levels`);
      }
      stack.push({ keys: c === OPEN_OBJECT ? new Set() : undefined, key: '', index: 0 });
      expectKey = c === OPEN_OBJECT;
      i++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
      expectKey = false;
      i++;
    } else if (c === COMMA) {
      const top = stack[stack.length - 1]!;
      if (top.keys) expectKey = true;
      else top.index++;
      i++;
    } else if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf('\\', i);
      const escaped = nextBackslash !== -1 && nextBackslash < end;
      if (expectKey || escaped) {
        const raw = text.slice(i + 1, end);
        const value = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (expectKey) {
          const top = stack[stack.length - 1]!;
          const duplicate = top.keys!.has(value);
          top.keys!.add(value);
          top.key = value;
          expectKey = false;
          if (duplicate) return problem(stack, 'duplicate_key', 'appears more than once in one object');
        }
        // Raw text arrives as UTF-8, where a lone surrogate cannot be written; only an escape can make one.
        if (escaped && LONE_SURROGATE.test(value)) {
          return problem(stack, 'invalid_characters', 'contains an unpaired surrogate (\\uD800-\\uDFFF)');
        }
      }
      i = end + 1;
    } else if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      // Only an exponent or a long integer part can leave the exactly representable range.
      let end = i + 1;
      let integerDigits = c === MINUS ? 0 : 1;
      let inInteger = true;
      let exponent = false;
      while (end < text.length) {
        const d = text.charCodeAt(end);
        if (d >= 0x30 && d <= 0x39) {
          if (inInteger) integerDigits++;
        } else if (d === 0x2e) {
          inInteger = false;
        } else if (d === 0x65 || d === 0x45) {
          inInteger = false;
          exponent = true;
        } else if (d !== 0x2b && d !== MINUS) {
          break;
        }
        end++;
      }
      if (exponent || integerDigits > SAFE_DIGITS) {
        if (!isExact(Number(text.slice(i, end)))) {
          return problem(
            stack,
            'out_of_range',
            `is a number beyond what JSON can carry exactly (at most ${Number.MAX_SAFE_INTEGER} in size)`,
          );
        }
      }
      i = end;
    } else {
      i++;
    }
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `open`. */
export function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Names the value being read, the way errors name fields (`agendaOperations[3].session.title`). */
function problem(stack: Frame[], code: string, message: string): Problem {
  let path = '';
  for (const frame of stack) path = frame.keys ? fieldPath(path, frame.key) : fieldPath(path, frame.index);
  return { field: path === '' ? 'body' : path, code, message };
}
