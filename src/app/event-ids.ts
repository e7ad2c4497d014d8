/** Event ids as requests give them: their check, and the 404 of an id that names no event one may see. */
import { NotFoundError, type Problem, ValidationError } from '../domain/errors.js';
import { isUuid } from '../domain/values.js';

/** The problem of a malformed event id, if any (none for a UUID in either case). */
export function eventIdProblems(id: string): Problem[] {
  return isUuid(id) ? [] : [{ field: 'id', code: 'invalid_format', message: 'must be a UUID' }];
}

/** Checks an event id and returns it in canonical form: UUIDs are case-insensitive, stored ids are lower case. */
export function assertEventId(id: string): string {
  const problems = eventIdProblems(id);
  if (problems.length > 0) throw new ValidationError(problems);
  return id.toLowerCase();
}

export const notFound = (id: string) => new NotFoundError(`No event with id ${id}.`);
