/** The real app over a real store, with a demo organization and its key. */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject as lightInject } from 'light-my-request';
import { expect } from 'vitest';
import { createMemoryAttemptCounter } from '../../src/adapters/memory/memory-attempt-counter.js';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { urlRefusal } from '../../src/adapters/webhook/address-policy.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createDemo } from '../../src/app/organizations.js';
import type { TrustProxy } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { checkEveryResponse } from './openapi.js';
import { type Backend, openTestStore } from './test-store.js';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  demo: Awaited<ReturnType<typeof createDemo>>;
  key: string;
  /** What reaches the store as DATABASE_URL: a postgres:// URL, or the SQLite file's path. */
  databaseUrl: string;
  /** How many requests the fast paths answered without reaching the routes (`fast-paths` project only). */
  fastPathAnswers(): number;
  /**
   * Moves the app's clock `ms` ahead of the system's (every part of the app reads it: the API, the
   * dashboard, the venue's page); `0` puts it back. For what waits on days, such as a reply date passing.
   */
  setClockAhead(ms: number): void;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    rateLimitPerMinute?: number;
    rateLimiter?: RateLimiter;
    backend?: Backend;
    trustProxy?: TrustProxy;
    /** Connections of the PostgreSQL pool (default 4). */
    poolSize?: number;
    /** Webhook endpoints may point to private addresses and use http (WEBHOOK_ALLOW_PRIVATE_NETWORKS=1). */
    allowPrivateNetworks?: boolean;
  } = {},
): Promise<TestApp> {
  const { store, destroy, url } = await openTestStore(options.backend, { poolSize: options.poolSize });
  let ahead = 0;
  const clock = { now: () => (ahead === 0 ? systemClock.now() : new Date(Date.now() + ahead)) };
  const deps: AppDeps = { store, clock, ids: randomIds };
  const rateLimiter =
    options.rateLimiter ?? createMemoryRateLimiter({ limit: options.rateLimitPerMinute ?? 1_000_000 });
  const attempts = createMemoryAttemptCounter();
  const appOptions = (fastReads: boolean, limiter: RateLimiter) => ({
    deps,
    rateLimiter: limiter,
    trustProxy: options.trustProxy,
    fastReads,
    dashboard: { attempts, sessionPolicy: { idleMinutes: 720, maxDays: 7 } },
    webhooks: { urlProblem: (url: string) => urlRefusal(url, options.allowPrivateNetworks ?? false) },
  });
  const app = await buildApp(appOptions(true, rateLimiter));
  // Every response of a documented operation must match the OpenAPI document, or the test fails.
  checkEveryResponse(app);
  const guard = throughFastPaths() ? await guardFastPaths(app, appOptions) : undefined;
  const demo = await createDemo(deps);
  return {
    app,
    deps,
    demo,
    key: demo.key,
    databaseUrl: url,
    fastPathAnswers: () => guard?.answered() ?? 0,
    setClockAhead: (ms: number) => {
      ahead = ms;
    },
    async close() {
      await app.close();
      await guard?.close();
      await rateLimiter.close();
      await attempts.close();
      await destroy();
    },
  };
}

/**
 * The `fast-paths` project (vitest.config.ts) runs the HTTP suites a second time with `app.inject`
 * going through the server's own request listener, so the fast paths (src/http/fast-reads.ts,
 * fast-writes.ts) answer what they take, as they do in production. Every /v1 read is then also sent to
 * a twin app without the fast paths over the same store, and the two answers must agree: status,
 * headers and body, the request id and the rate limit's own headers aside. A rule added to a route and
 * not to the fast path fails here.
 */
export const throughFastPaths = () => process.env.TEST_FAST_PATHS === '1';

/** Headers that differ between any two answers to the same request. */
const VARYING = new Set([
  'date',
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
]);

async function guardFastPaths(
  app: FastifyInstance,
  appOptions: (fastReads: boolean, limiter: RateLimiter) => Parameters<typeof buildApp>[0],
) {
  const twinLimiter = createMemoryRateLimiter({ limit: 1_000_000 });
  const twin = await buildApp(appOptions(false, twinLimiter));
  const routed = new WeakSet<IncomingMessage>();
  app.addHook('onRequest', async (request) => {
    routed.add(request.raw);
  });
  let answered = 0;
  const routesOnly = app.inject.bind(app);
  const throughListener = async (request: InjectOptions): Promise<LightMyRequestResponse> => {
    await app.ready();
    const listener = app.server.listeners('request')[0] as Parameters<typeof lightInject>[0];
    const response = (await lightInject(listener, request)) as unknown as LightMyRequestResponse;
    if (!routed.has(response.raw.req)) answered++;
    const method = (request.method ?? 'GET').toUpperCase();
    const path = request.url ?? (request as { path?: string }).path ?? '';
    if (
      (method === 'GET' || method === 'HEAD') &&
      String(path).startsWith('/v1') &&
      response.statusCode !== 429
    ) {
      const expected = await twin.inject(request);
      expect(comparable(response), `${method} ${path} through the fast paths and through the routes`).toEqual(
        comparable(expected),
      );
    }
    return response;
  };
  // Only the options form is rerouted; the chained form (app.inject().get(…)) still reaches the routes.
  (app as { inject: unknown }).inject = (request?: InjectOptions | string) =>
    request === undefined
      ? routesOnly()
      : throughListener(typeof request === 'string' ? { url: request } : request);
  return {
    answered: () => answered,
    async close() {
      await twin.close();
      await twinLimiter.close();
    },
  };
}

function comparable(response: LightMyRequestResponse) {
  const requestId = String(response.headers['x-request-id'] ?? '');
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => !VARYING.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const body = requestId ? response.body.split(requestId).join('<request id>') : response.body;
  return { status: response.statusCode, headers, body };
}

export const json = (response: LightMyRequestResponse) => response.json() as Record<string, any>;
