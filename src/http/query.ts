/**
 * Query parameters, read strictly against the route's own schema: integers are plain decimal digits
 * (not `1e1`, `0x10`, `+5` or `10.0`, which a coercing validator would accept), ranges come from the
 * schema, unknown parameters are refused, and every problem is reported in one 400 (D4, D10).
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Problem, ValidationError } from '../domain/errors.js';

/** An integer query value as the routes accept it: plain decimal digits, at most 16. */
export const DIGITS = /^[0-9]{1,16}$/;

function checkInteger(field: string, raw: unknown, schema: TSchema, problems: Problem[]): number | undefined {
  if (typeof raw !== 'string' || !DIGITS.test(raw)) {
    problems.push({ field, code: 'invalid_type', message: 'must be a whole number written in digits' });
    return undefined;
  }
  const value = Number(raw);
  if (typeof schema.minimum === 'number' && value < schema.minimum) {
    problems.push({ field, code: 'out_of_range', message: `must be at least ${schema.minimum}` });
    return undefined;
  }
  if (typeof schema.maximum === 'number' && value > schema.maximum) {
    problems.push({ field, code: 'out_of_range', message: `must be at most ${schema.maximum}` });
    return undefined;
  }
  return value;
}

/**
 * Every problem of the request's query string against `schema`; integers that pass are written back
 * as numbers. A schema without properties (a route that takes no parameters) refuses every parameter.
 */
const unknownMessages = new WeakMap<TObject, string>();

/** The message for a parameter the route does not take, made once per route schema. */
function unknownParameterMessage(schema: TObject): string {
  let message = unknownMessages.get(schema);
  if (message === undefined) {
    const known = Object.keys(schema.properties);
    message =
      known.length > 0
        ? `is not a query parameter of this endpoint; use ${known.join(', ')}`
        : 'is not a query parameter: this endpoint takes none';
    unknownMessages.set(schema, message);
  }
  return message;
}

export function queryProblems(schema: TObject, request: FastifyRequest): Problem[] {
  const query = request.query as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const name in query) {
    if (!Object.hasOwn(query, name)) continue;
    const raw = query[name];
    const field = `query.${name}`;
    const property = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (!property) {
      problems.push({ field, code: 'unknown_field', message: unknownParameterMessage(schema) });
      continue;
    }
    if (property.type !== 'integer') continue;
    const value = checkInteger(field, raw, property, problems);
    if (value !== undefined) query[name] = value;
  }
  return problems;
}

/** A hook refusing a request whose query string does not fit the route's `querystring` schema. */
export function strictQuery(schema: TObject) {
  // Callback style, not async: no promise per request (a throw still becomes the error response).
  return function checkQuery(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    const problems = queryProblems(schema, request);
    if (problems.length > 0) throw new ValidationError(problems);
    done();
  };
}
