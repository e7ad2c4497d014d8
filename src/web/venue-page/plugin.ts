/**
 * The venue's page, `/rfp/{token}` (D22, D23): a driving adapter beside the dashboard, for a venue
 * without an account. The link's token is its password: every answer is `no-store` with no referrer,
 * form tokens are bound to the request (a forged POST is a 403 and writes nothing), requests are rate
 * limited per client address and per link, and the token is never logged (logging.ts). Pages are
 * drawn in the dashboard's frame and styles, without its navigation.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { hashVenueToken } from '../../app/sourcing.js';
import { RateLimitedError } from '../../domain/errors.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { Frame } from '../layout.js';
import { assetUrls, registerPageBasics, statusOf } from '../plugin.js';
import { sendPage } from '../render.js';
import { type VenueFrameOf, venueRoutes } from './routes.js';
import { VenueErrorPage } from './view.js';

export interface VenuePageOptions {
  deps: AppDeps;
  /** The dashboard's form-token key: tokens here are bound to the request instead of a session. */
  formTokenKey: string;
  /** The service's rate limiter, keyed here by client address and by link. */
  rateLimiter: RateLimiter;
}

/** The link's token, as the address names it ('' for an address without one). */
export const linkTokenOf = (request: FastifyRequest): string =>
  (request.params as { token?: string } | undefined)?.token ?? '';

/** Form tokens are bound to the request the link leads to (by the token's hash, never the token). */
const formTokenOwner = (request: FastifyRequest): string =>
  `venue-request:${hashVenueToken(linkTokenOf(request))}`;

export function venuePage(options: VenuePageOptions) {
  return async function register(app: FastifyInstance) {
    const assets = assetUrls();
    await registerPageBasics(app, { formTokenKey: options.formTokenKey, formTokenOwner });

    app.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('x-robots-tag', 'noindex, nofollow');
      const token = linkTokenOf(request);
      const keys = [
        `venue-page:address:${request.ip}`,
        ...(token ? [`venue-page:link:${hashVenueToken(token)}`] : []),
      ];
      for (const key of keys) {
        const decision = await options.rateLimiter.consume(key);
        if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
      }
    });

    const frameOf: VenueFrameOf = (request, reply) => ({
      assets,
      csrf: reply.generateCsrf({ userInfo: formTokenOwner(request), secure: request.protocol === 'https' }),
    });
    /** Error pages hold no form: no form token is made for them. */
    const bareFrame: Frame = { assets, csrf: '' };

    app.setErrorHandler((error, request, reply) => {
      const status = statusOf(error);
      if (status >= 500) request.log.error({ err: error }, 'venue page request failed');
      if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendPage(reply, VenueErrorPage({ frame: bareFrame, status }), status);
    });
    app.setNotFoundHandler((_request, reply) =>
      sendPage(reply, VenueErrorPage({ frame: bareFrame, status: 404 }), 404),
    );

    venueRoutes(app, options.deps, frameOf);
  };
}
