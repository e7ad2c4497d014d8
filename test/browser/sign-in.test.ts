/**
 * Getting in and out of the planning dashboard in a real browser (D15): sign-in and sign-out, one
 * message for a wrong password and an unknown email, throttling, keyboard-only sign-in, the signed-in devices
 * page, a deactivated person's session, and a POST without the form token.
 */

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, deactivateUser } from '../../src/app/organizations.js';
import { inviteUser, setPassword } from '../../src/app/people.js';
import { href } from '../../src/web/href.js';
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

const REFUSAL = 'That email and password do not match an account.';

if (!hasChromium) {
  describeWithoutChromium('signing in to the planning dashboard');
} else {
  describe('signing in to the planning dashboard', () => {
    let d: Dashboard;

    beforeAll(async () => {
      d = await openDashboard();
    }, 60_000);
    afterAll(async () => d?.close());

    const refusalOf = async (page: Page) => page.getByRole('alert').innerText();

    it('sends a signed-out visitor of /app to the sign-in page, then back where they were going', async () => {
      const id = await d.createEvent();
      const page = await d.newPage();
      await page.goto(`${d.base}/app/events/${id}`);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Sign in to eventplan');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Email').fill(d.people.planner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await clickAndLoad(page, page.getByRole('button', { name: 'Sign in' }));
      expect(new URL(page.url()).pathname).toBe(`/app/events/${id}`);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Sales kickoff');
    });

    it('lets an invited person choose a password (a common one refused) and signs them in', async () => {
      const { id } = await createUser(d.t.deps, {
        organizationId: d.t.demo.organizationId,
        email: 'newcomer@example.com',
        name: 'Newcomer',
      });
      const { url } = await inviteUser(d.t.deps, id, d.base, href.invite);
      const page = await d.newPage();
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Choose a password');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('New password').fill('password123');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').isVisible()).resolves.toBe(true);
      await expect(page.getByLabel('New password').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('New password').fill('a quiet harbour in autumn');
      await clickAndLoad(page, page.getByRole('button', { name: 'Set password' }));
      expect(new URL(page.url()).pathname).toBe('/app');
      await expect(page.getByText('Your password is set. Welcome.').isVisible()).resolves.toBe(true);
      // The link is single-use.
      const again = await page.goto(url);
      expect(again!.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'This invitation cannot be used',
      );
    });

    it('signs in, names the person in the header, and signs out with the header button', async () => {
      const page = await d.signedIn(d.people.planner.email);
      await expect(page.getByRole('banner').innerText()).resolves.toContain('Planner');
      await clickAndLoad(page, page.getByRole('button', { name: 'Sign out' }));
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await expect(page.getByText('You are signed out.').isVisible()).resolves.toBe(true);
      // The old session is gone: /app leads to the sign-in page again.
      await page.goto(`${d.base}/app`);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    });

    it('gives a wrong password and an unknown email the same message, and keeps the email typed', async () => {
      const page = await d.newPage();
      await signIn(page, d.base, d.people.approver.email, 'not the password at all');
      const wrongPassword = await refusalOf(page);
      expect(wrongPassword).toContain(REFUSAL);
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe(d.people.approver.email);
      await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
      expect(await seriousViolations(page)).toEqual([]);

      await signIn(page, d.base, 'nobody-here@example.com', 'not the password at all');
      expect(await refusalOf(page)).toBe(wrongPassword);
    });

    it('refuses every attempt after 5 failures for one email, even the 6th with the right password', async () => {
      const { id } = await createUser(d.t.deps, {
        organizationId: d.t.demo.organizationId,
        email: 'throttled@example.com',
      });
      await setPassword(d.t.deps, id, PASSWORD);
      const page = await d.newPage();
      for (let attempt = 1; attempt <= 5; attempt++) {
        await signIn(page, d.base, 'throttled@example.com', `wrong guess ${attempt}`);
        expect(await refusalOf(page)).toContain(REFUSAL);
      }
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await signIn(page, d.base, 'throttled@example.com', PASSWORD);
      const response = await answered;
      expect(response.status()).toBe(429);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      const refusal = await refusalOf(page);
      expect(refusal).not.toContain(REFUSAL);
      expect(refusal).toMatch(/too many/i);
      // Another email from the same browser is not held back.
      await signIn(page, d.base, d.people.approver.email, PASSWORD);
      expect(new URL(page.url()).pathname).toBe('/app');
    });

    it('signs in with the keyboard alone: Tab to each control, type, Enter', async () => {
      const page = await d.newPage();
      await page.goto(`${d.base}/app/sign-in`);
      // The first Tab reaches the skip link, which leads to the form.
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
      const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('name'));
      for (let presses = 0; presses < 5 && (await focusedName()) !== 'email'; presses++) {
        await page.keyboard.press('Tab');
      }
      expect(await focusedName()).toBe('email');
      await page.keyboard.type(d.people.planner.email);
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('password');
      await page.keyboard.type(PASSWORD);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(new URL(page.url()).pathname).toBe('/app');
      await expect(page.getByRole('heading', { level: 1, name: 'Events' }).isVisible()).resolves.toBe(true);
    });

    it('lists the person’s signed-in devices and signs another browser out at its next request', async () => {
      const first = await d.signedIn(d.people.sibling.email);
      const second = await d.signedIn(d.people.sibling.email);
      await second.goto(`${d.base}/app/sessions`);
      await expect(second.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'Your signed-in devices',
      );
      expect(await seriousViolations(second)).toEqual([]);
      const rows = second
        .getByRole('row')
        .filter({ has: second.getByRole('button', { name: 'Sign out this device' }) });
      await expect(rows.count()).resolves.toBeGreaterThanOrEqual(1);
      await expect(second.getByRole('button', { name: 'Sign out here' }).count()).resolves.toBe(1);
      // The browser is named, not its user-agent string.
      await expect(rows.first().getByRole('rowheader').innerText()).resolves.toBe('Chrome on Linux');
      // End every other session: the first browser is signed out at its next request.
      while ((await second.getByRole('button', { name: 'Sign out this device' }).count()) > 0) {
        await clickAndLoad(second, second.getByRole('button', { name: 'Sign out this device' }).first());
        await expect(second.getByText('That device is signed out.').isVisible()).resolves.toBe(true);
      }
      await first.goto(`${d.base}/app`);
      expect(new URL(first.url()).pathname).toBe('/app/sign-in');
      await second.goto(`${d.base}/app`);
      expect(new URL(second.url()).pathname).toBe('/app');
    });

    it('ends a deactivated person’s session at their next request', async () => {
      const { id } = await createUser(d.t.deps, {
        organizationId: d.t.demo.organizationId,
        email: 'leaving@example.com',
      });
      await setPassword(d.t.deps, id, PASSWORD);
      const page = await d.signedIn('leaving@example.com');
      await deactivateUser(d.t.deps, id);
      await page.goto(`${d.base}/app`);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      // And they cannot sign in again: the same refusal as a wrong password.
      await signIn(page, d.base, 'leaving@example.com', PASSWORD);
      expect(await refusalOf(page)).toContain(REFUSAL);
    });

    it('refuses a POST without the form token with 403 and writes nothing', async () => {
      const id = await d.createEvent({ name: 'Untouched' });
      const page = await d.signedIn(d.people.planner.email);
      const before = (await d.api('GET', `/v1/events/${id}`)).json;
      const forged = await page.request.post(`${d.base}/app/events/${id}/edit`, {
        form: { name: 'Forged', version: 'anything' },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(403);
      expect(await forged.text()).toContain('This form has expired');
      const wrongToken = await page.request.post(`${d.base}/app/events/${id}/moves/cancel`, {
        form: { reason: 'Forged', _csrf: 'not-a-token' },
        maxRedirects: 0,
      });
      expect(wrongToken.status()).toBe(403);
      const signOut = await page.request.post(`${d.base}/app/sign-out`, { form: {}, maxRedirects: 0 });
      expect(signOut.status()).toBe(403);
      expect((await d.api('GET', `/v1/events/${id}`)).json).toEqual(before);
      // Still signed in: the forged sign-out did nothing.
      await page.goto(`${d.base}/app`);
      expect(new URL(page.url()).pathname).toBe('/app');
    });

    it('sets the session cookie HttpOnly and SameSite=Lax on path /', async () => {
      const page = await d.signedIn(d.people.approver.email);
      const cookies = await page.context().cookies();
      const session = cookies.find((cookie) => cookie.name === 'eventplan_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    });

    it('sends pages with a strict Content-Security-Policy, nosniff, no referrer and no caching; / leads to /app', async () => {
      const page = await d.newPage();
      const response = (await page.goto(`${d.base}/`))!;
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      const headers = response.headers();
      expect(headers['content-security-policy']).toContain("default-src 'none'");
      expect(headers['content-security-policy']).toContain("script-src 'self'");
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['cache-control']).toBe('no-store');
    });

    it('loads nothing from outside the server and logs no console error', () => {
      expect(d.requested.length).toBeGreaterThan(5);
      expect(d.requested.filter((url) => !url.startsWith(d.base))).toEqual([]);
      expect(d.consoleErrors.filter((text) => !/status of (400|401|403|404|429)/.test(text))).toEqual([]);
    });
  });
}
