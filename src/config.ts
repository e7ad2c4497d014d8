/** Reads and validates the environment once, at start-up (D1). */
import { resolve } from 'node:path';
import { DEFAULT_TASK_SETTINGS, type TaskSettings } from './app/scheduler.js';
import {
  DEFAULT_MAIL_FROM,
  DEFAULT_MAIL_RETRY_SCHEDULE,
  type MailAddress,
  parseMailbox,
} from './domain/mail.js';
import { parseRetrySchedule } from './domain/retry-schedule.js';
import { DEFAULT_RETRY_SCHEDULE } from './domain/webhooks.js';

/** Pool settings apply to PostgreSQL only; unset, the adapter's defaults apply (see docs/scale-out.md). */
export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; poolSize?: number; statementTimeoutMs?: number };

/** Socket limits, in milliseconds, for a server that may face clients directly. */
export interface ServerTimeouts {
  /** A client must finish sending the request headers within this time. */
  headersMs: number;
  /** A client must finish sending the whole request (headers and body) within this time. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveMs: number;
  /** A socket with no activity at all (e.g. a client that stops reading) is closed after this time. */
  connectionMs: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  logLevel: string;
  rateLimitPerMinute: number;
  timeouts: ServerTimeouts;
  /** Hard deadline for a graceful shutdown; past it the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Which proxies' X-Forwarded-For to believe for the client address (per-address rate limits). */
  trustProxy: TrustProxy;
  /** How long dashboard sessions last (D15): idle timeout and absolute lifetime. */
  sessionPolicy: { idleMinutes: number; maxDays: number };
  webhooks: WebhookConfig;
  mail: MailConfig;
  scheduler: SchedulerConfig;
}

/** The scheduler (src/app/scheduler.ts) and the settings of its tasks. */
export interface SchedulerConfig {
  /** SCHEDULER_INTERVAL_MS: how long a round waits for the next when it found nothing more to do. */
  intervalMs: number;
  tasks: TaskSettings;
}

/** How webhooks are sent (D18). */
export interface WebhookConfig {
  /** An attempt succeeds only with a 2xx within this time. */
  timeoutMs: number;
  /** Delays between attempts, in ms. */
  retrySchedule: number[];
  /** Private addresses and http allowed (local development and tests). */
  allowPrivateNetworks: boolean;
}

/** How mail is sent (D25). */
export interface MailConfig {
  /** SMTP_URL (`smtp://` or `smtps://`, credentials in it); unset: mail stays in the outbox, unsent. */
  smtpUrl: string | undefined;
  /** MAIL_FROM. */
  from: MailAddress;
  /** Delays between attempts, in ms (MAIL_RETRY_SCHEDULE). */
  retrySchedule: number[];
  /** PUBLIC_BASE_URL without a trailing slash; unset: the `http://HOST:PORT` the server listens on. */
  publicBaseUrl: string | undefined;
}

export type TrustProxy = false | number | string[];

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const DEFAULT_DATABASE = './data/eventplan.db';

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** `postgres://…` selects PostgreSQL; a file path or `file:` URL selects SQLite. */
export function parseDatabaseUrl(raw: string | undefined, variable = 'DATABASE_URL'): DatabaseConfig {
  const value = raw === undefined || raw === '' ? DEFAULT_DATABASE : raw;
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError(`${variable} is not a valid postgres:// URL`);
    }
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('file:')) {
    const path = value.startsWith('file://') ? new URL(value).pathname : value.slice('file:'.length);
    if (path === '') throw new ConfigError(`${variable} file: URL names no file`);
    return { kind: 'sqlite', path: resolve(path) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError(
      `${variable} must be postgres://…, a file: URL or a file path (got scheme "${value.split(':')[0]}")`,
    );
  }
  return { kind: 'sqlite', path: value === ':memory:' ? value : resolve(value) };
}

/**
 * The database `serve` and every operator command open: DATABASE_URL (or the value given in its place,
 * named by `variable` in messages), with `DATABASE_POOL_SIZE` and `DATABASE_STATEMENT_TIMEOUT_MS`
 * checked whichever backend is chosen.
 */
export function readDatabaseConfig(
  env: NodeJS.ProcessEnv,
  url: string | undefined = env.DATABASE_URL,
  variable = 'DATABASE_URL',
): DatabaseConfig {
  const database = parseDatabaseUrl(url, variable);
  const poolSize = integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000);
  const statementTimeoutMs = integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000);
  return database.kind === 'postgres' ? { ...database, poolSize, statementTimeoutMs } : database;
}

export function readServerTimeouts(env: NodeJS.ProcessEnv): ServerTimeouts {
  const timeouts = {
    headersMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestMs: integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    keepAliveMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    connectionMs: integer(env, 'HTTP_CONNECTION_TIMEOUT_MS', 60_000, 100, 3_600_000),
  };
  // Node refuses a headers timeout longer than the request timeout.
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new ConfigError(
      `HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${timeouts.requestMs})`,
    );
  }
  return timeouts;
}

