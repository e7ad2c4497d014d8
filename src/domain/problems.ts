/** Collects every problem of a request so one 400 can list them all. */
import type { Problem } from './errors.js';

export class Problems {
  readonly list: Problem[] = [];

  add(field: string, code: string, message: string): void {
    this.list.push({ field, code, message });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** A view that records into this list, naming `from…` fields as `to…` (a field the client sent under another name). */
  renamed(from: string, to: string): Problems {
    const view = Object.create(this) as Problems;
    view.add = (field, code, message) =>
      this.add(field.startsWith(from) ? to + field.slice(from.length) : field, code, message);
    return view;
  }
}

/** Marks a value that failed validation; its problem is already recorded. */
export const INVALID: unique symbol = Symbol('invalid');
export type Checked<T> = T | typeof INVALID;

/** Joins a path and a key the way errors name fields: `a.b`, `a[3]`. */
export function fieldPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base === '' ? key : `${base}.${key}`;
}
