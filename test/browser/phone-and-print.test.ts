/**
 * The dashboard on a phone and on paper: every page at 375 px wide stays within the screen (tables
 * scroll in their own box), the event's status and its moves come before its details, and printing
 * the event page gives the brief a planner hands to a colleague, without navigation, buttons, history
 * or internal notes, on at most three A4 pages.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createUser } from '../../src/app/organizations.js';
import { inviteUser } from '../../src/app/people.js';
import { href } from '../../src/web/href.js';
import {
  type Dashboard,
  describeWithoutChromium,
  hasChromium,
  openDashboard,
  PHONE,
  seriousViolations,
  testSummit,
} from './dashboard.js';

/** How wide the document is against the window: wider means the page scrolls sideways. */
const widthOf = (page: Page) =>
  page.evaluate(() => ({ document: document.documentElement.scrollWidth, window: window.innerWidth }));

/** Pages in a PDF as Chromium writes it: one `/Type /Page` object each (`/Pages` is the tree). */
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;

if (!hasChromium) {
  describeWithoutChromium('the planning dashboard on a phone and on paper');
} else {
  describe('the planning dashboard on a phone and on paper', () => {
    let d: Dashboard;
    let summit: string;
    let sessionId: string;

    beforeAll(async () => {
      d = await openDashboard();
      summit = await d.createEvent(testSummit());
      // A history of a few edits, as a real event has by the time it is handed on.
      for (const numPeople of [100, 110, 120]) await d.api('PATCH', `/v1/events/${summit}`, { numPeople });
      sessionId = (await d.api('GET', `/v1/events/${summit}`)).json.agenda[0].id;
    }, 60_000);
    afterAll(async () => d?.close());

    it('fits every page into a 375 px wide screen, tables scrolling inside their own box', async () => {
      const widths: Record<string, number> = {};
      const measure = async (page: Page, name: string) => {
        await page.waitForLoadState('load');
        const { document, window } = await widthOf(page);
        expect(window).toBe(PHONE.width);
        widths[name] = document;
        expect(await seriousViolations(page), name).toEqual([]);
      };

      const visitor = await d.newPage(PHONE);
      await visitor.goto(`${d.base}${href.signIn()}`);
      await measure(visitor, 'sign-in');
      const { id: newcomer } = await createUser(d.t.deps, {
        organizationId: d.t.demo.organizationId,
        email: 'phone-newcomer@example.com',
        name: 'Newcomer',
      });
      await visitor.goto((await inviteUser(d.t.deps, newcomer, d.base, href.invite)).url);
      await measure(visitor, 'invite');

      const page = await d.signedIn(d.people.planner.email, PHONE);
      const pages: Array<[string, string]> = [
        ['event list', href.events()],
        ['event page', href.event(summit)],
        ['edit details', href.editEvent(summit)],
        ['new event', href.newEvent()],
        ['rooms', href.rooms(summit)],
        ['agenda', href.agenda(summit)],
        ['session', href.agendaSession(summit, sessionId)],
        ['cancel confirmation', href.move(summit, 'cancel')],
        ['sessions', href.sessions()],
        ['account', href.account()],
        ['not found', `${href.event(summit)}/nowhere`],
      ];
      for (const [name, path] of pages) {
        await page.goto(`${d.base}${path}`);
        await measure(page, name);
      }
      // A refused save: the problems at the top and beside their fields.
      await page.goto(`${d.base}${href.editEvent(summit)}`);
      await page.getByLabel('Attendees').fill('-5');
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Save' }).click()]);
      await measure(page, 'edit details, refused');
      // The room grid with a copy to check, far from the event's dates.
      await page.goto(`${d.base}${href.rooms(summit)}`);
      await page.getByLabel('First night of the range').fill('2030-06-01');
      await page.getByLabel('Last night of the range').fill('2030-06-30');
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Copy night' }).click()]);
      await expect(page.getByRole('alert').innerText()).resolves.toContain('Copied, not saved yet');
      await measure(page, 'rooms, a copy to check');
      // A cancelled event's edit page.
      const cancelled = await d.createEvent(testSummit({ name: 'Cancelled summit' }));
      await changeEventStatus(d.t.deps, cancelled, 'cancelled');
      await page.goto(`${d.base}${href.editEvent(cancelled)}`);
      await measure(page, 'edit details, cancelled');

      expect(Object.entries(widths).filter(([, width]) => width > PHONE.width)).toEqual([]);
    });

    it('shows the status and its moves before the details on a phone', async () => {
      const page = await d.signedIn(d.people.planner.email, PHONE);
      await page.goto(`${d.base}${href.event(summit)}`);
      const status = await page.getByRole('heading', { name: 'Status', level: 2 }).boundingBox();
      const overview = await page.getByRole('heading', { name: 'Overview', level: 2 }).boundingBox();
      const cancel = await page.getByRole('button', { name: 'Cancel event' }).boundingBox();
      expect(status!.y).toBeLessThan(overview!.y);
      // Within the first screen, so that a planner sees where the event stands without scrolling.
      expect(cancel!.y + cancel!.height).toBeLessThan(PHONE.height);
      // The header band spans the whole page.
      const header = await page.locator('.site-header').boundingBox();
      expect(header!.width).toBe(PHONE.width);
    });

    it('prints the event page as the brief, without navigation, buttons, history or internal notes', async () => {
      const page = await d.signedIn(d.people.planner.email);
      await page.goto(`${d.base}${href.event(summit)}`);
      await page.emulateMedia({ media: 'print' });
      const visible = (locator: ReturnType<Page['locator']>) =>
        locator.evaluateAll((elements) => elements.filter((element) => element.checkVisibility()).length);
      await expect(visible(page.locator('nav'))).resolves.toBe(0);
      await expect(visible(page.locator('button, .button, a.skip-link'))).resolves.toBe(0);
      await expect(visible(page.locator('#history'))).resolves.toBe(0);
      const text = await page.locator('body').innerText();
      expect(text).not.toContain('Internal: the CFO caps');
      // What a colleague needs is all there.
      for (const expected of [
        'Lisbon partner summit',
        'Budget in EUR',
        'Guest rooms per night',
        'Closing and awards',
        'Step-free access to every room',
        'Draft',
      ]) {
        expect(text).toContain(expected);
      }
      const pdf = await page.pdf({ format: 'A4' });
      expect(pdfPages(pdf)).toBeGreaterThan(0);
      expect(pdfPages(pdf)).toBeLessThanOrEqual(3);
    });
  });
}
