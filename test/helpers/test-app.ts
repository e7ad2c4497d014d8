/** The real app over a real store, with a demo organization and its key. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
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
  const deps: AppDeps = { store, clock: systemClock, ids: randomIds };
  const rateLimiter =
    options.rateLimiter ?? createMemoryRateLimiter({ limit: options.rateLimitPerMinute ?? 1_000_000 });
  const attempts = createMemoryAttemptCounter();
  const app = await buildApp({
    deps,
    rateLimiter,
    trustProxy: options.trustProxy,
    dashboard: { attempts, sessionPolicy: { idleMinutes: 720, maxDays: 7 } },
    webhooks: { urlProblem: (url) => urlRefusal(url, options.allowPrivateNetworks ?? false) },
  });
  // Every response of a documented operation must match the OpenAPI document, or the test fails.
  checkEveryResponse(app);
  const demo = await createDemo(deps);
  return {
    app,
    deps,
    demo,
    key: demo.key,
    databaseUrl: url,
    async close() {
      await app.close();
      await rateLimiter.close();
      await attempts.close();
      await destroy();
    },
  };
}

export const json = (response: LightMyRequestResponse) => response.json() as Record<string, any>;
