/** A real app over a real SQLite file, built the way the server builds it, for the operations tests. */
import type { FastifyInstance } from 'fastify';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createDemo } from '../../src/app/organizations.js';
import { type AppOptions, buildApp } from '../../src/http/app.js';
import { createReadiness, type Readiness } from '../../src/http/routes/ops.js';
import { openTestStore } from '../helpers/test-store.js';

export interface OpsApp {
  app: FastifyInstance;
  deps: AppDeps;
  readiness: Readiness;
  key: string;
  close(): Promise<void>;
}

export async function startOpsApp(
  options: { rateLimitPerMinute?: number } & Partial<
    Pick<AppOptions, 'logger' | 'metrics' | 'rateLimiter' | 'dashboard'>
  > = {},
): Promise<OpsApp> {
  const { store, destroy } = await openTestStore();
  const deps: AppDeps = { store, clock: systemClock, ids: randomIds };
  const rateLimiter =
    options.rateLimiter ?? createMemoryRateLimiter({ limit: options.rateLimitPerMinute ?? 1_000_000 });
  const readiness = createReadiness();
  const app = await buildApp({
    deps,
    rateLimiter,
    readiness,
    logger: options.logger,
    metrics: options.metrics,
    dashboard: options.dashboard,
  });
  const demo = await createDemo(deps);
  return {
    app,
    deps,
    readiness,
    key: demo.key,
    async close() {
      await app.close();
      await rateLimiter.close();
      await destroy();
    },
  };
}
