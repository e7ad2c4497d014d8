/**
 * Mail delivery end to end (D25) on every backend: the real outbox, the real dispatcher and SMTP
 * transport (nodemailer), and a real SMTP server in this process, read back as a mail client would.
 */

import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmtpTransport } from '../../src/adapters/mail/smtp-transport.js';
import type { AppDeps } from '../../src/app/deps.js';
import { prepareMail, queueMails } from '../../src/app/mail.js';
import {
  createMailDispatcher,
  type MailAttemptReport,
  type MailDispatcher,
  wakingOnQueuedMail,
} from '../../src/app/mail-dispatcher.js';
import { mailInvite } from '../../src/app/people.js';
import type { MailAddress } from '../../src/domain/mail.js';
import { composeMail, type MailContent } from '../../src/domain/mail-content.js';
import { createMetrics, type Metrics } from '../../src/http/metrics.js';
import type { MailTransport } from '../../src/ports/mail-transport.js';
import { href } from '../../src/web/href.js';
import { BACKENDS } from '../contract/backends.js';
import { rewrite } from '../contract/fixtures.js';
import { describeWithService } from '../helpers/services.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

const FROM: MailAddress = { address: 'events@eventplan.example', name: 'Acme events' };
const SCHEDULE = [100, 200];

const content = (subject: string, extra: Partial<MailContent> = {}): MailContent => ({
  subject,
  greeting: 'Hello,',
  paragraphs: ['A request for proposal is waiting for you.'],
  action: { label: 'Open the request', url: 'https://events.example.com/rfp/secret-token' },
  ...extra,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(20);
  }
}

