/** Authentication then rate limiting, in that order (D5, D13), on every /v1 request. */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticate } from '../app/api-keys.js';
import type { Principal } from '../app/deps.js';
import { RateLimitedError, UnauthorizedError } from '../domain/errors.js';
import type { RateLimitDecision, RateLimiter } from '../ports/rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/** What the access check found for one request: who is calling (or why not), and the rate limit's say. */
export interface Access {
  principal?: Principal;
  refusal?: UnauthorizedError;
  decision: RateLimitDecision;
}

/**
 * Authenticates `key` and counts the request against the caller's limit: the key's when it is valid,
 * the client address's otherwise, so guessing keys is limited too. Counts exactly once per call.
 */
export async function checkAccess(
  authenticate: Authenticate,
  limiter: RateLimiter,
  key: string | undefined,
  clientAddress: string | undefined,
): Promise<Access> {
  let principal: Principal | undefined;
  let refusal: UnauthorizedError | undefined;
  try {
    principal = await authenticate(key);
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    refusal = error;
  }
  return limitAccess(limiter, principal ? { principal } : { refusal }, clientAddress);
}

/** Counts a request whose key was already checked: against the key's limit, or the address's when it failed. */
export async function limitAccess(
  limiter: RateLimiter,
  checked: { principal: Principal } | { refusal: UnauthorizedError | undefined },
  clientAddress: string | undefined,
): Promise<Access> {
  if ('principal' in checked) {
    return {
      principal: checked.principal,
      decision: await limiter.consume(`key:${checked.principal.keyId}`),
    };
  }
  return { refusal: checked.refusal, decision: await limiter.consume(`addr:${clientAddress}`) };
}

export const apiKeyOf = (raw: IncomingMessage): string | undefined => {
  const header = raw.headers['x-api-key'];
  return typeof header === 'string' ? header : undefined;
};

const CHECKED_ACCESS = Symbol('eventplan.checkedAccess');

/**
 * Hands a request to Fastify with its access already checked (by the fast reads), so the hook below
 * uses that result instead of counting the request a second time.
 */
export function attachAccess(raw: IncomingMessage, access: Access): void {
  (raw as IncomingMessage & { [CHECKED_ACCESS]?: Access })[CHECKED_ACCESS] = access;
}

function takeAccess(raw: IncomingMessage): Access | undefined {
  return (raw as IncomingMessage & { [CHECKED_ACCESS]?: Access })[CHECKED_ACCESS];
}

export function rateLimitHeaders(decision: RateLimitDecision) {
  return setRateLimitHeaders({}, decision);
}

/** Sets the rate limit's headers on `headers`, after those it has. */
export function setRateLimitHeaders(headers: Record<string, string>, decision: RateLimitDecision) {
  headers['ratelimit-limit'] = String(decision.limit);
  headers['ratelimit-remaining'] = String(decision.remaining);
  headers['ratelimit-reset'] = String(decision.resetSeconds);
  return headers;
}

export function accessHook(authenticate: Authenticate, limiter: RateLimiter) {
  return async function checkAccessHook(request: FastifyRequest, reply: FastifyReply) {
    const { principal, refusal, decision } =
      takeAccess(request.raw) ??
      (await checkAccess(authenticate, limiter, apiKeyOf(request.raw), request.ip));
    reply.headers(rateLimitHeaders(decision));
    // An unknown path answers 404 with or without a key: it reveals nothing, and a 401 would mislead.
    if (refusal && decision.allowed && !request.is404) throw refusal;
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    if (principal) request.principal = principal;
  };
}
