/**
 * Mail is durable and shared (D25): two dispatchers on one PostgreSQL database send each mail once,
 * retries included, and a server killed with SIGKILL with mail pending sends it after its restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpTransport } from '../../src/adapters/mail/smtp-transport.js';
import { openStore } from '../../src/adapters/open-store.js';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { prepareMail, queueMails } from '../../src/app/mail.js';
import { createMailDispatcher } from '../../src/app/mail-dispatcher.js';
import { createDemo } from '../../src/app/organizations.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { composeMail } from '../../src/domain/mail-content.js';
import type { Store } from '../../src/ports/store.js';
import { runCli } from '../cli/run-cli.js';
import { createTestSchema, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';
import {
  listeningUrl,
  prepareSqliteDatabase,
  runEventplan,
  type ServerProcess,
} from '../ops/server-process.js';
import { startSmtpSink } from './smtp-sink.js';

const FROM = { address: 'events@eventplan.example', name: 'eventplan' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Registered in the postgres project only, so it runs once.
const onPostgres =
  process.env.TEST_BACKEND === 'postgres'
    ? (name: string, body: () => void) => describeWithService('postgres', name, body)
    : () => undefined;
onPostgres('two mail dispatchers on one PostgreSQL database', () => {
  let schema: Scratch;
  const stores: Store[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    for (let i = 0; i < 2; i++) stores.push(openPostgresStore({ url: schema.url, poolSize: 4 }));
    await stores[0]!.migrate();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await schema?.drop();
  });

  it('send each mail once between them, each retry by one of them', async () => {
    const sink = await startSmtpSink();
    // The first attempt at every mail is refused, the second accepted: two attempts per mail, no more.
    const attemptsOf = new Map<string, number>();
    sink.answerWith(({ messageId }) => {
      attemptsOf.set(messageId, (attemptsOf.get(messageId) ?? 0) + 1);
      return attemptsOf.get(messageId) === 1 ? 421 : undefined;
    });
    const deps: AppDeps[] = stores.map((store) => ({
      store,
      clock: systemClock,
      ids: randomIds,
      mail: { from: FROM, publicBaseUrl: 'https://events.example.com' },
    }));
    const demo = await createDemo(deps[0]!);
    const transports = stores.map(() => createSmtpTransport({ url: sink.url, maxConnections: 4 }));
    const attemptsBy = [0, 0];
    const dispatchers = deps.map((instance, index) =>
      createMailDispatcher(instance, {
        transport: transports[index]!,
        from: FROM,
        retrySchedule: [50],
        pollIntervalMs: 10,
        concurrency: 4,
        onAttempt: () => {
          attemptsBy[index]! += 1;
        },
      }),
    );
    for (const dispatcher of dispatchers) dispatcher.start();
    const count = 40;
    for (let i = 0; i < count; i++) {
      const instance = deps[i % 2]!;
      const mail = prepareMail(
        instance,
        demo.organizationId,
        composeMail({
          to: { address: `venue-${i}@example.com`, name: null },
          content: { subject: `Mail ${i}`, greeting: 'Hello,', paragraphs: ['One of many.'] },
        }),
      );
      await queueMails(instance, [mail]);
    }
    await sink.waitFor(count, 30_000);
    await sleep(300);
    for (const dispatcher of dispatchers) await dispatcher.stop();
    for (const transport of transports) await transport.close();
    await sink.close();

    expect(sink.received).toHaveLength(count);
    expect(new Set(sink.received.map((mail) => mail.parsed.messageId)).size).toBe(count);
    expect(sink.refused).toHaveLength(count);
    expect([...attemptsOf.values()].every((attempts) => attempts === 2)).toBe(true);
    // Both instances took part, and every attempt was recorded once.
    expect(attemptsBy.every((attempts) => attempts > 0)).toBe(true);
    expect(attemptsBy[0]! + attemptsBy[1]!).toBe(2 * count);
    expect((await stores[0]!.mail.stats()).pending).toBe(0);
  }, 60_000);
});

// A SQLite server process: run once, in the sqlite project (registered there only, so nothing is skipped).
const onSqlite = process.env.TEST_BACKEND === 'postgres' ? () => undefined : describe;
onSqlite('a server killed with SIGKILL with mail pending', () => {
  let server: ServerProcess | undefined;
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });

  it('sends the mail after a restart, with the same Message-ID', async () => {
    const database = await prepareSqliteDatabase();
    const sink = await startSmtpSink();
    sink.answerWith(() => 421);
    const env = {
      DATABASE_URL: database.databaseUrl,
      PORT: '0',
      SMTP_URL: sink.url,
      MAIL_FROM: 'Acme events <events@eventplan.example>',
      MAIL_RETRY_SCHEDULE: '1s,1s,1s,1s,1s',
      PUBLIC_BASE_URL: 'https://events.example.com',
    };
    try {
      server = runEventplan(env);
      await listeningUrl(server);
      // The operator queues an invitation from another process, as `user invite --send`.
      const store = await openStore(parseDatabaseUrl(database.path));
      const planner = await store.identity.findUserByEmail(database.organizationId, 'planner@example.com');
      await store.close();
      const invited = await runCli(['--json', 'user', 'invite', '--user', planner!.id, '--send'], env);
      expect(invited.code, invited.stderr).toBe(0);
      const { mailId } = JSON.parse(invited.stdout) as { mailId: string };
      // Killed once the first attempt, refused, is recorded (an attempt cut short would wait for its lease).
      for (let i = 0; i < 300 && sink.refused.length === 0; i++) await sleep(20);
      expect(sink.refused.length).toBeGreaterThan(0);
      await sleep(200);
      server.child.kill('SIGKILL');
      await server.exited;

      sink.answerWith(() => undefined);
      server = runEventplan(env);
      const base = await listeningUrl(server);
      const [received] = await sink.waitFor(1, 20_000);
      expect(received!.parsed.messageId).toBe(sink.refused[0]!.messageId);
      expect(received!.parsed.messageId).toContain(mailId);
      expect(received!.parsed.text).toMatch(/https:\/\/events\.example\.com\/app\/invite\/[0-9A-Za-z]{43}/);
      // The log names the mail and the recipient's domain, never the link.
      await sleep(300);
      expect(server.lines.some((line) => line.msg === 'mail sent' && line.mailId === mailId)).toBe(true);
      expect(server.stdout()).not.toContain('/app/invite/');
      expect(server.stdout()).not.toContain('planner@example.com');
      // The restarted instance counts what it sent; nothing is left waiting.
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^eventplan_mail_sent_total 1$/m);
      expect(metrics).toMatch(/^eventplan_mail_pending 0$/m);
      server.child.kill('SIGTERM');
      await server.exited;
    } finally {
      await sink.close();
      database.remove();
    }
  }, 90_000);
});