for (const backend of BACKENDS) {
  const suite = (name: string, body: () => void) =>
    backend === 'postgres' ? describeWithService('postgres', name, body) : describe(name, body);
  suite(`mail delivery on ${backend}`, () => {
    let t: TestApp;
    let deps: AppDeps;
    let sink: SmtpSink;
    let transport: MailTransport;
    let dispatcher: MailDispatcher;
    let metrics: Metrics;
    let reports: MailAttemptReport[];

    const startDispatcher = (
      url: string,
      options: { attemptTimeoutMs?: number; store?: AppDeps['store'] } = {},
    ) => {
      transport = createSmtpTransport({ url, maxConnections: 4 });
      dispatcher = createMailDispatcher(
        { ...deps, store: options.store ?? deps.store },
        {
          transport,
          from: FROM,
          retrySchedule: SCHEDULE,
          pollIntervalMs: 20,
          attemptTimeoutMs: options.attemptTimeoutMs ?? 5000,
          onAttempt: (report) => {
            reports.push(report);
            metrics.countMailAttempt(report.result);
          },
        },
      );
      dispatcher.start();
    };
    const queue = async (to: MailAddress, mailContent: MailContent, replyTo: MailAddress | null = null) => {
      const mail = prepareMail(
        deps,
        t.demo.organizationId,
        composeMail({ to, replyTo, content: mailContent }),
      );
      await queueMails(deps, [mail]);
      return mail;
    };
    const stored = (id: string) => deps.store.mail.find(t.demo.organizationId, id);

    beforeAll(async () => {
      t = await startTestApp({ backend });
      deps = { ...t.deps, mail: { from: FROM, publicBaseUrl: 'https://events.example.com' } };
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      reports = [];
      metrics = createMetrics({ mailQueue: () => deps.store.mail.stats() });
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      await dispatcher?.stop();
      await transport?.close();
      await sink.close();
    });

    it('delivers a mail with its Message-ID, From, Reply-To, Auto-Submitted and both parts, logging in with SMTP_URL’s credentials', async () => {
      startDispatcher(sink.url);
      const mail = await queue(
        { address: 'venue@example.com', name: 'Hotel Central' },
        content('Request for proposal: Board offsite'),
        { address: 'planner@example.com', name: 'Ana Planner' },
      );
      const [received] = await sink.waitFor(1);
      const { parsed, envelope } = received!;
      expect(envelope).toEqual({ from: FROM.address, to: ['venue@example.com'] });
      expect(parsed.messageId).toBe(mail.messageId);
      expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
      expect(parsed.from?.value).toEqual([{ address: FROM.address, name: FROM.name }]);
      expect(parsed.to).toMatchObject({ value: [{ address: 'venue@example.com', name: 'Hotel Central' }] });
      expect(parsed.replyTo?.value).toEqual([{ address: 'planner@example.com', name: 'Ana Planner' }]);
      expect(parsed.subject).toBe('Request for proposal: Board offsite');
      expect(parsed.text).toBe(mail.text);
      expect(parsed.html).toContain('href="https://events.example.com/rfp/secret-token"');
      await dispatcher.idle();
      expect(reports.map((report) => report.result)).toEqual(['sent']);
      // Sent: the text and HTML, which carry the link, are erased; the rest is kept.
      expect(await stored(mail.id)).toMatchObject({
        status: 'sent',
        attempts: 1,
        text: null,
        html: null,
        subject: mail.subject,
        sentAt: expect.any(String),
      });
    });

    it('sends over smtps://, TLS from the start, with the same credentials', async () => {
      const tls = await startSmtpSink({ secure: true });
      try {
        startDispatcher(tls.url);
        const mail = await queue({ address: 'venue@example.com', name: null }, content('Over TLS'));
        const [received] = await tls.waitFor(1);
        expect(received!.parsed.messageId).toBe(mail.messageId);
        await dispatcher.idle();
        expect(await stored(mail.id)).toMatchObject({ status: 'sent' });
      } finally {
        await dispatcher.stop();
        // The pooled connection is closed first: the server waits for its connections to end.
        await transport.close();
        await tls.close();
      }
    });

    it('shows markup that people typed as text in the HTML part', async () => {
      startDispatcher(sink.url);
      await queue(
        { address: 'venue@example.com', name: null },
        content('Offsite <b>2027</b>', {
          greeting: 'Hello <img src=x onerror=alert(1)>,',
          facts: [{ label: 'Event', value: '<script>alert("x")</script> & friends' }],
        }),
      );
      const [{ parsed }] = (await sink.waitFor(1)) as [Awaited<ReturnType<SmtpSink['waitFor']>>[number]];
      const html = String(parsed.html);
      expect(html).not.toMatch(/<script|<img|<b>/i);
      expect(html).toContain('Hello &lt;img src=x onerror=alert(1)&gt;,');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; friends');
      expect(parsed.subject).toBe('Offsite <b>2027</b>');
      expect(parsed.text).toContain('<script>alert("x")</script> & friends');
    });

    it('never lets a line break from input reach a header: subject, reply-to name and recipient name', async () => {
      startDispatcher(sink.url);
      await queue(
        { address: 'venue@example.com', name: 'Hotel\r\nCc: evil@example.com' },
        content('Offsite\r\nBcc: evil@example.com\r\nX-Injected: yes'),
        { address: 'planner@example.com', name: 'Ana\nBcc: evil@example.com' },
      );
      const [{ parsed, envelope, head }] = (await sink.waitFor(1)) as [
        Awaited<ReturnType<SmtpSink['waitFor']>>[number],
      ];
      expect(envelope.to).toEqual(['venue@example.com']);
      expect(head).not.toMatch(/^(bcc|cc|x-injected):/im);
      expect(parsed.cc).toBeUndefined();
      expect(parsed.bcc).toBeUndefined();
      expect(parsed.headers.has('x-injected')).toBe(false);
      expect(parsed.subject).toBe('Offsite Bcc: evil@example.com X-Injected: yes');
      expect(parsed.to).toMatchObject({
        value: [{ address: 'venue@example.com', name: 'Hotel Cc: evil@example.com' }],
      });
      expect(parsed.replyTo?.value).toEqual([
        { address: 'planner@example.com', name: 'Ana Bcc: evil@example.com' },
      ]);
      // A recipient address with a line break is refused before anything is queued.
      expect(() =>
        composeMail({
          to: { address: 'venue@example.com\r\nBcc: evil@example.com', name: null },
          content: content('x'),
        }),
      ).toThrow(/to: must be one plain address/);
    });

    it('retries a refused mail on the schedule with the same Message-ID, then delivers it', async () => {
      sink.refuseNext(421, 451);
      startDispatcher(sink.url);
      const mail = await queue({ address: 'venue@example.com', name: null }, content('Retried'));
      const [received] = await sink.waitFor(1);
      expect(sink.refused.map((refusal) => [refusal.messageId, refusal.code])).toEqual([
        [mail.messageId, 421],
        [mail.messageId, 451],
      ]);
      expect(received!.parsed.messageId).toBe(mail.messageId);
      const gaps = [sink.refused[1]!.at - sink.refused[0]!.at, received!.at - sink.refused[1]!.at];
      // Each gap is the schedule's delay, give or take the 10% jitter, one poll and the SMTP exchange.
      expect(gaps[0]).toBeGreaterThanOrEqual(SCHEDULE[0]! * 0.9 - 5);
      expect(gaps[0]).toBeLessThan(SCHEDULE[0]! * 1.1 + 1000);
      expect(gaps[1]).toBeGreaterThanOrEqual(SCHEDULE[1]! * 0.9 - 5);
      expect(gaps[1]).toBeLessThan(SCHEDULE[1]! * 1.1 + 1000);
      await dispatcher.idle();
      expect(reports.map((report) => [report.result, report.reason])).toEqual([
        ['retry', 'EMESSAGE SMTP 421'],
        ['retry', 'EMESSAGE SMTP 451'],
        ['sent', null],
      ]);
      expect(await stored(mail.id)).toMatchObject({ status: 'sent', attempts: 3 });
    });

    it('marks a mail failed after the last attempt when the server keeps refusing it, and counts it', async () => {
      sink.answerWith(() => 550);
      startDispatcher(sink.url);
      const mail = await queue({ address: 'venue@example.com', name: null }, content('Refused'));
      await until(async () => (await stored(mail.id))?.status === 'failed');
      await dispatcher.idle();
      expect(sink.refused).toHaveLength(SCHEDULE.length + 1);
      expect(await stored(mail.id)).toMatchObject({
        status: 'failed',
        attempts: 3,
        nextAttemptAt: null,
        lastError: expect.stringContaining('550'),
        // Not sent: the text stays, so an operator can pass the link on another way.
        text: mail.text,
      });
      expect(reports.map((report) => report.result)).toEqual(['retry', 'retry', 'failed']);
      const text = await metrics.render();
      expect(text).toMatch(/^eventplan_mail_failed_total 1$/m);
      expect(text).toMatch(/^eventplan_mail_attempt_failures_total 3$/m);
      expect(text).toMatch(/^eventplan_mail_sent_total 0$/m);
    });

    it('retries while no SMTP server listens, then marks the mail failed; the pending gauge counts it meanwhile', async () => {
      const url = sink.url;
      await sink.close();
      sink = await startSmtpSink();
      // `url` names a port nothing listens on any more.
      startDispatcher(url);
      const mail = await queue({ address: 'venue@example.com', name: null }, content('Nobody listens'));
      await until(() => reports.length >= 1);
      expect(await metrics.render()).toMatch(/^eventplan_mail_pending [1-9]\d*$/m);
      await until(async () => (await stored(mail.id))?.status === 'failed');
      await dispatcher.idle();
      expect(reports.map((report) => report.result)).toEqual(['retry', 'retry', 'failed']);
      expect(reports[0]!.reason).toMatch(/^E(SOCKET|CONNECTION)/);
      expect(await stored(mail.id)).toMatchObject({
        attempts: 3,
        lastError: expect.stringMatching(/ECONNREFUSED/),
      });
      expect(await metrics.render()).toMatch(/^eventplan_mail_failed_total 1$/m);
    });

    it('keeps answering requests and queueing mail while the SMTP server hangs', async () => {
      // A server that accepts connections and never says a word.
      const silent: Server = createServer((socket: Socket) => socket.on('error', () => undefined));
      const sockets = new Set<Socket>();
      silent.on('connection', (socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as { port: number }).port;
      try {
        startDispatcher(`smtp://127.0.0.1:${port}`, { attemptTimeoutMs: 5000 });
        const stuck = await queue({ address: 'venue@example.com', name: null }, content('Stuck'));
        await until(() => sockets.size > 0);
        // While the attempt hangs: a request that writes answers, and more mail is queued at once.
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/events',
          headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
          payload: JSON.stringify({ name: 'While SMTP hangs' }),
        });
        expect(response.statusCode).toBe(201);
        const invited = await mailInvite(deps, t.demo.userId, 'https://events.example.com', href.invite);
        // The hanging attempt has not finished (it gives up after 5 s), yet nothing waited for it.
        expect(reports.some((report) => report.mail.id === stuck.id)).toBe(false);
        expect(await stored(stuck.id)).toMatchObject({ status: 'pending', attempts: 0 });
        expect(await stored(invited.mailId)).toMatchObject({ status: 'pending' });
        await until(() => reports.some((report) => report.mail.id === stuck.id));
        expect(reports.find((report) => report.mail.id === stuck.id)).toMatchObject({
          result: 'retry',
          reason: expect.stringMatching(/^EABORT/),
        });
      } finally {
        await dispatcher.stop();
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
      // Mail queued here must not reach later tests' dispatchers: settle it.
      startDispatcher(sink.url);
      await until(async () => (await deps.store.mail.stats()).pending === 0);
    });

    it('wakes at once, without waiting for its next poll, when this process commits an event change that carries mail', async () => {
      let dispatcherWake = () => {};
      const store = wakingOnQueuedMail(deps.store, () => dispatcherWake());
      transport = createSmtpTransport({ url: sink.url, maxConnections: 2 });
      dispatcher = createMailDispatcher(
        { ...deps, store },
        { transport, from: FROM, retrySchedule: SCHEDULE, pollIntervalMs: 60_000 },
      );
      dispatcherWake = () => dispatcher.wake();
      dispatcher.start();
      // The first round found nothing; the next poll is a minute away.
      await sleep(100);
      const created = JSON.parse(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/events',
            headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
            payload: JSON.stringify({ name: 'Woken' }),
          })
        ).body,
      ) as { id: string };
      const mail = prepareMail(
        deps,
        t.demo.organizationId,
        composeMail({ to: { address: 'venue@example.com', name: null }, content: content('Woken') }),
      );
      const committed = Date.now();
      await store.events.update(t.demo.organizationId, created.id, (current) => ({
        ...rewrite(current, {
          ...current,
          details: { ...current.details, name: 'Woken, renamed', updatedAt: new Date().toISOString() },
        }),
        mails: [mail],
      }));
      const [received] = await sink.waitFor(1, 5000);
      expect(received!.parsed.messageId).toBe(mail.messageId);
      expect(received!.at - committed).toBeLessThan(5000);
    });
  });
}
