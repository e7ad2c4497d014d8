/** Ids of resources as requests give them (venues, venue requests): checked, and compared in lower case. */
import { type Problem, ValidationError } from '../domain/errors.js';
import { isUuid } from '../domain/values.js';

/** The problem of a malformed id named `field`, if any (none for a UUID in either case). */
export function uuidProblems(field: string, value: string): Problem[] {
  return isUuid(value) ? [] : [{ field, code: 'invalid_format', message: 'must be a UUID' }];
}

/** Checks an id and returns it as stored: UUIDs are case-insensitive, stored ids are lower case. */
export function assertUuid(field: string, value: string): string {
  const problems = uuidProblems(field, value);
  if (problems.length > 0) throw new ValidationError(problems);
  return value.toLowerCase();
}
