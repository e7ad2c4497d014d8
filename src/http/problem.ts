/** The one place that turns errors into RFC 9457 problem details (D4). */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  AgendaSessionsOrphanedError,
  ChecklistIncompleteError,
  ConflictError,
  DomainError,
  EventCancelledError,
  EventNotAskingVenuesError,
  EventNotSourcingError,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  MoveNotAllowedError,
  NotFoundError,
  NothingToSendError,
  NotInAGroupError,
  PreconditionFailedError,
  type Problem,
  ProposalExpiredError,
  RateLimitedError,
  RequestChangedError,
  RequestClosedError,
  RequestNotProposedError,
  RequestNotSentError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
  VenueAlreadyRequestedError,
  VenueArchivedError,
} from '../domain/errors.js';

/** Refusals of venue sourcing (D20–D24): the state of a venue, an event or a request forbids the step. */
const SOURCING_CONFLICTS = [
  VenueArchivedError,
  EventNotSourcingError,
  VenueAlreadyRequestedError,
  RequestNotSentError,
  RequestClosedError,
  RequestNotProposedError,
  ProposalExpiredError,
  EventNotAskingVenuesError,
  NothingToSendError,
  RequestChangedError,
];

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  message: string;
  requestId: string;
  errors?: Problem[];
  orphanedSessions?: AgendaSessionsOrphanedError['orphanedSessions'];
}

interface Described {
  status: number;
  code: string;
  message: string;
  extra?: Partial<ProblemBody>;
}

function statusOf(error: DomainError): number {
  if (error instanceof ValidationError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof EventCancelledError || error instanceof AgendaSessionsOrphanedError) return 409;
  if (error instanceof ConflictError || error instanceof IdempotencyKeyInUseError) return 409;
  if (error instanceof MoveNotAllowedError || error instanceof ChecklistIncompleteError) return 409;
  if (error instanceof NotInAGroupError) return 409;
  if (SOURCING_CONFLICTS.some((type) => error instanceof type)) return 409;
  if (error instanceof PreconditionFailedError) return 412;
  if (error instanceof IdempotencyKeyReusedError) return 422;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof ServiceUnavailableError) return 503;
  return 500;
}

const AJV_CODES: Record<string, string> = {
  type: 'invalid_type',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  required: 'required',
  additionalProperties: 'unknown_field',
  pattern: 'invalid_format',
};

/** Schema validation (query strings) reported like domain validation, with `query.` paths. */
function fromSchemaValidation(error: FastifyError): Described {
  const context =
    error.validationContext === 'querystring'
      ? 'query'
      : error.validationContext === 'headers'
        ? 'header'
        : (error.validationContext ?? 'body');
  const problems: Problem[] = (error.validation ?? []).map((issue) => {
    const params = issue.params as Record<string, unknown>;
    const name =
      issue.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
      String(params.missingProperty ?? params.additionalProperty ?? '');
    return {
      field: name ? `${context}.${name}` : context,
      code: AJV_CODES[issue.keyword] ?? 'invalid_value',
      message: issue.message ?? 'is not valid',
    };
  });
  const message = new ValidationError(problems).message;
  return { status: 400, code: 'validation_failed', message, extra: { errors: problems } };
}

function bodyProblem(code: string, message: string): Described {
  return {
    status: 400,
    code: 'validation_failed',
    message,
    extra: { errors: [{ field: 'body', code, message }] },
  };
}

export function describe(error: unknown): Described {
  if (error instanceof DomainError) {
    const extra: Partial<ProblemBody> = {};
    if (error instanceof ValidationError) extra.errors = error.problems;
    if (error instanceof AgendaSessionsOrphanedError) extra.orphanedSessions = error.orphanedSessions;
    return { status: statusOf(error), code: error.code, message: error.message, extra };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return fromSchemaValidation(fastifyError);
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'payload_too_large', message: 'The request body is larger than 1 MiB.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: 'unsupported_media_type',
        message: 'Send the body as application/json (or application/merge-patch+json on PATCH).',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return bodyProblem('required', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return bodyProblem('invalid_json', 'The request body is not valid JSON.');
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return bodyProblem('invalid_json', `The request body is not valid JSON: ${error.message}`);
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: 'bad_request', message: fastifyError.message };
  }
  return {
    status: 500,
    code: 'internal_error',
    message: 'Something went wrong on our side; the request was not applied.',
  };
}

export function problemBody(described: Described, requestId: string): ProblemBody {
  return {
    type: `urn:eventplan:problem:${described.code}`,
    title: STATUS_CODES[described.status] ?? 'Error',
    status: described.status,
    code: described.code,
    message: described.message,
    requestId,
    ...described.extra,
  };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const described = describe(error);
  if (described.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  }
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(described.status).type(PROBLEM_CONTENT_TYPE).send(problemBody(described, request.id));
}
