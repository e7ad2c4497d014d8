/**
 * "Forgot password" end to end, in a real browser over a real store, with the real mail dispatcher and
 * SMTP transport delivering to a real SMTP server in this process (OWASP ASVS 5, chapter 6): the same
 * answer for an unknown email, throttling, a single-use link that expires, every other session ended.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpTransport } from '../../src/adapters/mail/smtp-transport.js';
import { hashSecret } from '../../src/app/api-keys.js';
import { DEFAULT_PUBLIC_BASE_URL } from '../../src/app/mail.js';
import { createMailDispatcher, type MailDispatcher } from '../../src/app/mail-dispatcher.js';
import { RESET_REQUESTS_PER_EMAIL } from '../../src/app/people.js';
import type { MailTransport } from '../../src/ports/mail-transport.js';
import { href } from '../../src/web/href.js';
import { type SmtpSink, startSmtpSink } from '../mail/smtp-sink.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  hasChromium,
  openDashboard,
  PASSWORD,
  seriousViolations,
  signIn,
} from './dashboard.js';

const NEW_PASSWORD = 'a brand new passphrase';
const SENT =
  'If an account uses that email, a link to choose a new password is on its way there. It works once, within an hour.';

if (!hasChromium) {
  describeWithoutChromium('forgot password');
} else {
  describe('"Forgot password" on the sign-in page', () => {
    let d: Dashboard;
    let sink: SmtpSink;
    let transport: MailTransport;
    let dispatcher: MailDispatcher;

    beforeAll(async () => {
      d = await openDashboard();
      sink = await startSmtpSink();
      transport = createSmtpTransport({ url: sink.url, maxConnections: 2 });
      dispatcher = createMailDispatcher(d.t.deps, {
        transport,
        from: { address: 'eventplan@example.com', name: 'eventplan' },
        retrySchedule: [100],
        pollIntervalMs: 20,
      });
      dispatcher.start();
    }, 60_000);
    afterAll(async () => {
      await dispatcher?.stop();
      await transport?.close();
      await sink?.close();
      await d?.close();
    });

    /** Asks for a link from the sign-in page, as a person does; resolves to the answer and its time (ms). */
    async function askForLink(page: Page, email: string) {
      await page.goto(`${d.base}${href.signIn()}`);
      await clickAndLoad(page, page.getByRole('link', { name: 'Forgot your password?' }));
      await page.getByLabel('Email').fill(email);
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const response = await answered;
      await page.waitForLoadState('load');
      const timing = response.request().timing();
      return { status: response.status(), ms: timing.responseStart - timing.requestStart };
    }

    /** The link of the newest mail to `email`, on this server (links use PUBLIC_BASE_URL's default here). */
    async function linkMailedTo(email: string, count: number) {
      const mails = await sink.waitFor(count);
      const mail = mails.filter((received) => received.envelope.to.includes(email)).pop()!;
      const url = new URL(/https?:\/\/\S+reset-password\S+/.exec(mail.parsed.text ?? '')![0]);
      expect(url.origin).toBe(DEFAULT_PUBLIC_BASE_URL);
      return { mail, url: `${d.base}${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
    }

    it('mails a single-use link; the new password signs this browser in and every other one out', async () => {
      const elsewhere = await d.signedIn(d.people.sibling.email);
      const page = await d.newPage();
      expect((await askForLink(page, d.people.sibling.email)).status).toBe(303);
      await expect(page.getByText(SENT).isVisible()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      const { mail, url, token } = await linkMailedTo(d.people.sibling.email, 1);
      expect(mail.parsed.subject).toBe('Choose a new password for eventplan (Demo organization)');
      // At least 128 random bits (43 base62 characters), stored only as a hash.
      expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
      const stored = await d.t.deps.store.credentials.findPasswordReset(hashSecret(token));
      expect(stored?.tokenHash).not.toContain(token);
      expect(Date.parse(stored!.expiresAt) - Date.parse(stored!.createdAt)).toBe(60 * 60 * 1000);

      const opened = await page.goto(url);
      expect(opened!.status()).toBe(200);
      expect(opened!.headers()['referrer-policy']).toBe('no-referrer');
      expect(opened!.headers()['cache-control']).toBe('no-store');
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'Choose a new password',
      );
      expect(await seriousViolations(page)).toEqual([]);
      // The password policy holds (D15), in words, with focus on what went wrong.
      await page.getByLabel('New password').fill('short');
      await clickAndLoad(page, page.getByRole('button', { name: 'Set new password' }));
      await expect(page.getByRole('alert').innerText()).resolves.toContain(
        'New password: Use at least 8 characters (this has 5).',
      );
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await clickAndLoad(page, page.getByRole('button', { name: 'Set new password' }));
      expect(new URL(page.url()).pathname).toBe('/app');
      await expect(
        page
          .getByText('Your password is changed. Every other browser signed in as you is signed out.')
          .isVisible(),
      ).resolves.toBe(true);

      // The other browser is signed out at its next request; the old password no longer works.
      await elsewhere.goto(`${d.base}/app`);
      expect(new URL(elsewhere.url()).pathname).toBe('/app/sign-in');
      await signIn(elsewhere, d.base, d.people.sibling.email, PASSWORD);
      await expect(elsewhere.getByRole('alert').innerText()).resolves.toContain(
        'That email and password do not match an account.',
      );
      await signIn(elsewhere, d.base, d.people.sibling.email, NEW_PASSWORD);
      expect(new URL(elsewhere.url()).pathname).toBe('/app');

      // Single use: the link cannot set a password again.
      const again = await page.goto(url);
      expect(again!.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'This link cannot be used',
      );
      const forged = await page.request.post(`${d.base}${href.resetPassword()}`, {
        form: { _csrf: await csrfOf(page), token, password: 'yet another passphrase' },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(404);
    });

    it('answers an unknown email exactly as a known one, and mails nothing', async () => {
      const before = sink.received.length;
      const known = await d.newPage();
      const unknown = await d.newPage();
      const timings: Record<string, number[]> = { known: [], unknown: [] };
      for (let round = 0; round < 3; round++) {
        for (const [name, page, email] of [
          ['known', known, d.people.approver.email],
          ['unknown', unknown, `nobody-${round}@example.com`],
        ] as const) {
          const { status, ms } = await askForLink(page, email);
          expect(status).toBe(303);
          timings[name]!.push(ms);
        }
      }
      const text = async (page: Page) => page.getByRole('main').innerText();
      expect(await text(unknown)).toBe(await text(known));
      expect(new URL(unknown.url()).pathname).toBe(new URL(known.url()).pathname);
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
      console.info(
        `forgot password, time to the answer's first byte (median of 3, ms): known ${median(timings.known!).toFixed(0)}, unknown ${median(timings.unknown!).toFixed(0)}`,
      );
      // The three known requests mail the approver three links (each voiding the one before); nobody else.
      await sink.waitFor(before + 3);
      await dispatcher.idle();
      expect(sink.received.slice(before).flatMap((mail) => mail.envelope.to)).toEqual([
        d.people.approver.email,
        d.people.approver.email,
        d.people.approver.email,
      ]);
      const mails = await d.t.deps.store.mail.list({ to: 'nobody-0@example.com', limit: 10 });
      expect(mails).toEqual([]);
    });

    it('throttles requests for one email like sign-in, saying nothing of whether it exists', async () => {
      const page = await d.newPage();
      const email = 'someone-unknown@example.com';
      for (let request = 1; request <= RESET_REQUESTS_PER_EMAIL; request++) {
        expect((await askForLink(page, email)).status).toBe(303);
      }
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.goto(`${d.base}${href.forgotPassword()}`);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const response = await answered;
      expect(response.status()).toBe(429);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').innerText()).resolves.toMatch(
        /Too many requests for a password link\. Try again in \d+ minutes?\./,
      );
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    });

    it('refuses a link once it has expired, or when it was never issued', async () => {
      const token = 'E'.repeat(43);
      const now = Date.now();
      await d.t.deps.store.credentials.insertPasswordReset({
        organizationId: d.t.demo.organizationId,
        id: crypto.randomUUID(),
        userId: d.people.planner.id,
        tokenHash: hashSecret(token),
        createdAt: new Date(now - 61 * 60_000).toISOString(),
        expiresAt: new Date(now - 60_000).toISOString(),
        usedAt: null,
      });
      const page = await d.newPage();
      for (const link of [
        href.resetPassword(token),
        href.resetPassword('F'.repeat(43)),
        href.resetPassword(),
      ]) {
        const response = await page.goto(`${d.base}${link}`);
        expect(response!.status()).toBe(404);
        await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
          'This link cannot be used',
        );
      }
      await expect(page.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).resolves.toBe(
        href.forgotPassword(),
      );
      // The planner's password is unchanged.
      await signIn(page, d.base, d.people.planner.email, PASSWORD);
      expect(new URL(page.url()).pathname).toBe('/app');
    });

    it('loads nothing from outside the server and logs no console error', () => {
      expect(d.requested.filter((url) => !url.startsWith(d.base))).toEqual([]);
      expect(d.consoleErrors.filter((text) => !/status of (400|401|404|429)/.test(text))).toEqual([]);
    });
  });
}

/** The form token of the page's first form. */
const csrfOf = (page: Page) => page.locator('input[name="_csrf"]').first().inputValue();
