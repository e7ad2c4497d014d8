/**
 * Prometheus metrics, one registry per app instance (never prom-client's global registry), so a
 * process, or a test file, can build many apps without their series colliding.
 * Labels carry route patterns, methods and status codes only: never ids, keys or tenant data.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Store } from '../ports/store.js';

export interface MetricsSources {
  /** Reports pool use (PostgreSQL) or write-queue depth (SQLite) through its optional `stats()`. */
  store?: Pick<Store, 'stats'>;
  /** Reports shared-counter failures through its optional `storeErrors()`. */
  rateLimiter?: Pick<RateLimiter, 'storeErrors'>;
  /** Process figures (CPU, memory, event-loop lag, GC): on in the server, off by default. */
  processMetrics?: boolean;
  /** The webhook queue (D18): pending deliveries and when the oldest was queued. */
  webhookQueue?: () => Promise<{ pending: number; oldestPendingAt: string | null }>;
  /** The mail outbox (D25): mails waiting to be sent and when the oldest was queued. */
  mailQueue?: () => Promise<{ pending: number; oldestPendingAt: string | null }>;
}

export interface Metrics {
  readonly registry: Registry;
  /** For a rate limiter that reports failures by callback rather than by count. */
  countRateLimitStoreError(): void;
  /** One webhook attempt recorded, by outcome: `succeeded`, `failed` (retried or given up) or `gone` (410). */
  countWebhookAttempt(outcome: 'succeeded' | 'failed' | 'gone'): void;
  /** One mail attempt recorded: `sent`, `retry` (failed, tried again later) or `failed` (given up). */
  countMailAttempt(result: 'sent' | 'retry' | 'failed'): void;
  /** One run of a scheduled task, by task and outcome: `done`, `not_due` (found done or closed) or `failed`. */
  countScheduledRun(task: string, outcome: 'done' | 'not_due' | 'failed'): void;
  /** Renders every series in the Prometheus text format. */
  render(): Promise<string>;
  readonly contentType: string;
}

interface RequestSeries {
  requests: Counter<'method' | 'route' | 'status_code'>;
  duration: Histogram<'method' | 'route' | 'status_code'>;
  eventsCreated: Counter;
  eventsUpdated: Counter;
}

const series = new WeakMap<Metrics, RequestSeries>();

/** Route pattern of a request that matched no route: one label value, whatever the URL was. */
export const UNMATCHED_ROUTE = 'unmatched';

