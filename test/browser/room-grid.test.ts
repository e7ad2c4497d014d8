/**
 * The room grid in a real browser, for what went wrong there: the "Saved." that never showed, "Add
 * nights" with the nights the wrong way round, and "Copy night" to far-off dates, which added 30
 * nights without a word, took 30 ticks to undo and threw away numbers typed and not yet saved.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { href } from '../../src/web/href.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  hasChromium,
  openDashboard,
  seriousViolations,
} from './dashboard.js';

/** A 3-day event, May 10–12, 2030, whose middle night holds 93 rooms. */
const MAY_SUMMIT = {
  name: 'May summit',
  numPeople: 120,
  meetingRoomDates: [{ startDate: '2030-05-10', endDate: '2030-05-12' }],
  accommodations: {
    '2030-05-10': { Single: 40 },
    '2030-05-11': { Single: 80, Double: 10, Suite: 3 },
    '2030-05-12': { Single: 30 },
  },
};

if (!hasChromium) {
  describeWithoutChromium('the room grid of the planning dashboard');
} else {
  describe('the room grid of the planning dashboard', () => {
    let d: Dashboard;
    let page: Page;

    beforeAll(async () => {
      d = await openDashboard();
      page = await d.signedIn(d.people.planner.email);
    }, 60_000);
    afterAll(async () => d?.close());

    const stored = async (id: string) => (await d.api('GET', `/v1/events/${id}`)).json;
    const cell = (night: string, type: string) => page.getByRole('spinbutton', { name: `${night} ${type}` });
    /** Presses a button and waits for the page its form leads to, whatever its status. */
    const press = async (name: string) => {
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name, exact: true }).click()]);
    };
    /** Whether an element is within the window as it is scrolled now. */
    const inView = async (locator: ReturnType<Page['getByRole']>) => {
      const box = await locator.boundingBox();
      const height = page.viewportSize()!.height;
      return box !== null && box.y >= 0 && box.y + box.height <= height;
    };

    it('says "Saved." after Save and after a copy is saved, on the event page scrolled to its room block', async () => {
      const id = await d.createEvent(MAY_SUMMIT);
      for (const change of ['save', 'copy'] as const) {
        await page.goto(`${d.base}${href.rooms(id)}`);
        if (change === 'save') {
          await cell('Fri, May 10, 2030', 'Twin').fill('4');
        } else {
          await page.getByLabel('Night to copy').selectOption('2030-05-12');
          await page.getByLabel('First night of the range').fill('2030-05-13');
          await press('Copy night');
        }
        await press('Save');
        const url = new URL(page.url());
        expect(`${url.pathname}${url.search}${url.hash}`).toBe(`${href.event(id)}?notice=saved#rooms`);
        const heading = page.getByRole('heading', { name: 'Room block', level: 2 });
        const notice = page.getByText('Saved.', { exact: true });
        await expect.poll(() => inView(heading), { message: change }).toBe(true);
        expect(await page.evaluate(() => window.scrollY), change).toBeGreaterThan(0);
        expect(await inView(notice), change).toBe(true);
      }
      const nights = (await stored(id)).accommodations;
      expect(nights['2030-05-10']).toEqual({ Single: 40, Twin: 4 });
      expect(nights['2030-05-13']).toEqual({ Single: 30 });
    });

    it('shows a problem beside "Last night" when Add nights is given a last night before the first, keeping the grid as typed', async () => {
      const id = await d.createEvent(MAY_SUMMIT);
      await page.goto(`${d.base}${href.rooms(id)}`);
      await cell('Fri, May 10, 2030', 'Single').fill('44');
      await page.getByLabel('First night', { exact: true }).fill('2030-05-20');
      await page.getByLabel('Last night', { exact: true }).fill('2030-05-18');
      await press('Add nights');
      const last = page.getByLabel('Last night', { exact: true });
      await expect(last.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.locator('#field-to-error').innerText()).resolves.toBe(
        'The last night must be on or after the first night, Mon, May 20, 2030.',
      );
      await expect(page.getByRole('alert').getByRole('link').allInnerTexts()).resolves.toEqual([
        'Last night: The last night must be on or after the first night, Mon, May 20, 2030.',
      ]);
      // What was typed stays: the range, and the grid's number not yet saved.
      await expect(last.inputValue()).resolves.toBe('2030-05-18');
      await expect(cell('Fri, May 10, 2030', 'Single').inputValue()).resolves.toBe('44');
      await expect(page.locator('tr[data-night="2030-05-18"]').count()).resolves.toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      // The right way round: empty rows added, the typed number still there, nothing saved.
      await last.fill('2030-05-21');
      await press('Add nights');
      await expect(
        page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-night'))),
      ).resolves.toEqual(['2030-05-10', '2030-05-11', '2030-05-12', '2030-05-20', '2030-05-21']);
      await expect(cell('Fri, May 10, 2030', 'Single').inputValue()).resolves.toBe('44');
      expect((await stored(id)).accommodations['2030-05-10']).toEqual({ Single: 40 });
      await cell('Mon, May 20, 2030', 'Double').fill('2');
      await press('Save');
      const nights = (await stored(id)).accommodations;
      expect(nights['2030-05-10']).toEqual({ Single: 44 });
      expect(nights['2030-05-20']).toEqual({ Double: 2 });
      expect(nights['2030-05-21']).toBeUndefined();
    });

    it('copies a night onto the grid as typed, warns how much it adds outside the event’s dates, and saves only on Save', async () => {
      const id = await d.createEvent(MAY_SUMMIT);
      await page.goto(`${d.base}${href.rooms(id)}`);
      // A number typed and not yet saved, on a night the copy does not touch.
      await cell('Sun, May 12, 2030', 'Twin').fill('6');
      await page.getByLabel('Night to copy').selectOption('2030-05-11');
      await page.getByLabel('First night of the range').fill('2030-06-01');
      await page.getByLabel('Last night of the range').fill('2030-06-30');
      await press('Copy night');
      const report = page.getByRole('alert').filter({ hasText: 'Copied, not saved yet' });
      const text = await report.innerText();
      expect(text).toContain(
        'Sat, May 11, 2030 copied to 30 nights (Sat, Jun 1 – Sun, Jun 30, 2030): 30 new nights and 2,790 room nights added.',
      );
      expect(text).toContain(
        "All 30 of these nights fall outside the event's dates (Fri, May 10 – Sun, May 12, 2030).",
      );
      await expect(cell('Sun, May 12, 2030', 'Twin').inputValue()).resolves.toBe('6');
      await expect(cell('Sat, Jun 15, 2030', 'Single').inputValue()).resolves.toBe('80');
      await expect(cell('Sat, Jun 15, 2030', 'Suite').inputValue()).resolves.toBe('3');
      await expect(page.locator('[data-room-summary]').innerText()).resolves.toBe(
        'Peak night: Sat, May 11, 2030, 93 rooms. Total room nights: 2,959.',
      );
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing is written until Save.
      expect(Object.keys((await stored(id)).accommodations)).toHaveLength(3);
      await press('Save');
      const nights = (await stored(id)).accommodations;
      expect(Object.keys(nights)).toHaveLength(33);
      expect(nights['2030-06-30']).toEqual({ Single: 80, Double: 10, Suite: 3 });
      expect(nights['2030-05-12']).toEqual({ Single: 30, Twin: 6 });
    });

    it('undoes a copy with one button, back to the grid as it was with its unsaved numbers', async () => {
      const id = await d.createEvent(MAY_SUMMIT);
      await page.goto(`${d.base}${href.rooms(id)}`);
      await cell('Fri, May 10, 2030', 'Single').fill('41');
      await cell('Sun, May 12, 2030', 'Single').fill('33');
      await page.getByLabel('Night to copy').selectOption('2030-05-10');
      await page.getByLabel('First night of the range').fill('2030-05-11');
      await page.getByLabel('Last night of the range').fill('2030-05-12');
      await press('Copy night');
      // Within the event's dates: said without a warning; a night made smaller counts against the total.
      const report = page.getByRole('status').filter({ hasText: 'Copied, not saved yet' });
      await expect(report.innerText()).resolves.toContain(
        'Fri, May 10, 2030 copied to 2 nights (Sat, May 11 – Sun, May 12, 2030): 0 new nights and 44 room nights fewer.',
      );
      await expect(report.innerText()).resolves.not.toContain('outside');
      await expect(cell('Sun, May 12, 2030', 'Single').inputValue()).resolves.toBe('41');
      await expect(cell('Sat, May 11, 2030', 'Suite').inputValue()).resolves.toBe('');
      await press('Undo the copy');
      await expect(
        page.getByText('The copy is undone: the grid is as it was before it. Nothing was saved.').isVisible(),
      ).resolves.toBe(true);
      await expect(page.locator('tbody tr').count()).resolves.toBe(3);
      await expect(cell('Fri, May 10, 2030', 'Single').inputValue()).resolves.toBe('41');
      await expect(cell('Sat, May 11, 2030', 'Single').inputValue()).resolves.toBe('80');
      await expect(cell('Sat, May 11, 2030', 'Suite').inputValue()).resolves.toBe('3');
      await expect(cell('Sun, May 12, 2030', 'Single').inputValue()).resolves.toBe('33');
      expect((await stored(id)).accommodations).toEqual(MAY_SUMMIT.accommodations);
      await press('Save');
      expect((await stored(id)).accommodations).toEqual({
        ...MAY_SUMMIT.accommodations,
        '2030-05-10': { Single: 41 },
        '2030-05-12': { Single: 33 },
      });
    });

    it('keeps the version the grid was read at through a refused copy, so a change made meanwhile is not overwritten', async () => {
      const id = await d.createEvent(MAY_SUMMIT);
      await page.goto(`${d.base}${href.rooms(id)}`);
      await cell('Fri, May 10, 2030', 'Double').fill('5');
      // Someone else changes the rooms meanwhile.
      expect(
        (await d.api('PATCH', `/v1/events/${id}`, { accommodations: { '2030-05-11': { Single: 70 } } }))
          .status,
      ).toBe(200);
      await page.getByLabel('First night of the range').fill('');
      await press('Copy night');
      await expect(page.locator('#field-copyFrom-error').innerText()).resolves.toBe(
        'Enter the first night as a date, e.g. May 12, 2027.',
      );
      await expect(cell('Fri, May 10, 2030', 'Double').inputValue()).resolves.toBe('5');
      await press('Save');
      await expect(page.getByRole('alert').first().innerText()).resolves.toContain(
        'This event changed since you opened the grid',
      );
      expect((await stored(id)).accommodations['2030-05-11']).toEqual({ Single: 70, Double: 10, Suite: 3 });
      // Saved again, on purpose, it applies what was typed to the event as it is now.
      await clickAndLoad(page, page.getByRole('button', { name: 'Save', exact: true }));
      expect((await stored(id)).accommodations['2030-05-10']).toEqual({ Single: 40, Double: 5 });
    });
  });
}
