/**
 * Operations endpoints, outside /v1: no API key, no rate limit, no tenant data.
 * /healthz: the process answers. /readyz: the database answers and is migrated, and the process is
 * not shutting down. /metrics: Prometheus text.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceUnavailableError } from '../../domain/errors.js';
import type { Store } from '../../ports/store.js';
import type { Metrics } from '../metrics.js';

/** Flipped by the server when a shutdown begins, so load balancers stop sending traffic. */
export interface Readiness {
  readonly shuttingDown: boolean;
  beginShutdown(): void;
}

export function createReadiness(): Readiness {
  let shuttingDown = false;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
  };
}

export interface OpsOptions {
  store: Pick<Store, 'ping'>;
  metrics: Metrics;
  readiness: Readiness;
  /** A ping slower than this counts as unreachable, so a probe never hangs (default 2 s). */
  pingTimeoutMs?: number;
}

const OK = { status: 'ok' } as const;
const StatusBody = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'] } },
  required: ['status'],
} as const;

async function pingWithin(store: Pick<Store, 'ping'>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      store.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function opsRoutes(options: OpsOptions) {
  const pingTimeoutMs = options.pingTimeoutMs ?? 2000;
  return async function register(app: FastifyInstance) {
    // Probes must see the present, never a cached answer.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/healthz', { schema: { response: { 200: StatusBody } } }, async () => OK);

    app.get('/readyz', { schema: { response: { 200: StatusBody } } }, async (request) => {
      if (options.readiness.shuttingDown) {
        throw new ServiceUnavailableError('The service is shutting down.');
      }
      try {
        await pingWithin(options.store, pingTimeoutMs);
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        throw new ServiceUnavailableError('The database is unreachable or its schema is not current.');
      }
      return OK;
    });

    app.get('/metrics', async (_request, reply) =>
      reply.type(options.metrics.contentType).send(await options.metrics.render()),
    );
  };
}

/**
 * Registers the operations routes on the root instance. While shutting down, every response closes
 * its connection, so keep-alive clients reconnect elsewhere and the server drains without waiting
 * for idle connections to time out.
 */
export async function installOps(app: FastifyInstance, options: OpsOptions): Promise<void> {
  app.addHook('onSend', async (_request, reply) => {
    if (options.readiness.shuttingDown) reply.header('connection', 'close');
  });
  await app.register(opsRoutes(options));
}
