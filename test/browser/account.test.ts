/**
 * The account page in a real browser (D24): reached from the navigation, one switch per kind of mail,
 * each saved for the signed-in person alone and respected by the next change; a forged kind is named
 * next to the switches with what was ticked kept; a POST without its form token writes nothing;
 * usable at 375 px; axe-core finds nothing serious.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyRequester } from '../../src/app/events.js';
import { notificationSwitches } from '../../src/app/notification-settings.js';
import { moveMyEvent } from '../../src/app/planning.js';
import { href } from '../../src/web/href.js';
import { shortlistVenue } from '../helpers/sourcing.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  fullEvent,
  hasChromium,
  openDashboard,
  PHONE,
  seriousViolations,
} from './dashboard.js';

const SWITCHES = [
  'Approval requests',
  'Your events approved or returned',
  'Proposals received',
  'Venues turning down',
  'Questions from venues',
];

const csrfOf = (page: Page) => page.locator('input[name="_csrf"]').first().inputValue();
const checked = (page: Page) =>
  Promise.all(SWITCHES.map((name) => page.getByRole('checkbox', { name }).isChecked()));

if (!hasChromium) {
  describeWithoutChromium('account page');
} else {
  describe('the account page', () => {
    let d: Dashboard;
    const orgOf = () => d.t.demo.organizationId;

    beforeAll(async () => {
      d = await openDashboard();
    }, 60_000);
    afterAll(() => d?.close());

    it('is linked from the navigation and has every mail switched on until the person says otherwise', async () => {
      const page = await d.signedIn(d.people.planner.email);
      await clickAndLoad(page, page.getByRole('navigation').getByRole('link', { name: 'Account' }));
      expect(new URL(page.url()).pathname).toBe(href.account());
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Your account');
      await expect(page.getByRole('main').innerText()).resolves.toContain(
        'Mails about your events go to planner@example.com.',
      );
      expect(await checked(page)).toEqual([true, true, true, true, true]);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('switches one kind off for this person alone, says so, and the next change respects it', async () => {
      const approver = await d.signedIn(d.people.approver.email);
      await approver.goto(`${d.base}${href.account()}`);
      await approver.getByRole('checkbox', { name: 'Approval requests' }).uncheck();
      await clickAndLoad(approver, approver.getByRole('button', { name: 'Save mail settings' }));
      await expect(approver.getByRole('status').innerText()).resolves.toContain(
        'Your mail settings are saved.',
      );
      expect(await checked(approver)).toEqual([false, true, true, true, true]);
      expect(await seriousViolations(approver)).toEqual([]);
      const { deps, demo } = d.t;
      expect(await notificationSwitches(deps, { organizationId: orgOf(), userId: demo.approverId })).toEqual([
        { kind: 'approval_requested', on: false },
        { kind: 'approval_answered', on: true },
        { kind: 'proposal_received', on: true },
        { kind: 'venue_turned_down', on: true },
        { kind: 'venue_question', on: true },
      ]);
      // The planner's own switches are untouched.
      const planner = await d.signedIn(d.people.planner.email);
      await planner.goto(`${d.base}${href.account()}`);
      expect(await checked(planner)).toEqual([true, true, true, true, true]);

      // The planner asks for approval: the approver, who switched that off, is not mailed.
      const id = await d.createEvent(fullEvent({ name: 'Quiet approval' }));
      const key = apiKeyRequester({ organizationId: orgOf(), userId: demo.userId, keyId: demo.keyId });
      await shortlistVenue(deps, key, id);
      await moveMyEvent(deps, { organizationId: orgOf(), userId: demo.userId }, id, {
        move: 'request_approval',
      });
      const mails = await deps.store.mail.list({ to: d.people.approver.email, limit: 50 });
      expect(mails.filter((mail) => mail.subject.startsWith('Approval requested: Quiet approval'))).toEqual(
        [],
      );

      // Switched on again, the next request reaches them.
      await approver.getByRole('checkbox', { name: 'Approval requests' }).check();
      await clickAndLoad(approver, approver.getByRole('button', { name: 'Save mail settings' }));
      expect(await checked(approver)).toEqual([true, true, true, true, true]);
      await moveMyEvent(deps, { organizationId: orgOf(), userId: demo.approverId }, id, {
        move: 'return_to_draft',
        note: 'Later',
      });
      await moveMyEvent(deps, { organizationId: orgOf(), userId: demo.userId }, id, {
        move: 'request_approval',
      });
      const again = await deps.store.mail.list({ to: d.people.approver.email, limit: 50 });
      expect(
        again.filter((mail) => mail.subject.startsWith('Approval requested: Quiet approval')),
      ).toHaveLength(1);
    });

    it('names a forged kind next to the switches, keeps what was ticked, and saves nothing', async () => {
      const page = await d.signedIn(d.people.sibling.email);
      await page.goto(`${d.base}${href.account()}`);
      await page.getByRole('checkbox', { name: 'Proposals received' }).uncheck();
      await page.evaluate(() => {
        const forged = document.createElement('input');
        forged.type = 'hidden';
        forged.name = 'notifications';
        forged.value = 'everything';
        document.querySelector('form[method="post"][action="/app/account"]')!.append(forged);
      });
      await clickAndLoad(page, page.getByRole('button', { name: 'Save mail settings' }));
      await expect(page.getByRole('alert').innerText()).resolves.toContain('Mails:');
      await expect(page.locator('#field-notifications-error').innerText()).resolves.toBe(
        'Choose only among the mails listed here; reload the page and try again.',
      );
      expect(await checked(page)).toEqual([true, true, false, true, true]);
      expect(await seriousViolations(page)).toEqual([]);
      const stored = await notificationSwitches(d.t.deps, {
        organizationId: orgOf(),
        userId: d.people.sibling.id,
      });
      expect(stored.every((one) => one.on)).toBe(true);
    });

    it('refuses a POST without its form token, and saves nothing', async () => {
      const page = await d.signedIn(d.people.sibling.email);
      await page.goto(`${d.base}${href.account()}`);
      const forged = await page.request.post(`${d.base}${href.account()}`, {
        form: { notifications: 'approval_requested' },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(403);
      const withToken = await page.request.post(`${d.base}${href.account()}`, {
        form: { _csrf: await csrfOf(page), notifications: 'approval_requested' },
        maxRedirects: 0,
      });
      expect(withToken.status()).toBe(303);
      const stored = await notificationSwitches(d.t.deps, {
        organizationId: orgOf(),
        userId: d.people.sibling.id,
      });
      expect(stored.filter((one) => one.on).map((one) => one.kind)).toEqual(['approval_requested']);
    });

    it('reads at 375 px without sideways scrolling, and axe-core finds nothing serious there', async () => {
      const page = await d.signedIn(d.people.planner.email, PHONE);
      await page.goto(`${d.base}${href.account()}`);
      const width = await page.evaluate(() => ({
        document: document.documentElement.scrollWidth,
        window: window.innerWidth,
      }));
      expect(width.document).toBeLessThanOrEqual(width.window);
      await expect(page.getByRole('button', { name: 'Save mail settings' }).isVisible()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('is only for a signed-in person', async () => {
      const page = await d.newPage();
      await page.goto(`${d.base}${href.account()}`);
      expect(new URL(page.url()).pathname).toBe(href.signIn());
    });
  });
}
