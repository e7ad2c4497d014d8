/**
 * The event pages in a real browser, as a planner uses them: the list, the event page read at a
 * glance, creating and duplicating, editing details (an invalid edit, a stale form), the room grid,
 * the agenda, markup typed into text, and axe-core on every page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
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
  describeWithoutChromium('the event pages of the planning dashboard');
} else {
  describe('the event pages of the planning dashboard', () => {
    let d: Dashboard;
    let page: Page;
    let summit: string;
    let dialogs = 0;

    beforeAll(async () => {
      d = await openDashboard();
      summit = await d.createEvent(fullEvent());
      page = await d.signedIn(d.people.planner.email);
      page.on('dialog', async (dialog) => {
        dialogs++;
        await dialog.dismiss();
      });
    }, 60_000);
    afterAll(async () => d?.close());

    const pathOf = () => new URL(page.url()).pathname;
    const h1 = () => page.getByRole('heading', { level: 1 }).innerText();
    const stored = async (id: string) => (await d.api('GET', `/v1/events/${id}`)).json;
    /** The cells of a table row, found by its row header. */
    const rowCells = (table: ReturnType<Page['getByRole']>, header: string) =>
      table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })
        .getByRole('cell')
        .allInnerTexts();
    const expectAccessible = async () => expect(await seriousViolations(page)).toEqual([]);

    it('lists the events granted to the person with every column, active statuses by default', async () => {
      const done = await d.createEvent({ name: 'Last year’s offsite' });
      await changeEventStatus(d.t.deps, done, 'completed');
      await page.goto(`${d.base}/app`);
      const table = page.getByRole('table');
      const headers = await table.getByRole('columnheader').allInnerTexts();
      expect(headers).toEqual([
        'Name',
        'Status',
        'Cities',
        'Dates',
        'Attendees',
        'Total budget',
        'Decision deadline',
        'Creator',
        'Last change',
      ]);
      const cells = await rowCells(table, 'Regional summit');
      expect(cells.slice(0, 7)).toEqual([
        'Draft',
        'Lisbon, Portugal; Austin, TX, United States',
        'Wed, May 1 – Fri, May 3, 2030',
        '120',
        '€35,000.00',
        'Fri, Mar 1, 2030',
        'Planner',
      ]);
      expect(cells[7]).toMatch(/UTC$/);
      // Completed events are hidden until their status is ticked.
      await expect(table.getByRole('link', { name: 'Last year’s offsite' }).count()).resolves.toBe(0);
      await page.getByRole('checkbox', { name: 'Completed' }).check();
      await clickAndLoad(page, page.getByRole('button', { name: 'Filter' }));
      await expect(page.getByRole('link', { name: 'Last year’s offsite' }).count()).resolves.toBe(1);
      await expectAccessible();
      // A name search.
      await page.goto(`${d.base}/app`);
      await page.getByLabel('Name contains').fill('summ');
      await clickAndLoad(page, page.getByRole('button', { name: 'Filter' }));
      const names = await page.getByRole('table').getByRole('rowheader').allInnerTexts();
      expect(names).toEqual(['Regional summit']);
    });

    it('shows every field of the event on its page: budget, room grid, meeting rooms, agenda by day, notes', async () => {
      await page.goto(`${d.base}/app`);
      await clickAndLoad(page, page.getByRole('link', { name: 'Regional summit' }));
      expect(pathOf()).toBe(`/app/events/${summit}`);
      expect(await h1()).toBe('Regional summit');
      const overview = page.locator('#overview');
      const text = await overview.innerText();
      for (const expected of [
        'Lisbon, Portugal',
        'Austin, TX, United States',
        'Wed, May 1 – Fri, May 3, 2030',
        'A week either way',
        'Fri, Mar 1, 2030',
        'EUR',
        'Planner',
        'Approver',
      ]) {
        expect(text).toContain(expected);
      }

      const budget = page.getByRole('table', { name: 'Budget in EUR' });
      expect(await rowCells(budget, 'Venue')).toEqual(['€25,000.00']);
      expect(await rowCells(budget, 'Food and beverage')).toEqual(['€8,000.50']);
      expect(await rowCells(budget, 'Audio-visual')).toEqual(['€1,999.50']);
      expect(await rowCells(budget, 'Total')).toEqual(['€35,000.00']);

      const rooms = page.getByRole('table', { name: 'Guest rooms per night' });
      const types = await rooms.getByRole('columnheader').allInnerTexts();
      expect(types).toEqual(['Night', 'Single', 'Double', 'Twin', 'ROH', 'Suite', 'Staff', 'VIP', 'Total']);
      expect(await rowCells(rooms, 'Wed, May 1, 2030')).toEqual(['40', '10', '', '', '', '', '', '50']);
      expect(await rowCells(rooms, 'Thu, May 2, 2030 peak')).toEqual(['50', '', '', '', '2', '', '', '52']);
      expect(await rowCells(rooms, 'Fri, May 3, 2030')).toEqual(['20', '', '', '', '', '', '', '20']);
      expect(await rowCells(rooms, 'Total')).toEqual(['110', '10', '0', '0', '2', '0', '0', '122']);
      await expect(page.locator('#rooms').innerText()).resolves.toContain(
        'Peak night: Thu, May 2, 2030, 52 rooms. Total room nights: 122.',
      );

      const meeting = await page.locator('#meeting-rooms').innerText();
      expect(meeting).toContain('Wed, May 1 – Fri, May 3, 2030');
      expect(meeting).toContain('One plenary room, two breakouts');

      const agenda = page.locator('#agenda');
      await expect(agenda.getByRole('heading', { level: 3 }).allInnerTexts()).resolves.toEqual([
        'Wed, May 1, 2030',
        'Thu, May 2, 2030',
      ]);
      const firstDay = page.getByRole('region', { name: 'Wed, May 1, 2030' }).getByRole('listitem');
      const sessions = await firstDay.allInnerTexts();
      expect(sessions[0]).toContain('08:15–09:00 Welcome coffee');
      expect(sessions[1]).toContain('09:00–10:30 Opening plenary · Theatre · 120 people');

      const notes = await page.locator('#notes').innerText();
      for (const expected of [
        'Vegetarian options',
        'Near the airport',
        'Flexible on room layout',
        'Price, Other (Sustainability)',
        'Airport transfers',
      ]) {
        expect(notes).toContain(expected);
      }
      // The warning (a session of 120 does not exceed 120 attendees): none; the history names the creator.
      await expect(page.locator('#history').innerText()).resolves.toMatch(
        /Planner \(API key \w+\) created the event/,
      );
      await expectAccessible();
    });

    it('suggests cities in words as the planner types and fills the country of the chosen one by name', async () => {
      await d.t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
      await page.goto(`${d.base}/app/events/new`);
      const city = page.getByLabel('City 1', { exact: true });
      await city.pressSequentially('Lis');
      const options = page.locator(`datalist#${await city.getAttribute('id')}-places option`);
      await expect.poll(() => options.count()).toBeGreaterThan(0);
      expect(await options.first().getAttribute('label')).toBe('Lisbon, Lisbon, Portugal');
      await city.fill('Lisbon');
      await city.dispatchEvent('change');
      expect(await page.getByLabel('Country 1', { exact: true }).inputValue()).toBe('Portugal');
      await expectAccessible();
    });

    it('creates an event from the "New event" form and duplicates it as a new draft', async () => {
      await page.goto(`${d.base}/app`);
      await clickAndLoad(page, page.getByRole('link', { name: 'New event' }).first());
      expect(await h1()).toBe('New event');
      await expectAccessible();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Partner day');
      await page.getByLabel('Currency').fill('gbp');
      await page.getByLabel('Attendees').fill('40');
      await page.getByLabel('City 1').fill('Leeds');
      await page.getByLabel('Country 1').fill('UK');
      await page.getByLabel('Venue', { exact: true }).fill('1200.25');
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      await expect(page.getByText('Event created.').isVisible()).resolves.toBe(true);
      const id = pathOf().split('/').pop()!;
      expect(await stored(id)).toMatchObject({
        name: 'Partner day',
        currency: 'GBP',
        numPeople: 40,
        formattedLocations: [{ city: 'Leeds', country: 'UK' }],
        budgetBreakdown: { venue: 1200.25 },
        status: 'draft',
      });
      await expect(page.getByRole('table', { name: 'Budget in GBP' }).innerText()).resolves.toContain(
        '£1,200.25',
      );

      await clickAndLoad(page, page.getByRole('button', { name: 'Duplicate' }));
      await expect(page.getByText('Event duplicated: this is the new draft copy.').isVisible()).resolves.toBe(
        true,
      );
      expect(await h1()).toBe('Partner day (copy)');
      const copy = pathOf().split('/').pop()!;
      expect(copy).not.toBe(id);
      expect(await stored(copy)).toMatchObject({
        name: 'Partner day (copy)',
        numPeople: 40,
        status: 'draft',
      });
    });

    it('shows an invalid edit’s errors next to their fields and writes nothing', async () => {
      const before = await stored(summit);
      await page.goto(`${d.base}/app/events/${summit}/edit`);
      expect(await h1()).toBe('Edit Regional summit');
      await expectAccessible();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('');
      await page.getByLabel('Attendees').fill('-5');
      await page.getByLabel('Other notes').fill('This must not be saved');
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save' }).click();
      expect((await answered).status()).toBe(400);
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').innerText()).resolves.toMatch(
        /There are 2 problems; nothing was saved/,
      );
      // Each message is beside its control and tied to it for screen readers.
      const name = page.getByRole('textbox', { name: 'Name', exact: true });
      await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
      const nameError = await page
        .locator(`#${await name.getAttribute('aria-describedby').then((ids) => ids!.split(' ').pop())}`)
        .innerText();
      expect(nameError.length).toBeGreaterThan(0);
      const people = page.getByLabel('Attendees');
      await expect(people.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(people.inputValue()).resolves.toBe('-5');
      // The message says what the field takes, in words (the API says "between 0 and 9007199254740991").
      await expect(page.locator('#field-numPeople-error').innerText()).resolves.toBe(
        'Enter a whole number of 0 or more.',
      );
      await expect(page.locator('.field.invalid').count()).resolves.toBe(2);
      // The summary links to the fields.
      await page.getByRole('alert').getByRole('link').first().click();
      await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('name');
      // What the person typed stays in the form; nothing reached the store.
      await expect(page.getByLabel('Other notes').inputValue()).resolves.toBe('This must not be saved');
      await expectAccessible();
      expect(await stored(summit)).toEqual(before);
    });

    it('writes nothing from a form opened before the event changed through the API, and says so', async () => {
      await page.goto(`${d.base}/app/events/${summit}/edit`);
      await page.getByLabel('Attendees').fill('99');
      const patched = await d.api('PATCH', `/v1/events/${summit}`, { otherNotes: 'Changed through the API' });
      expect(patched.status).toBe(200);
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save' }).click();
      expect((await answered).status()).toBe(409);
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').innerText()).resolves.toContain(
        'This event changed since you opened the form',
      );
      const now = await stored(summit);
      expect(now.numPeople).toBe(120);
      expect(now.otherNotes).toBe('Changed through the API');
      // The stale grid too.
      await page.goto(`${d.base}/app/events/${summit}/rooms`);
      await page.getByRole('spinbutton', { name: 'Wed, May 1, 2030 Single' }).fill('41');
      await d.api('PATCH', `/v1/events/${summit}`, { otherNotes: 'Changed again' });
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').innerText()).resolves.toContain(
        'This event changed since you opened the grid',
      );
      expect((await stored(summit)).accommodations['2030-05-01'].Single).toBe(40);
    });

    it('saves a valid edit of the details and shows it on the event page', async () => {
      await page.goto(`${d.base}/app/events/${summit}/edit`);
      await page.getByLabel('Attendees').fill('130');
      // Spare rows wait behind "Add another city", out of the Tab order until opened.
      await expect(page.getByLabel('City 3').isVisible()).resolves.toBe(false);
      await page.getByText('Add another city').click();
      await page.getByLabel('City 3').fill('Porto');
      await page.getByLabel('Country 3').fill('Portugal');
      await page.getByLabel('Decision factors').fill('Price\nAccessibility');
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      expect(pathOf()).toBe(`/app/events/${summit}`);
      await expect(page.getByText('Saved.', { exact: true }).isVisible()).resolves.toBe(true);
      const now = await stored(summit);
      expect(now.numPeople).toBe(130);
      expect(now.formattedLocations.map((location: { city: string }) => location.city)).toEqual([
        'Lisbon',
        'Austin',
        'Porto',
      ]);
      expect(now.decisionFactors).toEqual(['Price', 'Accessibility']);
      await expect(page.locator('#notes').innerText()).resolves.toContain('Price, Accessibility');
    });

    it('lists the sessions new meeting-room dates would strand, and removes the ones ticked with the save', async () => {
      const id = await d.createEvent(fullEvent({ name: 'Shrinking summit' }));
      await page.goto(`${d.base}/app/events/${id}/edit`);
      await page.getByLabel('Range 1: last day').fill('2030-05-01');
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save' }).click();
      expect((await answered).status()).toBe(409);
      await page.waitForLoadState('load');
      const alert = page.getByRole('alert');
      await expect(alert.innerText()).resolves.toContain(
        'These sessions would lose their days; nothing was saved',
      );
      await expect(alert.innerText()).resolves.toContain('Breakout sessions');
      await expectAccessible();
      expect((await stored(id)).meetingRoomDates).toEqual([
        { startDate: '2030-05-01', endDate: '2030-05-03' },
      ]);
      await page.getByRole('checkbox', { name: 'Remove “Breakout sessions”' }).check();
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      await expect(page.getByText('Saved.', { exact: true }).isVisible()).resolves.toBe(true);
      const now = await stored(id);
      expect(now.meetingRoomDates).toEqual([{ startDate: '2030-05-01', endDate: '2030-05-01' }]);
      expect(now.agenda.map((session: { title: string }) => session.title).sort()).toEqual([
        'Opening plenary',
        'Welcome coffee',
      ]);
    });

    it('edits the room grid, adds nights and copies a night to a range', async () => {
      await page.goto(`${d.base}/app/events/${summit}/rooms`);
      expect(await h1()).toBe('Rooms for Regional summit');
      await expectAccessible();
      // The script keeps the totals up to date while typing.
      await page.getByRole('spinbutton', { name: 'Wed, May 1, 2030 Twin' }).fill('5');
      await expect(page.locator('[data-room-summary]').innerText()).resolves.toBe(
        'Peak night: Wed, May 1, 2030, 55 rooms. Total room nights: 127.',
      );
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      expect((await stored(summit)).accommodations['2030-05-01']).toEqual({
        Single: 40,
        Double: 10,
        Twin: 5,
      });

      await page.goto(`${d.base}/app/events/${summit}/rooms`);
      await page.getByLabel('First night', { exact: true }).fill('2030-04-29');
      await page.getByLabel('Last night', { exact: true }).fill('2030-04-30');
      await clickAndLoad(page, page.getByRole('button', { name: 'Add nights' }));
      await page.getByRole('spinbutton', { name: 'Mon, Apr 29, 2030 Single' }).fill('3');
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      const nights = (await stored(summit)).accommodations;
      expect(nights['2030-04-29']).toEqual({ Single: 3 });
      expect(nights['2030-04-30']).toBeUndefined();

      await page.goto(`${d.base}/app/events/${summit}/rooms`);
      await page.getByLabel('Night to copy').selectOption('2030-05-03');
      await page.getByLabel('First night of the range').fill('2030-05-04');
      await page.getByLabel('Last night of the range').fill('2030-05-05');
      await clickAndLoad(page, page.getByRole('button', { name: 'Copy night' }));
      // The copy is shown in the grid first; Save writes it.
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      const copied = (await stored(summit)).accommodations;
      expect(copied['2030-05-04']).toEqual({ Single: 20 });
      expect(copied['2030-05-05']).toEqual({ Single: 20 });

      // A range left blank: the message beside the range's first night, nothing written.
      await page.goto(`${d.base}/app/events/${summit}/rooms`);
      await page.getByRole('button', { name: 'Copy night' }).click();
      await page.waitForLoadState('load');
      const copyFrom = page.getByLabel('First night of the range');
      await expect(copyFrom.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.locator('#field-copyFrom-error').innerText()).resolves.toBe(
        'Enter the first night as a date, e.g. May 12, 2027.',
      );
      await expectAccessible();
      expect((await stored(summit)).accommodations).toEqual(copied);

      // A value the API refuses: its message next to the cell, nothing written.
      await page.goto(`${d.base}/app/events/${summit}/rooms`);
      await page.getByRole('spinbutton', { name: 'Fri, May 3, 2030 Single' }).fill('2.5');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForLoadState('load');
      const cell = page.getByRole('spinbutton', { name: 'Fri, May 3, 2030 Single' });
      await expect(cell.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.locator('.field-error').first().isVisible()).resolves.toBe(true);
      expect((await stored(summit)).accommodations['2030-05-03']).toEqual({ Single: 20 });
      await expectAccessible();
    });

    it('adds, edits and removes agenda sessions', async () => {
      await page.goto(`${d.base}/app/events/${summit}`);
      await clickAndLoad(page, page.getByRole('link', { name: 'Edit agenda' }));
      expect(await h1()).toBe('Agenda of Regional summit');
      await expectAccessible();
      // An invalid session: the error beside its field, nothing written.
      await page.getByLabel('Title').fill('Closing dinner');
      await page.getByRole('checkbox', { name: 'Fri, May 3, 2030' }).check();
      await page.getByLabel('Start time').fill('19:00');
      await page.getByLabel('End time').fill('18:00');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').isVisible()).resolves.toBe(true);
      await expect(page.locator('.field.invalid').count()).resolves.toBeGreaterThan(0);
      expect((await stored(summit)).agenda).toHaveLength(3);
      await expectAccessible();

      await page.getByLabel('End time').fill('22:30');
      await page.getByLabel('Expected attendees').fill('110');
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      await expect(page.getByText('Session added.').isVisible()).resolves.toBe(true);
      const friday = page.getByRole('region', { name: 'Fri, May 3, 2030' });
      await expect(friday.innerText()).resolves.toContain('19:00–22:30 Closing dinner');
      const added = (await stored(summit)).agenda.find(
        (session: { title: string }) => session.title === 'Closing dinner',
      );
      expect(added).toMatchObject({
        dates: ['2030-05-03'],
        startTime: '19:00',
        endTime: '22:30',
        capacity: 110,
      });

      await clickAndLoad(page, page.getByRole('link', { name: 'Edit “Closing dinner”' }));
      await expectAccessible();
      await page.getByLabel('Title').fill('Gala dinner');
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      await expect(page.getByText('Session saved.').isVisible()).resolves.toBe(true);

      await clickAndLoad(page, page.getByRole('button', { name: 'Remove “Gala dinner”' }));
      await expect(page.getByText('Session removed.').isVisible()).resolves.toBe(true);
      await expect(page.getByRole('region', { name: 'Fri, May 3, 2030' }).count()).resolves.toBe(0);
      const titles = (await stored(summit)).agenda.map((session: { title: string }) => session.title).sort();
      expect(titles).toEqual(['Breakout sessions', 'Opening plenary', 'Welcome coffee']);
    });

    it('shows markup typed into names and notes as text, and runs none of it', async () => {
      const markup = '<img src=x onerror=alert(1)>';
      await page.goto(`${d.base}/app/events/new`);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${markup} launch`);
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      await clickAndLoad(page, page.getByRole('link', { name: 'Edit details' }));
      await page.getByLabel('Other notes').fill(`Bring ${markup}`);
      await page.getByLabel('City 1').fill('<script>alert(2)</script>');
      await clickAndLoad(page, page.getByRole('button', { name: 'Save' }));
      expect(await h1()).toBe(`${markup} launch`);
      await expect(page.locator('#notes').innerText()).resolves.toContain(`Bring ${markup}`);
      await expect(page.locator('#overview').innerText()).resolves.toContain('<script>alert(2)</script>');
      await expect(page.locator('main img').count()).resolves.toBe(0);
      await page.goto(`${d.base}/app`);
      await expect(page.getByRole('link', { name: `${markup} launch` }).count()).resolves.toBe(1);
      await expect(page.locator('main img, main script').count()).resolves.toBe(0);
      expect(dialogs).toBe(0);
    });

    it('says "not found" for an event that does not exist, and for a malformed id', async () => {
      for (const path of [
        '/app/events/00000000-0000-4000-8000-000000000000',
        '/app/events/nope',
        '/app/nowhere',
      ]) {
        const response = await page.goto(`${d.base}${path}`);
        expect(response!.status()).toBe(404);
        expect(await h1()).toBe('Page not found');
      }
      await expectAccessible();
    });

    it('loads nothing from outside the server and logs no console error', () => {
      expect(d.requested.length).toBeGreaterThan(20);
      expect(d.requested.filter((url) => !url.startsWith(d.base))).toEqual([]);
      expect(d.consoleErrors.filter((text) => !/status of (400|404|409)/.test(text))).toEqual([]);
    });
  });
}
