/** Collects every problem of a request so one 400 can list them all. */
import type { Problem } from './errors.js';

export class Problems {
  constructor(readonly list: Problem[] = []) {}

  add(field: string, code: string, message: string): void {
    this.list.push({ field, code, message });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** A view that records into this list, naming `from…` fields as `to…` (a field the client sent under another name). */
  renamed(from: string, to: string): Problems {
    return new RenamedProblems(this, from, to);
  }
}

/** Problems recorded through `target`, each field named `from…` renamed `to…` first. */
class RenamedProblems extends Problems {
  constructor(
    private readonly target: Problems,
    private readonly from: string,
    private readonly to: string,
  ) {
    super(target.list);
  }

  override add(field: string, code: string, message: string): void {
    const renamed = field.startsWith(this.from) ? this.to + field.slice(this.from.length) : field;
    this.target.add(renamed, code, message);
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
