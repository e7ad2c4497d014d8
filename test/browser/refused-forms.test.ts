/**
 * Forms shown again after a refused save, in a real browser: what the person typed stays in sight
 * beside its problem even when it is no valid value of its control's type.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { href } from '../../src/web/href.js';
import {
  type Dashboard,
  describeWithoutChromium,
  hasChromium,
  openDashboard,
  seriousViolations,
} from './dashboard.js';

if (!hasChromium) {
  describeWithoutChromium('refused forms of the planning dashboard');
} else {
  describe('refused forms of the planning dashboard', () => {
    let d: Dashboard;
    let page: Page;
    let id: string;

    beforeAll(async () => {
      d = await openDashboard();
      id = await d.createEvent({
        name: 'Autumn offsite',
        numPeople: 40,
        meetingRoomDates: [{ startDate: '2030-10-01', endDate: '2030-10-02' }],
        accommodations: { '2030-10-01': { Single: 20 } },
      });
      page = await d.signedIn(d.people.planner.email);
    }, 60_000);
    afterAll(async () => d?.close());

    /** Types into a control as a browser without a picker for its type lets a person do: as plain text. */
    const typeAsText = async (control: Locator, text: string) => {
      await control.evaluate((input) => {
        (input as HTMLInputElement).type = 'text';
      });
      await control.fill(text);
    };
    /** Presses Save and waits for the answer: the form again, refused. */
    const saveRefused = async () => {
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      expect((await answered).status()).toBe(400);
      await page.waitForLoadState('load');
    };
    /** Controls whose value the browser blanked: a value written in the markup that its type cannot hold. */
    const blanked = () =>
      page
        .locator('input')
        .evaluateAll((inputs) =>
          (inputs as HTMLInputElement[])
            .filter((input) => (input.getAttribute('value') ?? '') !== '' && input.value === '')
            .map((input) => `${input.name} (${input.type}): ${input.getAttribute('value')}`),
        );
    /** A control's value, type, and the problem shown beside it. */
    const shown = async (control: Locator) => ({
      value: await control.inputValue(),
      type: await control.getAttribute('type'),
      invalid: await control.getAttribute('aria-invalid'),
      problem: await page.locator(`#${await control.getAttribute('id')}-error`).innerText(),
    });

    it('keeps a time of 25:00 in sight beside its problem, in a text box with the time pattern', async () => {
      await page.goto(`${d.base}${href.agenda(id)}`);
      await page.getByLabel('Title').fill('Kick-off');
      await page.getByRole('checkbox', { name: 'Tue, Oct 1, 2030' }).check();
      await page.getByLabel('Start time').fill('25:00');
      await page.getByLabel('End time').fill('10:00');
      await saveRefused();
      const start = page.getByLabel('Start time');
      expect(await shown(start)).toMatchObject({ value: '25:00', type: 'text', invalid: 'true' });
      expect((await shown(start)).problem.length).toBeGreaterThan(0);
      // Every time is a text box with the 24-hour pattern (a one-digit hour allowed), the valid one too:
      // a time control would show the reader's 12-hour form, against the hint.
      for (const label of ['Start time', 'End time']) {
        const control = page.getByLabel(label);
        await expect(control.getAttribute('type'), label).resolves.toBe('text');
        await expect(control.getAttribute('pattern'), label).resolves.toBe('[0-9]{1,2}:[0-9]{2}');
      }
      await expect(page.getByLabel('End time').inputValue()).resolves.toBe('10:00');
      expect(await blanked()).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      // Corrected, it saves.
      await start.fill('09:00');
      await Promise.all([
        page.waitForNavigation(),
        page.getByRole('button', { name: 'Save', exact: true }).click(),
      ]);
      await expect(page.getByText('Session added.').isVisible()).resolves.toBe(true);
    });

    it('keeps attendees of "abc" and a first day of 2027-13-45 in sight beside their problems', async () => {
      const before = (await d.api('GET', `/v1/events/${id}`)).json;
      await page.goto(`${d.base}${href.editEvent(id)}`);
      await typeAsText(page.getByLabel('Attendees'), 'abc');
      await typeAsText(page.getByLabel('Range 1: first day'), '2027-13-45');
      await saveRefused();
      const attendees = await shown(page.getByLabel('Attendees'));
      expect(attendees).toMatchObject({ value: 'abc', type: 'text', invalid: 'true' });
      await expect(page.getByLabel('Attendees').getAttribute('inputmode')).resolves.toBe('decimal');
      expect(await shown(page.getByLabel('Range 1: first day'))).toMatchObject({
        value: '2027-13-45',
        type: 'text',
        invalid: 'true',
      });
      expect(await blanked()).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      expect((await d.api('GET', `/v1/events/${id}`)).json).toEqual(before);
    });

    it('keeps rooms of "abc" in sight in the room grid beside their problem', async () => {
      await page.goto(`${d.base}${href.rooms(id)}`);
      const cell = page.locator('input[name="accommodations.2030-10-01.Double"]');
      await typeAsText(cell, 'abc');
      await saveRefused();
      const refused = page.getByRole('textbox', { name: 'Tue, Oct 1, 2030 Double' });
      await expect(refused.inputValue()).resolves.toBe('abc');
      await expect(refused.getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await blanked()).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
