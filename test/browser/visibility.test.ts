/**
 * Who sees which event (D15): exactly the people granted on it, its creator and the creator's
 * approvers. A sibling member of the same group and a person of another organization see nothing of
 * it: the list leaves it out and its pages are the same 404 as an event that does not exist.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Dashboard,
  describeWithoutChromium,
  fullEvent,
  hasChromium,
  openDashboard,
  seriousViolations,
} from './dashboard.js';

if (!hasChromium) {
  describeWithoutChromium('who sees an event in the planning dashboard');
} else {
  describe('who sees an event in the planning dashboard', () => {
    let d: Dashboard;
    let id: string;
    const missing = '00000000-0000-4000-8000-000000000000';
    const pages = (event: string) =>
      ['', '/edit', '/rooms', '/agenda', '/moves/cancel'].map((suffix) => `/app/events/${event}${suffix}`);

    beforeAll(async () => {
      d = await openDashboard();
      id = await d.createEvent(fullEvent({ name: 'Board offsite' }));
    }, 60_000);
    afterAll(async () => d?.close());

    const listed = async (page: Page) => {
      await page.goto(`${d.base}/app`);
      return page.getByRole('main').getByRole('link', { name: 'Board offsite' }).count();
    };

    it('shows the event to its creator, in the list and on its pages', async () => {
      const page = await d.signedIn(d.people.planner.email);
      expect(await listed(page)).toBe(1);
      for (const path of pages(id)) {
        const response = await page.goto(`${d.base}${path}`);
        expect(response!.status(), path).toBe(200);
      }
    });

    it('shows the event to the creator’s approver, with the creator named', async () => {
      const page = await d.signedIn(d.people.approver.email);
      expect(await listed(page)).toBe(1);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Board offsite' }) });
      await expect(row.innerText()).resolves.toContain('Planner');
      const response = await page.goto(`${d.base}/app/events/${id}`);
      expect(response!.status()).toBe(200);
    });

    for (const who of ['sibling', 'outsider'] as const) {
      const person =
        who === 'sibling' ? 'a sibling member of the same group' : 'a person of another organization';
      it(`shows ${person} nothing of it: not listed, and the same 404 page as no event at all`, async () => {
        const page = await d.signedIn(d.people[who].email);
        expect(await listed(page)).toBe(0);
        await expect(page.getByText('No events yet.').isVisible()).resolves.toBe(true);
        const absent = await page.goto(`${d.base}/app/events/${missing}`);
        const absentBody = (await absent!.text()).replace(/name="_csrf" value="[^"]*"/g, '');
        for (const path of pages(id)) {
          const response = await page.goto(`${d.base}${path}`);
          expect(response!.status(), path).toBe(404);
          await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Page not found');
          await expect(page.getByRole('main').innerText()).resolves.not.toContain('Board offsite');
        }
        // Byte for byte the page of an event that does not exist (but for the form token).
        const response = await page.goto(`${d.base}/app/events/${id}`);
        expect((await response!.text()).replace(/name="_csrf" value="[^"]*"/g, '')).toBe(absentBody);
        expect(await seriousViolations(page)).toEqual([]);
        // Nor can they change it by posting.
        const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
        const before = (await d.api('GET', `/v1/events/${id}`)).json;
        for (const path of [
          `/app/events/${id}/edit`,
          `/app/events/${id}/duplicate`,
          `/app/events/${id}/agenda`,
        ]) {
          const posted = await page.request.post(`${d.base}${path}`, {
            form: { _csrf: csrf, name: 'Taken over', title: 'Intrusion', version: 'x' },
            maxRedirects: 0,
          });
          expect(posted.status(), path).toBe(404);
        }
        expect((await d.api('GET', `/v1/events/${id}`)).json).toEqual(before);
      });
    }

    it('loads nothing from outside the server and logs no console error but the 404s', () => {
      expect(d.requested.filter((url) => !url.startsWith(d.base))).toEqual([]);
      expect(d.consoleErrors.filter((text) => !/status of 404/.test(text))).toEqual([]);
    });
  });
}
