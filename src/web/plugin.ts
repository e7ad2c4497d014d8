/**
 * The planning dashboard (D15, D16): server-rendered pages under /app, a driving adapter beside the
 * JSON API. Every page reads and writes through the use cases of `app/`; visibility by grants is
 * enforced there and in the store's queries. Forms work without JavaScript; the scripts (the room
 * grid's totals, city suggestions) only make a page better. This plugin sets up what every page shares
 * (headers, cookies, form tokens, the session, assets, error pages) and registers the pages of
 * `pages/index.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateSession, type PeopleDeps } from '../app/people.js';
import {
  DomainError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  ValidationError,
} from '../domain/errors.js';
import { compressWhenAsked } from '../http/compression.js';
import { ErrorPage } from './error-page.js';
import type { FrameOf } from './guard.js';
import { href, ROUTES } from './href.js';
import { registerPages } from './page-module.js';
import { PAGES } from './pages/index.js';
import { sendPage } from './render.js';
import { sessionToken } from './session-cookie.js';

export interface DashboardOptions {
  deps: PeopleDeps;
  /** HMAC key binding form tokens to sessions; shared by every instance (kept in the store). */
  formTokenKey: string;
}

const ASSETS = fileURLToPath(new URL('../../src/web/assets/', import.meta.url));
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Asset URLs carry a digest of their content, so they can be cached for a year and still never go stale. */
export function assetUrls() {
  const url = (file: string) =>
    href.asset(
      file,
      createHash('sha256')
        .update(readFileSync(`${ASSETS}${file}`))
        .digest('hex')
        .slice(0, 12),
    );
  return { css: url('app.css'), roomsScript: url('rooms.js'), placesScript: url('places.js') };
}

/** Form tokens are bound to the session; signed out (the sign-in and invitation forms) to no one. */
const formTokenOwner = (request: FastifyRequest): string => request.person?.sessionId ?? 'signed-out';

/**
 * What every HTML page of the service shares, the dashboard's and the venue's (D15, D22): compression,
 * cookies, form bodies, the security headers (a strict CSP, no framing, no referrer) and form tokens
 * bound to `formTokenOwner` (a session, or a venue's request). Registered in each context that serves pages.
 */
export async function registerPageBasics(
  app: FastifyInstance,
  options: { formTokenKey: string; formTokenOwner: (request: FastifyRequest) => string },
) {
  // Pages and assets compressed when the browser asks (br or gzip; 11 kB of CSS become about 3 kB),
  // only in the contexts of pages: the JSON API and its fast reads are not touched.
  await compressWhenAsked(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        connectSrc: ["'self'"],
      },
    },
    // Pages hold people's data: no referrer leaves them (invite and venue links carry a token).
    referrerPolicy: { policy: 'no-referrer' },
  });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'eventplan_form',
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true },
    getUserInfo: options.formTokenOwner,
    csrfOpts: { hmacKey: options.formTokenKey },
  });
}

export function dashboard(options: DashboardOptions) {
  return async function register(app: FastifyInstance) {
    const assets = assetUrls();
    await registerPageBasics(app, { formTokenKey: options.formTokenKey, formTokenOwner });
    await app.register(fastifyStatic, {
      root: ASSETS,
      prefix: ROUTES.asset,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      index: false,
    });

    app.addHook('onRequest', async (request) => {
      const person = await authenticateSession(options.deps, sessionToken(request));
      if (person) request.person = person;
    });

    const frameOf: FrameOf = (request, reply) => ({
      assets,
      person: request.person,
      csrf: reply.generateCsrf({ userInfo: formTokenOwner(request), secure: request.protocol === 'https' }),
    });

    app.setErrorHandler((error, request, reply) => {
      const status = statusOf(error);
      if (status >= 500) request.log.error({ err: error }, 'dashboard request failed');
      if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendPage(reply, ErrorPage({ frame: frameOf(request, reply), status }), status);
    });
    app.setNotFoundHandler((request, reply) =>
      sendPage(reply, ErrorPage({ frame: frameOf(request, reply), status: 404 }), 404),
    );

    registerPages(app, PAGES, options.deps, frameOf);
  };
}

export function statusOf(error: unknown): number {
  // A malformed event id in an address is a page that does not exist.
  if (error instanceof NotFoundError || error instanceof ValidationError) return 404;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof ServiceUnavailableError) return 503;
  if (error instanceof DomainError) return 500;
  const status = (error as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return status;
  return 500;
}