export function createMetrics(sources: MetricsSources = {}): Metrics {
  const registry = new Registry();
  if (sources.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'eventplan_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'eventplan_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const eventsCreated = new Counter({
    name: 'eventplan_events_created_total',
    help: 'Events created through the API (201 responses).',
    registers,
  });
  const eventsUpdated = new Counter({
    name: 'eventplan_events_updated_total',
    help: 'Event updates applied through the API (200 responses to PATCH).',
    registers,
  });

  let rateLimitErrorsByCallback = 0;
  let rateLimitErrorsExported = 0;
  new Counter({
    name: 'eventplan_rate_limit_store_errors_total',
    help: 'Failures of the shared rate-limit store; each such request was let through (fail-open).',
    registers,
    collect() {
      const total = (sources.rateLimiter?.storeErrors?.() ?? 0) + rateLimitErrorsByCallback;
      if (total > rateLimitErrorsExported) this.inc(total - rateLimitErrorsExported);
      rateLimitErrorsExported = Math.max(rateLimitErrorsExported, total);
    },
  });

  // Only the figures this store can report are exported, so a gauge never shows a made-up 0.
  const stats = () => sources.store?.stats?.() ?? {};
  const initial = stats();
  if (initial.pool) {
    const pool = (
      name: string,
      help: string,
      read: (p: { total: number; idle: number; waiting: number }) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const current = stats().pool;
          if (current) this.set(read(current));
        },
      });
    pool('eventplan_db_pool_connections', 'Open database connections in the pool.', (p) => p.total);
    pool('eventplan_db_pool_idle_connections', 'Pool connections open and idle.', (p) => p.idle);
    pool(
      'eventplan_db_pool_waiting_requests',
      'Queries waiting for a free pool connection.',
      (p) => p.waiting,
    );
  }
  if (initial.writeQueueDepth !== undefined) {
    new Gauge({
      name: 'eventplan_db_write_queue_depth',
      help: 'Writes queued for the next group commit.',
      registers,
      collect() {
        const depth = stats().writeQueueDepth;
        if (depth !== undefined) this.set(depth);
      },
    });
  }

  const webhookAttempts = new Counter({
    name: 'eventplan_webhook_deliveries_total',
    help: 'Webhook delivery attempts recorded by this instance, by outcome (succeeded, failed, gone).',
    labelNames: ['outcome'] as const,
    registers,
  });
  /** Two gauges over one read per scrape: how many wait, and how long the oldest has waited. */
  const queueGauges = (
    read: () => Promise<{ pending: number; oldestPendingAt: string | null }>,
    depth: { name: string; help: string },
    age: { name: string; help: string },
  ) => {
    let reading: Promise<{ pending: number; oldestPendingAt: string | null }> | undefined;
    const queue = () => {
      reading ??= read().finally(() => {
        setImmediate(() => {
          reading = undefined;
        });
      });
      return reading;
    };
    new Gauge({
      ...depth,
      registers,
      async collect() {
        this.set((await queue()).pending);
      },
    });
    new Gauge({
      ...age,
      registers,
      async collect() {
        const oldest = (await queue()).oldestPendingAt;
        this.set(oldest === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000));
      },
    });
  };
  if (sources.webhookQueue) {
    queueGauges(
      sources.webhookQueue,
      {
        name: 'eventplan_webhook_queue_depth',
        help: 'Webhook deliveries waiting for an attempt (all instances).',
      },
      {
        name: 'eventplan_webhook_oldest_pending_age_seconds',
        help: 'Age of the oldest webhook delivery still waiting for an attempt (0 when none).',
      },
    );
  }

  const mailsSent = new Counter({
    name: 'eventplan_mail_sent_total',
    help: 'Mails accepted by the SMTP server, sent by this instance.',
    registers,
  });
  const mailsFailed = new Counter({
    name: 'eventplan_mail_failed_total',
    help: 'Mails given up after the last attempt of the retry schedule, by this instance.',
    registers,
  });
  const mailAttemptFailures = new Counter({
    name: 'eventplan_mail_attempt_failures_total',
    help: 'Mail attempts that failed (retried later or given up), by this instance.',
    registers,
  });
  if (sources.mailQueue) {
    queueGauges(
      sources.mailQueue,
      { name: 'eventplan_mail_pending', help: 'Mails waiting in the outbox to be sent (all instances).' },
      {
        name: 'eventplan_mail_oldest_pending_age_seconds',
        help: 'Age of the oldest mail still waiting to be sent (0 when none).',
      },
    );
  }

  const scheduledRuns = new Counter({
    name: 'eventplan_scheduled_runs_total',
    help: 'Runs of scheduled tasks (reminders, …) by this instance, by task and outcome (done, not_due, failed).',
    labelNames: ['task', 'outcome'],
    registers,
  });

  const metrics: Metrics = {
    registry,
    countScheduledRun(task, outcome) {
      scheduledRuns.inc({ task, outcome });
    },
    contentType: registry.contentType,
    countWebhookAttempt(outcome) {
      webhookAttempts.inc({ outcome });
    },
    countMailAttempt(result) {
      if (result === 'sent') mailsSent.inc();
      else mailAttemptFailures.inc();
      if (result === 'failed') mailsFailed.inc();
    },
    countRateLimitStoreError() {
      rateLimitErrorsByCallback += 1;
    },
    render: () => registry.metrics(),
  };
  series.set(metrics, { requests, duration, eventsCreated, eventsUpdated });
  return metrics;
}

/** Records one answered request: its count and duration, by method, route pattern and status. */
export type RecordRequest = (method: string, route: string, status: number, seconds: number) => void;

export function requestRecorder(metrics: Metrics): RecordRequest {
  const { requests, duration, eventsCreated, eventsUpdated } = series.get(metrics)!;
  // One labels object per method, route and status, made once: the hot path allocates nothing.
  const labelsByKey = new Map<string, { method: string; route: string; status_code: string }>();
  return (method, route, status, seconds) => {
    const key = `${method} ${status} ${route}`;
    let labels = labelsByKey.get(key);
    if (labels === undefined) {
      labels = { method, route, status_code: String(status) };
      labelsByKey.set(key, labels);
    }
    requests.inc(labels);
    duration.observe(labels, seconds);
    if (status === 201 && route === '/v1/events' && method === 'POST') eventsCreated.inc();
    if (status === 200 && route === '/v1/events/:id' && method === 'PATCH') eventsUpdated.inc();
  };
}

/**
 * Counts every response of `app`, labelled by the matched route pattern (never the raw URL), and
 * the events it created or updated. Call on the root instance before registering routes.
 */
export function observeRequests(app: FastifyInstance, record: RecordRequest): void {
  app.addHook('onResponse', (request, reply, done) => {
    record(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
