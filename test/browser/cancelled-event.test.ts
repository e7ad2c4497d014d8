/**
 * A cancelled event in a real browser: a save on an event cancelled meanwhile says why nothing was
 * saved and how to reopen it, and the event's edit pages open no form while it is cancelled.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { href } from '../../src/web/href.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  fullEvent,
  hasChromium,
  openDashboard,
  seriousViolations,
} from './dashboard.js';

if (!hasChromium) {
  describeWithoutChromium('a cancelled event in the planning dashboard');
} else {
  describe('a cancelled event in the planning dashboard', () => {
    let d: Dashboard;
    let planner: Page;
    let approver: Page;

    beforeAll(async () => {
      d = await openDashboard();
      [planner, approver] = await Promise.all([
        d.signedIn(d.people.planner.email),
        d.signedIn(d.people.approver.email),
      ]);
    }, 60_000);
    afterAll(async () => d?.close());

    const stored = async (id: string) => (await d.api('GET', `/v1/events/${id}`)).json;
    /** The approver cancels the event in their own browser, with a reason. */
    const cancel = async (id: string, reason: string) => {
      await approver.goto(`${d.base}${href.move(id, 'cancel')}`);
      await approver.getByRole('textbox', { name: 'Reason' }).fill(reason);
      await clickAndLoad(approver, approver.getByRole('main').getByRole('button', { name: 'Cancel event' }));
      expect((await stored(id)).status).toBe('cancelled');
    };
    /** Controls a person could type into or tick, on the page's main part. */
    const editableControls = (page: Page) =>
      page.locator('main input:not([type="hidden"]), main textarea, main select').count();

    it('says a save found the event cancelled meanwhile, that nothing was saved, and leads to Reopen', async () => {
      const id = await d.createEvent(fullEvent({ name: 'Spring summit' }));
      await planner.goto(`${d.base}${href.editEvent(id)}`);
      await planner.getByLabel('Attendees').fill('150');
      await cancel(id, 'Budget frozen until Q3');

      const answered = planner.waitForResponse((response) => response.request().method() === 'POST');
      await planner.getByRole('button', { name: 'Save', exact: true }).click();
      expect((await answered).status()).toBe(409);
      await planner.waitForLoadState('load');
      const alert = await planner.getByRole('alert').innerText();
      expect(alert).toContain('Nothing was saved: this event is cancelled');
      expect(alert).toContain(
        'It was cancelled while you had this page open, so your changes were not made.',
      );
      expect(alert).toContain('Approver cancelled it: “Budget frozen until Q3”');
      expect(alert).toContain('Reopen it to change it again; it goes back to Draft.');
      // Focus starts on why nothing was saved, as after any refused save.
      await expect(planner.evaluate(() => document.activeElement?.getAttribute('role'))).resolves.toBe(
        'alert',
      );
      expect(await editableControls(planner)).toBe(0);
      expect(await seriousViolations(planner)).toEqual([]);
      expect((await stored(id)).numPeople).toBe(120);

      // Saving again cannot happen: the way on is Reopen, then the form.
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Reopen' }));
      expect(new URL(planner.url()).pathname).toBe(href.move(id, 'reopen'));
      await clickAndLoad(planner, planner.getByRole('main').getByRole('button', { name: 'Reopen' }));
      expect((await stored(id)).status).toBe('draft');
      await clickAndLoad(planner, planner.getByRole('link', { name: 'Edit details' }));
      await expect(planner.getByLabel('Attendees').inputValue()).resolves.toBe('120');
    });

    it('says the same after a save of the rooms, the agenda or a session on an event cancelled meanwhile', async () => {
      const id = await d.createEvent(fullEvent({ name: 'Summer summit' }));
      const sessionId = (await stored(id)).agenda[0].id as string;
      const pages = [href.rooms(id), href.agenda(id), href.agendaSession(id, sessionId)];
      for (const path of pages) {
        await planner.goto(`${d.base}${path}`);
        if ((await stored(id)).status !== 'cancelled') await cancel(id, 'Venue closed');
        const answered = planner.waitForResponse((response) => response.request().method() === 'POST');
        await planner.getByRole('button', { name: 'Save', exact: true }).first().click();
        expect((await answered).status(), path).toBe(409);
        await planner.waitForLoadState('load');
        await expect(planner.getByRole('alert').innerText(), path).resolves.toContain(
          'Nothing was saved: this event is cancelled',
        );
        // Reopened for the next page, as someone would before trying again.
        await approver.goto(`${d.base}${href.move(id, 'reopen')}`);
        await clickAndLoad(approver, approver.getByRole('main').getByRole('button', { name: 'Reopen' }));
      }
    });

    it('opens no form for a cancelled event: edit, rooms, agenda and a session say so and offer Reopen', async () => {
      const id = await d.createEvent(fullEvent({ name: 'Winter summit' }));
      const sessionId = (await stored(id)).agenda[0].id as string;
      await cancel(id, 'Merged with the spring summit');
      const pages: Array<[string, string]> = [
        [href.editEvent(id), 'Edit Winter summit'],
        [href.rooms(id), 'Rooms for Winter summit'],
        [href.agenda(id), 'Agenda of Winter summit'],
        [href.agendaSession(id, sessionId), 'Edit a session of Winter summit'],
      ];
      for (const [path, heading] of pages) {
        const response = await planner.goto(`${d.base}${path}`);
        expect(response!.status(), path).toBe(200);
        await expect(planner.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(heading);
        const text = await planner.locator('main').innerText();
        expect(text, path).toContain('This event is cancelled');
        expect(text, path).toContain('Approver cancelled it: “Merged with the spring summit”');
        expect(await editableControls(planner), path).toBe(0);
        // Opened, not refused: a notice, not an alert that takes focus.
        await expect(planner.getByRole('alert').count(), path).resolves.toBe(0);
        await expect(planner.getByRole('button', { name: 'Save' }).count(), path).resolves.toBe(0);
        await expect(planner.getByRole('button', { name: 'Reopen' }).count(), path).resolves.toBe(1);
        expect(await seriousViolations(planner), path).toEqual([]);
      }
    });
  });
}
