/** Builds the HTTP application as a plugin tree; it never listens (server.ts does). */
import { createServer, type Server, type ServerOptions } from 'node:http';
import Fastify, {
  type FastifyHttpOptions,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { createAuthenticator } from '../app/api-keys.js';
import type { AppDeps } from '../app/deps.js';
import type { SessionPolicy } from '../app/people.js';
import type { ServerTimeouts, TrustProxy } from '../config.js';
import type { AttemptCounter } from '../ports/attempt-counter.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import { DASHBOARD_PATH, href } from '../web/href.js';
import { dashboard } from '../web/plugin.js';
import { VENUE_PAGE_PATH } from '../web/venue-page/links.js';
import { venuePage } from '../web/venue-page/plugin.js';
import { accessHook } from './access.js';
import { answerClientError } from './client-error.js';
import { discardRestOfBody } from './discard-body.js';
import { type RequestListener, replayBody } from './fast-answers.js';
import { fastReads } from './fast-reads.js';
import { fastWrites } from './fast-writes.js';
import { BODY_LIMIT_BYTES, parseJsonBody } from './json-body.js';
import { AccessLog } from './logging.js';
import { createMetrics, type Metrics, observeRequests, requestRecorder } from './metrics.js';
import { openApi } from './openapi.js';
import { PROBLEM_CONTENT_TYPE, problemBody, sendProblem } from './problem.js';
import { requestIdFrom } from './request-id.js';
import { changeRoutes } from './routes/changes.js';
import { docsRoutes } from './routes/docs.js';
import { eventRoutes } from './routes/events.js';
import { createReadiness, installOps, type Readiness } from './routes/ops.js';
import { placeRoutes } from './routes/places.js';
import { venueRequestRoutes } from './routes/venue-requests.js';
import { venueRoutes } from './routes/venues.js';
import { webhookRoutes } from './routes/webhooks.js';
import { escapeMalformedPercents } from './safe-url.js';

export interface AppOptions {
  deps: AppDeps;
  rateLimiter: RateLimiter;
  logger?: FastifyServerOptions['logger'];
  /** Prometheus series of this app (default: a fresh registry without process metrics). */
  metrics?: Metrics;
  /** Shared with the server, which flips it on SIGTERM so /readyz answers 503 (default: ready). */
  readiness?: Readiness;
  /** Socket limits for a listening server (server.ts); unset, Fastify's defaults apply. */
  timeouts?: ServerTimeouts;
  /** Behind a load balancer: whose X-Forwarded-For gives the client address (default: nobody's). */
  trustProxy?: TrustProxy;
  /** The planning dashboard under /app (D15): sign-in attempt counters and session lifetimes. Unset: no dashboard. */
  dashboard?: { attempts: AttemptCounter; sessionPolicy: SessionPolicy };
  /**
   * The webhook endpoint API (D18): the network policy endpoint URLs must meet (the transport's), and
   * what to call when this instance commits a change (the dispatcher's wake-up). Unset: no webhook routes.
   */
  webhooks?: { urlProblem(url: string): string | undefined; changeCommitted?(): void };
  /**
   * Answer the plainest event reads and writes before Fastify's request handling (fast-reads.ts,
   * fast-writes.ts) when listening (default: on). Injected requests always take the routes.
   */
  fastReads?: boolean;
}

/** Names the HMAC key of the dashboard's form tokens in the store's server secrets. */
const FORM_TOKEN_KEY = 'dashboard-form-token-key';

/**
 * Requests that arrive on an open connection during shutdown are still answered (with
 * `Connection: close`); only /readyz reports the shutdown. Node checks the headers and request
 * deadlines every `connectionsCheckingInterval`, so a client trickling bytes is cut off on time.
 */
function serverTimeoutOptions(timeouts: ServerTimeouts): FastifyHttpOptions<Server> {
  return {
    connectionTimeout: timeouts.connectionMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
    return503OnClosing: false,
  };
}

/**
 * The HTTP server Fastify would make (timeouts included), with a request listener that can be swapped
 * once the app is built: `listen()` then sends requests through the fast reads first.
 */
function swappableServer() {
  let fastify: RequestListener | undefined;
  let listener: RequestListener | undefined;
  const factory = (handler: RequestListener, options: Record<string, unknown>): Server => {
    fastify = handler;
    const server = createServer((options.http ?? {}) as ServerOptions, (request, response) =>
      (listener ?? handler)(request, response),
    );
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    return server;
  };
  const wrap = (wrapper: (fastify: RequestListener) => RequestListener) => {
    if (fastify) listener = wrapper(fastify);
  };
  return { factory, wrap };
}

/** A hop count trusts that many proxies nearest to the server. */
function trustProxyOption(trust: TrustProxy) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export async function buildApp(options: AppOptions) {
  const server = swappableServer();
  const app = Fastify({
    serverFactory: server.factory,
    logger: options.logger ?? false,
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdFrom,
    // Keys such as __proto__ are kept as plain own properties and then refused by name, like any unknown field.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    ajv: { customOptions: { allErrors: true, coerceTypes: true } },
    // A long id must reach the key and id checks (401, then 400 naming `id`), not stop in the router
    // with a bare 414: the cap is above the 16 KiB Node allows for a whole request head.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 65_536 },
    rewriteUrl: (request) => escapeMalformedPercents(request.url ?? '/'),
    clientErrorHandler: answerClientError,
    // What the router still refuses before any hook gets a problem body and a request id.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      return sendProblem(request, reply, error);
    },
    ...(options.timeouts ? serverTimeoutOptions(options.timeouts) : {}),
    trustProxy: trustProxyOption(options.trustProxy ?? false),
  });

  // JSON only: application/json everywhere, application/merge-patch+json on PATCH; anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      if (body === '') {
        done(
          Object.assign(new Error('empty body'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }),
        );
        return;
      }
      try {
        done(null, parseJsonBody(body as string));
      } catch (error) {
        done(Object.assign(error as Error, { statusCode: 400 }));
      }
    },
  );

  // Callback style, not async: no promise per request for a one-line hook.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.setErrorHandler((error, request, reply) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') discardRestOfBody(request, reply);
    return sendProblem(request, reply, error);
  });
  app.setNotFoundHandler(notFound);
  // Before any route: the document is generated from the schemas of the routes registered after it.
  await openApi(app);
  await app.register(docsRoutes);

  const metrics =
    options.metrics ?? createMetrics({ store: options.deps.store, rateLimiter: options.rateLimiter });
  const recordRequest = requestRecorder(metrics);
  observeRequests(app, recordRequest);
  const readiness = options.readiness ?? createReadiness();
  await installOps(app, {
    store: options.deps.store,
    metrics,
    readiness,
  });

  const authenticate = createAuthenticator(options.deps);
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', accessHook(authenticate, options.rateLimiter));
      // A write the fast path handed over after reading its body gets it back here (fast-answers.ts).
      if (options.fastReads !== false) v1.addHook('preParsing', replayBody);
      // Unknown /v1 paths still pass the access hook, so they are counted and carry the rate-limit headers.
      v1.setNotFoundHandler(notFound);
      await v1.register(eventRoutes(options.deps));
      await v1.register(changeRoutes(options.deps));
      await v1.register(venueRoutes(options.deps));
      await v1.register(venueRequestRoutes(options.deps));
      if (options.webhooks) {
        await v1.register(webhookRoutes({ ...options.deps, urlProblem: options.webhooks.urlProblem }));
        const changeCommitted = options.webhooks.changeCommitted;
        // A local write wakes the dispatcher at once; writes on other instances are found by its polling.
        if (changeCommitted) {
          v1.addHook('onResponse', async (request, reply) => {
            if (
              request.routeOptions.url?.startsWith('/v1/events') &&
              request.method !== 'GET' &&
              reply.statusCode < 300
            )
              changeCommitted();
          });
        }
      }
      await v1.register(placeRoutes(options.deps));
    },
    { prefix: '/v1' },
  );

  if (options.dashboard) {
    const formTokenKey = await options.deps.store.secrets.ensure(FORM_TOKEN_KEY, options.deps.ids.token(64));
    await app.register(dashboard({ deps: { ...options.deps, ...options.dashboard }, formTokenKey }), {
      prefix: DASHBOARD_PATH,
    });
    // The venue's page (D22) beside the dashboard: no account, the link's token is the password.
    await app.register(venuePage({ deps: options.deps, formTokenKey, rateLimiter: options.rateLimiter }), {
      prefix: VENUE_PAGE_PATH,
    });
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(href.events(), 302));
  }
  if (options.fastReads !== false) {
    const fastPath = {
      deps: options.deps,
      authenticate,
      limiter: options.rateLimiter,
      log: app.log,
      recordRequest,
      trustProxy: options.trustProxy ?? false,
      shuttingDown: () => readiness.shuttingDown,
      ...(options.webhooks?.changeCommitted ? { changeCommitted: options.webhooks.changeCommitted } : {}),
    };
    server.wrap((fastify) => fastReads(fastPath, fastWrites(fastPath, fastify)));
  }
  return app;
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .type(PROBLEM_CONTENT_TYPE)
    .send(
      problemBody(
        {
          status: 404,
          code: 'not_found',
          message: `No route for ${request.method} ${request.url.split('?')[0]}.`,
        },
        request.id,
      ),
    );
}
