/**
 * The checks a route makes before anything is read (D5's order): the path's ids and the query string
 * together (one 400 naming each), then a body that must be a JSON object.
 */
import type { TObject } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { uuidProblems } from '../app/resource-ids.js';
import { ValidationError } from '../domain/errors.js';
import { isPlainObject } from '../domain/values.js';
import { queryProblems } from './query.js';

/** The path's ids and the query string, checked together before anything is read: one 400 naming each. */
export function checkRequestShape(route: { querystring: TObject }) {
  return function checkShape(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    const params = request.params as Record<string, string>;
    const problems = [
      ...Object.entries(params).flatMap(([name, value]) => uuidProblems(name, value)),
      ...queryProblems(route.querystring, request),
    ];
    if (problems.length > 0) throw new ValidationError(problems);
    done();
  };
}

/** A body that must be a JSON object (or absent, where `optional`), before anything is looked up (D5). */
export function requireObjectBody({ optional = false } = {}) {
  return function requireObject(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    if (optional && request.body === undefined) request.body = {};
    if (!isPlainObject(request.body)) {
      const message =
        request.body === undefined
          ? 'A JSON object body is required.'
          : 'The request body must be a JSON object.';
      throw new ValidationError([{ field: 'body', code: 'invalid_type', message }]);
    }
    done();
  };
}