const PROXY_ADDRESS = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

/**
 * `TRUST_PROXY`: unset, client addresses are the socket's; a whole number N trusts N proxy hops of
 * X-Forwarded-For; otherwise a comma-separated list of proxy addresses or CIDR ranges.
 */
export function readTrustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return false;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 100);
  const addresses = raw.split(',').map((part) => part.trim());
  if (addresses.some((address) => !PROXY_ADDRESS.test(address))) {
    throw new ConfigError(
      `TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses or CIDR ranges (got "${raw}")`,
    );
  }
  return addresses;
}

export function readWebhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  const scheduleText = env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE;
  const retrySchedule = parseRetrySchedule(scheduleText);
  if (!retrySchedule) {
    throw new ConfigError(
      `WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of delays such as ${DEFAULT_RETRY_SCHEDULE} (units ms, s, m, h, d; 1 to 50 of them) (got "${scheduleText}")`,
    );
  }
  const allow = env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? '';
  if (!['', '0', '1'].includes(allow)) {
    throw new ConfigError(`WEBHOOK_ALLOW_PRIVATE_NETWORKS must be 1 or 0 (got "${allow}")`);
  }
  return {
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    retrySchedule,
    allowPrivateNetworks: allow === '1',
  };
}

/** Where people reach eventplan, for links in mails and printed links: an http(s) URL, maybe with a path. */
export function readPublicBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.PUBLIC_BASE_URL?.trim();
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(
      `PUBLIC_BASE_URL must be an http:// or https:// URL without query, fragment or credentials, such as https://events.example.com (got "${raw}")`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** SMTP_URL, checked without ever being repeated in a message: it may hold a password. */
function readSmtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SMTP_URL?.trim();
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(
      'SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtps://user:password@mail.example.com:465 (its value is not shown: it may hold a password)',
    );
  }
  return raw;
}

/** MAIL_FROM: who mail comes from (its domain also names each mail's Message-ID). */
export function readMailFrom(env: NodeJS.ProcessEnv): MailAddress {
  const fromText = env.MAIL_FROM || DEFAULT_MAIL_FROM;
  const from = parseMailbox(fromText);
  if (!from) {
    throw new ConfigError(
      `MAIL_FROM must be an address, or a name and an address in angle brackets, such as ${DEFAULT_MAIL_FROM} (got "${fromText}")`,
    );
  }
  return from;
}

export function readMailConfig(env: NodeJS.ProcessEnv): MailConfig {
  const from = readMailFrom(env);
  const scheduleText = env.MAIL_RETRY_SCHEDULE || DEFAULT_MAIL_RETRY_SCHEDULE;
  const retrySchedule = parseRetrySchedule(scheduleText);
  if (!retrySchedule) {
    throw new ConfigError(
      `MAIL_RETRY_SCHEDULE must be a comma-separated list of delays such as ${DEFAULT_MAIL_RETRY_SCHEDULE} (units ms, s, m, h, d; 1 to 50 of them) (got "${scheduleText}")`,
    );
  }
  return { smtpUrl: readSmtpUrl(env), from, retrySchedule, publicBaseUrl: readPublicBaseUrl(env) };
}

/** Most days before a reply date a reminder may go out: a year. */
const MAX_REMINDER_DAYS = 365;

export function readSchedulerConfig(env: NodeJS.ProcessEnv): SchedulerConfig {
  return {
    intervalMs: integer(env, 'SCHEDULER_INTERVAL_MS', 60_000, 100, 3_600_000),
    tasks: {
      rfpReminderDays: integer(
        env,
        'RFP_REMINDER_DAYS',
        DEFAULT_TASK_SETTINGS.rfpReminderDays,
        0,
        MAX_REMINDER_DAYS,
      ),
    },
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  const host = env.HOST || '127.0.0.1';
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    database: readDatabaseConfig(env),
    redisUrl,
    logLevel,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000_000),
    timeouts: readServerTimeouts(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 120_000),
    trustProxy: readTrustProxy(env),
    sessionPolicy: {
      idleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 720, 1, 525_600),
      maxDays: integer(env, 'SESSION_MAX_DAYS', 7, 1, 365),
    },
    webhooks: readWebhookConfig(env),
    mail: readMailConfig(env),
    scheduler: readSchedulerConfig(env),
  };
}

/**
 * Where `serve` is reached, for links made by operator commands (`user invite`, `demo`):
 * PUBLIC_BASE_URL, else `http://HOST:PORT` with the same defaults as `serve`.
 */
export function readBaseUrl(env: NodeJS.ProcessEnv): string {
  const publicBaseUrl = readPublicBaseUrl(env);
  if (publicBaseUrl !== undefined) return publicBaseUrl;
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
