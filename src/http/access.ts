/** Authentication then rate limiting, in that order (D5, D13), on every /v1 request. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../app/deps.js';
import { RateLimitedError, UnauthorizedError } from '../domain/errors.js';
import type { RateLimitDecision, RateLimiter } from '../ports/rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision) {
  reply.header('ratelimit-limit', String(decision.limit));
  reply.header('ratelimit-remaining', String(decision.remaining));
  reply.header('ratelimit-reset', String(decision.resetSeconds));
}

export function accessHook(
  authenticate: (key: string | undefined) => Promise<Principal>,
  limiter: RateLimiter,
) {
  return async function checkAccess(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers['x-api-key'];
    let principal: Principal | undefined;
    let refusal: UnauthorizedError | undefined;
    try {
      principal = await authenticate(typeof header === 'string' ? header : undefined);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      refusal = error;
    }
    // Requests without a valid key are limited per client address, so guessing keys is limited too.
    const decision = await limiter.consume(principal ? `key:${principal.keyId}` : `addr:${request.ip}`);
    setRateLimitHeaders(reply, decision);
    // An unknown path answers 404 with or without a key: it reveals nothing, and a 401 would mislead.
    if (refusal && decision.allowed && !request.is404) throw refusal;
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    if (principal) request.principal = principal;
  };
}
