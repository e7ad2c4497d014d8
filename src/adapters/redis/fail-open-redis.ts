/**
 * A Redis connection for counters that must never hold a request up (D13's fail-open): commands are
 * never queued while disconnected, wait at most `commandTimeoutMs`, and reconnecting goes on in the
 * background. Each failure is counted and warned about at most once every `warnEveryMs`; the caller
 * lets the request (or attempt) through uncounted.
 */
import { Redis } from 'ioredis';

export interface FailOpenRedisOptions {
  url: string;
  /** Longest a command may wait for Redis (default 500 ms). */
  commandTimeoutMs?: number;
  /** Longest a connection attempt may take (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Called with a warning when Redis fails, at most once per `warnEveryMs` (default 10 s). */
  warn?: (message: string, details: Record<string, unknown>) => void;
  warnEveryMs?: number;
}

export interface FailOpenRedis<R extends Redis> {
  redis: R;
  /** Records a failure; `counted` when a request or attempt went uncounted because of it. */
  noteFailure(error: unknown, counted: boolean): void;
  storeErrors(): number;
  /** Resolves true once connected, or false if not connected within the connect timeout of the first call. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** `warning` names what goes uncounted, e.g. "rate-limit store unavailable; requests are let through…". */
export function openFailOpenRedis<R extends Redis>(
  options: FailOpenRedisOptions,
  warning: string,
): FailOpenRedis<R> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const warnEveryMs = options.warnEveryMs ?? 10_000;
  const redis = new Redis(options.url, {
    // Never queue a command while disconnected: fail at once, and let the request through.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs ?? 500,
    // Keep reconnecting in the background, backing off to one attempt every 2 s.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  }) as R;

  let storeErrors = 0;
  let unreported = 0;
  let lastWarning = 0;
  const noteFailure = (error: unknown, counted: boolean) => {
    if (counted) storeErrors++;
    unreported++;
    const now = Date.now();
    if (now - lastWarning < warnEveryMs) return;
    lastWarning = now;
    options.warn?.(warning, {
      error: error instanceof Error ? error.message : String(error),
      failuresSinceLastWarning: unreported,
      storeErrors,
    });
    unreported = 0;
  };
  // Connection errors arrive as events while ioredis reconnects; they must not end the process.
  redis.on('error', (error) => noteFailure(error, false));

  // The wait starts when readiness is first asked for, not when the client is made: whatever runs in
  // between (building the app takes a while on a busy machine) would otherwise count against the
  // timeout, and the timer could fire before the connection's events had a turn.
  let readyOnce: Promise<boolean> | undefined;
  const ready = () => {
    readyOnce ??= new Promise<boolean>((resolve) => {
      if (redis.status === 'ready') return resolve(true);
      redis.once('ready', () => resolve(true));
      setTimeout(() => resolve(redis.status === 'ready'), connectTimeoutMs).unref();
    });
    return readyOnce;
  };

  return {
    redis,
    noteFailure,
    storeErrors: () => storeErrors,
    ready,
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
