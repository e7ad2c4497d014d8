/**
 * The session cookie (D15): HttpOnly, SameSite=Lax, Path=/, and over HTTPS `Secure` with the
 * `__Host-` prefix, so no subdomain or plain-HTTP page can set or read it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const PLAIN = 'eventplan_session';
const HOST_ONLY = '__Host-eventplan_session';

const overHttps = (request: FastifyRequest) => request.protocol === 'https';

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[overHttps(request) ? HOST_ONLY : PLAIN];
}

/** Sets the cookie for a new session; it lives as long as the session may (the store ends it sooner). */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
) {
  const secure = overHttps(request);
  reply.setCookie(secure ? HOST_ONLY : PLAIN, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  const secure = overHttps(request);
  reply.clearCookie(secure ? HOST_ONLY : PLAIN, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}
