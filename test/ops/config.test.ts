import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readBaseUrl } from '../../src/config.js';
import { exitWithin, runEventplan } from './server-process.js';

describe('configuration checked at start', () => {
  // A path below a regular file can never be created.
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-config-'));
  writeFileSync(join(dir, 'a-file'), '');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bad: Array<[string, Record<string, string>, RegExp]> = [
    ['a PORT that is not a number', { PORT: 'eighty' }, /PORT/],
    ['a PORT out of range', { PORT: '70000' }, /PORT/],
    [
      'a DATABASE_URL with an unknown scheme',
      { DATABASE_URL: 'mysql://db.example/eventplan' },
      /DATABASE_URL/,
    ],
    ['a malformed postgres DATABASE_URL', { DATABASE_URL: 'postgres://user@[not-a-host/db' }, /DATABASE_URL/],
    [
      'a DATABASE_URL file that cannot be created',
      { DATABASE_URL: join(dir, 'a-file', 'eventplan.db') },
      /DATABASE_URL/,
    ],
    ['a zero RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '0' }, /RATE_LIMIT_PER_MINUTE/],
    [
      'a RATE_LIMIT_PER_MINUTE that is not a number',
      { RATE_LIMIT_PER_MINUTE: '10/s' },
      /RATE_LIMIT_PER_MINUTE/,
    ],
    ['an unknown LOG_LEVEL', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [
      'a headers timeout longer than the request timeout',
      { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' },
      /HTTP_HEADERS_TIMEOUT_MS.*HTTP_REQUEST_TIMEOUT_MS/,
    ],
    ['a negative SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_TIMEOUT_MS: '-5' }, /SHUTDOWN_TIMEOUT_MS/],
    ['a TRUST_PROXY that is neither hops nor addresses', { TRUST_PROXY: 'yes please' }, /TRUST_PROXY/],
    ['an SMTP_URL that is not smtp:// or smtps://', { SMTP_URL: 'https://mail.example.com' }, /SMTP_URL/],
    ['a MAIL_FROM that is not an address', { MAIL_FROM: 'eventplan' }, /MAIL_FROM/],
    [
      'a MAIL_RETRY_SCHEDULE that is not a list of delays',
      { MAIL_RETRY_SCHEDULE: 'soon' },
      /MAIL_RETRY_SCHEDULE/,
    ],
    ['an RFP_REMINDER_DAYS that is not a number of days', { RFP_REMINDER_DAYS: 'two' }, /RFP_REMINDER_DAYS/],
    ['a SCHEDULER_INTERVAL_MS below 100 ms', { SCHEDULER_INTERVAL_MS: '10' }, /SCHEDULER_INTERVAL_MS/],
    [
      'a PUBLIC_BASE_URL that is not http(s)',
      { PUBLIC_BASE_URL: 'ftp://events.example.com' },
      /PUBLIC_BASE_URL/,
    ],
  ];

  it('stops `eventplan serve` with a non-zero exit and a message naming the variable, for each bad value', async () => {
    const runs = bad.map(([, env]) => runEventplan({ PORT: '0', DATABASE_URL: ':memory:', ...env }));
    const exits = await Promise.all(runs.map((run) => exitWithin(run, 30_000))).finally(() => {
      for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGKILL');
    });
    exits.forEach((exit, index) => {
      const [what, , names] = bad[index]!;
      const stderr = runs[index]!.stderr();
      expect(exit.code, `${what}: ${stderr}`).not.toBe(0);
      expect(exit.code, what).not.toBeNull();
      expect(stderr, what).toMatch(names);
      expect(runs[index]!.stdout(), what).not.toMatch(/Server listening/);
    });
  }, 60_000);
});

describe('loadConfig', () => {
  it('trusts no proxy by default, and reads TRUST_PROXY as hops or as proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('defaults the dashboard sessions to 720 idle minutes and 7 days, and reads both', () => {
    expect(loadConfig({}).sessionPolicy).toEqual({ idleMinutes: 720, maxDays: 7 });
    expect(loadConfig({ SESSION_IDLE_MINUTES: '30', SESSION_MAX_DAYS: '1' }).sessionPolicy).toEqual({
      idleMinutes: 30,
      maxDays: 1,
    });
    expect(() => loadConfig({ SESSION_IDLE_MINUTES: '0' })).toThrow(/SESSION_IDLE_MINUTES/);
    expect(() => loadConfig({ SESSION_MAX_DAYS: 'a week' })).toThrow(/SESSION_MAX_DAYS/);
    expect(() => loadConfig({ SESSION_MAX_DAYS: '366' })).toThrow(
      /SESSION_MAX_DAYS must be a whole number from 1 to 365/,
    );
  });

  it('reads the scheduler’s settings: a round a minute, reminders two days before a reply date, 0 to turn them off', () => {
    expect(loadConfig({}).scheduler).toEqual({ intervalMs: 60_000, tasks: { rfpReminderDays: 2 } });
    expect(loadConfig({ RFP_REMINDER_DAYS: '0', SCHEDULER_INTERVAL_MS: '500' }).scheduler).toEqual({
      intervalMs: 500,
      tasks: { rfpReminderDays: 0 },
    });
    expect(() => loadConfig({ RFP_REMINDER_DAYS: '-1' })).toThrow(
      /RFP_REMINDER_DAYS must be a whole number from 0 to 365 \(got "-1"\)/,
    );
    expect(() => loadConfig({ RFP_REMINDER_DAYS: '1.5' })).toThrow(/RFP_REMINDER_DAYS/);
    expect(() => loadConfig({ SCHEDULER_INTERVAL_MS: '1h' })).toThrow(/SCHEDULER_INTERVAL_MS/);
  });

  it('builds the base URL of printed links from PUBLIC_BASE_URL, else from HOST and PORT', () => {
    expect(readBaseUrl({ PUBLIC_BASE_URL: 'https://events.example.com/', HOST: 'x', PORT: '1' })).toBe(
      'https://events.example.com',
    );
    expect(readBaseUrl({ PUBLIC_BASE_URL: 'https://example.com/eventplan//' })).toBe(
      'https://example.com/eventplan',
    );
    expect(readBaseUrl({})).toBe('http://127.0.0.1:3000');
    expect(readBaseUrl({ HOST: 'plan.internal', PORT: '8080' })).toBe('http://plan.internal:8080');
    expect(readBaseUrl({ HOST: '::1', PORT: '8080' })).toBe('http://[::1]:8080');
  });

  it('reads the webhook settings, defaulting to D18, and names a bad one', () => {
    expect(loadConfig({}).webhooks).toEqual({
      timeoutMs: 15_000,
      retrySchedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000],
      allowPrivateNetworks: false,
    });
    expect(
      loadConfig({
        WEBHOOK_RETRY_SCHEDULE: '100ms,2s',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
        WEBHOOK_TIMEOUT_MS: '500',
      }).webhooks,
    ).toEqual({ timeoutMs: 500, retrySchedule: [100, 2000], allowPrivateNetworks: true });
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_NETWORKS/,
    );
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
  });

  it('reads the mail settings, defaulting to D25: no SMTP_URL, so mail stays in the outbox', () => {
    expect(loadConfig({}).mail).toEqual({
      smtpUrl: undefined,
      from: { name: 'eventplan', address: 'eventplan@localhost' },
      retrySchedule: [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 86_400_000],
      publicBaseUrl: undefined,
    });
    expect(
      loadConfig({
        SMTP_URL: 'smtps://mailer:p%40ss@mail.example.com:465',
        MAIL_FROM: '"Acme, Events" <events@acme.example>',
        MAIL_RETRY_SCHEDULE: '1s,1m',
        PUBLIC_BASE_URL: 'https://events.acme.example',
      }).mail,
    ).toEqual({
      smtpUrl: 'smtps://mailer:p%40ss@mail.example.com:465',
      from: { name: 'Acme, Events', address: 'events@acme.example' },
      retrySchedule: [1000, 60_000],
      publicBaseUrl: 'https://events.acme.example',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://localhost' }).mail.smtpUrl).toBe('smtp://localhost');
  });

  it('names a bad mail setting, and never repeats SMTP_URL, which may hold a password', () => {
    for (const url of [
      'http://mailer:s3cret@mail.example.com',
      'smtp://',
      'mailer:s3cret@mail.example.com',
    ]) {
      expect(() => loadConfig({ SMTP_URL: url })).toThrow(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
      try {
        loadConfig({ SMTP_URL: url });
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret');
      }
    }
    expect(() => loadConfig({ MAIL_FROM: 'a@b.com\r\nBcc: c@d.com' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ MAIL_FROM: 'Events <not an address>' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ MAIL_RETRY_SCHEDULE: '10s,,1m' })).toThrow(/MAIL_RETRY_SCHEDULE/);
    for (const url of [
      'events.example.com',
      'https://events.example.com/?a=1',
      'https://u:p@events.example.com',
    ]) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: url })).toThrow(/PUBLIC_BASE_URL/);
    }
  });

  it('defaults the server timeouts and the shutdown deadline', () => {
    const config = loadConfig({});
    expect(config.timeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
      connectionMs: 60_000,
    });
    expect(config.shutdownTimeoutMs).toBe(10_000);
  });

  it('reads the timeouts from the environment', () => {
    const config = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '61000',
      HTTP_CONNECTION_TIMEOUT_MS: '9000',
      SHUTDOWN_TIMEOUT_MS: '3000',
    });
    expect(config.timeouts).toEqual({
      headersMs: 2000,
      requestMs: 4000,
      keepAliveMs: 61_000,
      connectionMs: 9000,
    });
    expect(config.shutdownTimeoutMs).toBe(3000);
  });

  it('refuses a timeout below 100 ms, naming the variable', () => {
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
  });
});
