/**
 * A request the floor refuses, and its RFC 9457 problem body (D4): the same fields, in the same order,
 * as the service's.
 */
import { STATUS_CODES } from 'node:http';
import type { OrphanedSession } from './agenda.js';
import type { Problem } from './checks.js';

export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { errors?: Problem[]; orphanedSessions?: OrphanedSession[] } = {},
  ) {
    super(message);
  }
}

/** A 400 listing every problem of the request. */
export const invalid = (problems: Problem[]) =>
  new Refusal(
    400,
    'validation_failed',
    problems.length === 1
      ? `${problems[0]!.field}: ${problems[0]!.message}`
      : `The request has ${problems.length} problems; see errors.`,
    { errors: problems },
  );

/** A 400 about the body as a whole (empty, not JSON, not an object). */
export const badBody = (code: string, message: string, bodyMessage = message) =>
  new Refusal(400, 'validation_failed', message, { errors: [{ field: 'body', code, message: bodyMessage }] });

export const notFound = (id: string) => new Refusal(404, 'not_found', `No event with id ${id}.`);

export const invalidEventId = () =>
  invalid([{ field: 'id', code: 'invalid_format', message: 'must be a UUID' }]);

export function problemBody(refusal: Refusal, requestId: string): string {
  return JSON.stringify({
    type: `urn:eventplan:problem:${refusal.code}`,
    title: STATUS_CODES[refusal.status] ?? 'Error',
    status: refusal.status,
    code: refusal.code,
    message: refusal.message,
    requestId,
    ...refusal.extra,
  });
}
