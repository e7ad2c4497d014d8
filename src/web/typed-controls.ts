/**
 * The type a form control is drawn with, for the value it shows. A browser keeps only a valid value in
 * a typed control (HTML's value sanitization: `type=time` drops "25:00", `type=number` drops "abc"),
 * so a refused entry shown again in its own type would vanish beside its problem, and the markup would
 * be invalid. Such a value is shown in a text box instead, with the keyboard and pattern of its type.
 */
import { dayNumber } from '../domain/dates.js';

export type TypedControl = 'number' | 'date' | 'time';

/** HTML's "valid floating-point number". */
const FLOATING_POINT = /^-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/;
/** HTML's "valid time string": hours and minutes, with seconds and fractions optional. */
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

/** Whether a browser keeps `value` in a control of `type` (an empty value always stays). */
export function keepsValue(type: TypedControl, value: string): boolean {
  if (value === '') return true;
  switch (type) {
    case 'number':
      return FLOATING_POINT.test(value) && Number.isFinite(Number(value));
    case 'date':
      return dayNumber(value) !== undefined && !value.startsWith('0000');
    case 'time':
      return TIME.test(value);
  }
}

const AS_TEXT: Record<TypedControl, { inputMode?: 'decimal'; pattern: string }> = {
  number: { inputMode: 'decimal', pattern: '-?[0-9]+([.][0-9]+)?' },
  date: { pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}' },
  time: { pattern: '[0-9]{2}:[0-9]{2}' },
};

/** The attributes of a control of `type` showing `value`: that type, or a text box that keeps the value. */
export function controlFor(
  type: string,
  value: string,
): { type: string; inputMode?: 'decimal'; pattern?: string } {
  if (type !== 'number' && type !== 'date' && type !== 'time') return { type };
  return keepsValue(type, value) ? { type } : { type: 'text', ...AS_TEXT[type] };
}
