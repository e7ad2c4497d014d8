/**
 * Shape checks for the values venues and proposals add to those of values.ts: one line of text, an
 * email address, an https URL and a percent. Each records its problem and returns INVALID on failure.
 */
import { mailAddressProblem } from './mail.js';
import { type Checked, INVALID, type Problems } from './problems.js';
import { checkAmount, checkText, describeType } from './values.js';

/** CR, LF and the other line separators: text that may end up in a mail header must hold none. */
const LINE_BREAKS = new Set(['\r', '\n', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029']);

/** What keeps text from being one clean line: a line break, another control character, or nothing. */
function lineFault(text: string): 'line_break' | 'control_character' | undefined {
  let fault: 'control_character' | undefined;
  for (const character of text) {
    if (LINE_BREAKS.has(character)) return 'line_break';
    const code = character.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) fault = 'control_character';
  }
  return fault;
}

/**
 * The HTML standard's "valid email address" (what a browser's `<input type=email>` accepts): one
 * address, no display name, no list, no quoted or bracketed parts.
 */
const EMAIL_ADDRESS =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The longest address SMTP can carry (RFC 5321's 256-character path, less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

export interface LineOptions {
  max: number;
  nonEmpty?: boolean;
}

/** Text on one line: no line breaks (it may reach a mail header) and no other control characters. */
export function checkLine(
  value: unknown,
  path: string,
  problems: Problems,
  options: LineOptions,
): Checked<string> {
  const text = checkText(value, path, problems, options);
  if (text === INVALID) return INVALID;
  const fault = lineFault(text);
  if (fault === 'line_break') {
    problems.add(path, 'line_break', 'must be a single line, without line breaks');
    return INVALID;
  }
  if (fault === 'control_character') {
    problems.add(path, 'invalid_characters', 'must not contain control characters such as tabs');
    return INVALID;
  }
  return text;
}

export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL_ADDRESS.test(text);
}

/** One email address, such as `sales@hotel.example`, of at most `max` (and never more than 254) characters. */
export function checkEmailAddress(
  value: unknown,
  path: string,
  problems: Problems,
  max: number = EMAIL_MAX_LENGTH,
): Checked<string> {
  const text = checkLine(value, path, problems, { max: Math.min(max, EMAIL_MAX_LENGTH), nonEmpty: true });
  if (text === INVALID) return INVALID;
  if (!EMAIL_ADDRESS.test(text)) {
    problems.add(
      path,
      'invalid_format',
      'must be one email address such as sales@hotel.example (no name, no list, no spaces)',
    );
    return INVALID;
  }
  // Also one that mail can be sent to (mail.ts): a browser accepts a few that SMTP does not carry.
  const undeliverable = mailAddressProblem(text);
  if (undeliverable) {
    problems.add(path, 'invalid_format', undeliverable);
    return INVALID;
  }
  return text;
}

/** An absolute `https://` URL with a host and no user name or password, kept as written. */
export function checkHttpsUrl(
  value: unknown,
  path: string,
  problems: Problems,
  max: number,
): Checked<string> {
  const text = checkLine(value, path, problems, { max, nonEmpty: true });
  if (text === INVALID) return INVALID;
  let url: URL | undefined;
  try {
    url = /\s/.test(text) ? undefined : new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.hostname === '') {
    problems.add(path, 'invalid_format', 'must be an https:// address such as https://hotel.example');
    return INVALID;
  }
  if (url.username !== '' || url.password !== '') {
    problems.add(path, 'invalid_format', 'must not contain a user name or password');
    return INVALID;
  }
  return text;
}

/** A percent from 0 to 100 with at most two decimals. */
export function checkPercent(value: unknown, path: string, problems: Problems): Checked<number> {
  if (typeof value !== 'number') {
    problems.add(path, 'invalid_type', `must be a number from 0 to 100, not ${describeType(value)}`);
    return INVALID;
  }
  const amount = checkAmount(value, path, problems);
  if (amount === INVALID) return INVALID;
  if (amount > 100) {
    problems.add(path, 'out_of_range', 'must be at most 100');
    return INVALID;
  }
  return amount;
}
