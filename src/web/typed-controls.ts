/**
 * The type a form control is drawn with, for the value it shows. A browser keeps only a valid value in
 * a typed control (HTML's value sanitization: `type=number` drops "abc", `type=date` drops
 * "2027-13-45"), so a refused entry shown again in its own type would vanish beside its problem, and the
 * markup would be invalid. Such a value is shown in a text box instead, with the keyboard and pattern of
 * its type.
 */
import { dayNumber } from '../domain/dates.js';

export type TypedControl = 'number' | 'date';

/** HTML's "valid floating-point number". */
const FLOATING_POINT = /^-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/;

/** Whether a browser keeps `value` in a control of `type` (an empty value always stays). */
export function keepsValue(type: TypedControl, value: string): boolean {
  if (value === '') return true;
  switch (type) {
    case 'number':
      return FLOATING_POINT.test(value) && Number.isFinite(Number(value));
    case 'date':
      return dayNumber(value) !== undefined && !value.startsWith('0000');
  }
}

const AS_TEXT: Record<TypedControl, { inputMode?: 'decimal'; pattern: string }> = {
  number: { inputMode: 'decimal', pattern: '-?[0-9]+([.][0-9]+)?' },
  date: { pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}' },
};

/**
 * A time is always a text box with the pattern of a 24-hour time: a `type=time` control shows the
 * reader's 12-hour form in en-US browsers, which the hint ("24-hour") would contradict, and blanks
 * "25:00". A one-digit hour is allowed, as the forms read `9:30` as `09:30`.
 */
const TIME_AS_TEXT = { type: 'text', pattern: '[0-9]{1,2}:[0-9]{2}' } as const;

/** The attributes of a control of `type` showing `value`: that type, or a text box that keeps the value. */
export function controlFor(
  type: string,
  value: string,
): { type: string; inputMode?: 'decimal'; pattern?: string } {
  if (type === 'time') return { ...TIME_AS_TEXT };
  if (type !== 'number' && type !== 'date') return { type };
  return keepsValue(type, value) ? { type } : { type: 'text', ...AS_TEXT[type] };
}
