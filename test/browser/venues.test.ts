/**
 * Venues in a real browser (D20, D21): the Venues page (add with every problem next to its field,
 * search, edit, archive and the archived list), and the event page's venue list: shortlisting from
 * the directory, sending with the event (the venue's mail lands in the outbox), adding after sending
 * (sent at once), taking off the shortlist and withdrawing after a confirmation, history in words; at
 * 375 px without sideways scroll, and axe-core with no serious or critical violation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { href } from '../../src/web/href.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
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

const widthOf = (page: Page) =>
  page.evaluate(() => ({ document: document.documentElement.scrollWidth, window: window.innerWidth }));

if (!hasChromium) {
  describeWithoutChromium('venues in the planning dashboard');
} else {
  describe('venues in the planning dashboard', () => {
    let d: Dashboard;
    let planner: Page;
    let approver: Page;

    beforeAll(async () => {
      d = await openDashboard();
      await d.t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
      [planner, approver] = await Promise.all([
        d.signedIn(d.people.planner.email),
        d.signedIn(d.people.approver.email),
      ]);
    }, 60_000);
    afterAll(async () => d?.close());

    const main = (page: Page) => page.getByRole('main');
    const submit = (page: Page, name: string) =>
      clickAndLoad(page, main(page).getByRole('button', { name, exact: true }));
    /** The names in the Venues table, in order. */
    const listed = (page: Page) => page.locator('table.venues tbody th').allInnerTexts();
    /** The mails to `email`, by subject. */
    const subjectsTo = async (email: string) =>
      (await d.t.deps.store.mail.list({ to: email, limit: 10 })).map((mail) => mail.subject);
    const addVenue = async (name: string, city: string, email: string) => {
      const response = await d.api('POST', '/v1/venues', { name, city, email });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      return response.json.id as string;
    };
    /** The event page's venue list: each row's venue and status, in words. */
    const venueRows = async (page: Page, id: string) => {
      await page.goto(`${d.base}${href.event(id)}`);
      return page.locator('table.venue-requests tbody tr').evaluateAll((rows) =>
        rows.map((row) => {
          const cells = row.querySelectorAll('th, td');
          return `${(cells[0] as HTMLElement).innerText} | ${(cells[1] as HTMLElement).innerText}`;
        }),
      );
    };

    it('adds a venue from the navigation, every problem next to its field and what was typed kept', async () => {
      await planner.goto(`${d.base}${href.events()}`);
      await clickAndLoad(
        planner,
        planner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Venues' }),
      );
      await expect(planner.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Venues');
      // The demo organization starts with a few venues.
      const before = (await d.api('GET', '/v1/venues')).json.total as number;
      await expect(main(planner).innerText()).resolves.toContain(`${before} venues, by name`);

      await clickAndLoad(planner, main(planner).getByRole('link', { name: 'Add a venue' }));
      await planner.getByLabel('Email').fill('sales at hotel');
      await planner.getByLabel('Website').fill('http://hotel.example');
      await planner.getByLabel('Guest rooms').fill('-3');
      await planner.getByLabel('Phone').fill('+351 21 000 0000');
      await submit(planner, 'Add venue');

      const alert = await planner.getByRole('alert').first().innerText();
      expect(alert).toContain('There are 5 problems; nothing was saved');
      expect(alert).toContain("Name: Enter the venue's name.");
      expect(alert).toContain('City: Enter the city the venue is in.');
      // Each problem beside its control, the control named by it.
      const errorOf = (id: string) => planner.locator(`#field-${id}-error`).innerText();
      await expect(errorOf('email')).resolves.toBe('Enter one email address, e.g. sales@hotel.example.');
      await expect(errorOf('website')).resolves.toBe(
        'Enter an address that starts with https://, e.g. https://hotel.example.',
      );
      await expect(errorOf('guestRooms')).resolves.toBe('Enter a whole number of 0 or more.');
      await expect(planner.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(planner.getByLabel('Phone').inputValue()).resolves.toBe('+351 21 000 0000');
      expect((await d.api('GET', '/v1/venues')).json.total).toBe(before);

      await planner.locator('#field-name').fill('Hotel <b>Central</b>');
      await planner.getByLabel('Email').fill('central@venues.example');
      await planner.getByLabel('Website').fill('https://central.example');
      await planner.getByLabel('Guest rooms').fill('240');
      // The city offers the same place suggestions as an event's candidate cities, and fills the country.
      const city = planner.getByLabel('City');
      await city.pressSequentially('Lis');
      const options = planner.locator('datalist#field-city-places option');
      await expect.poll(() => options.count()).toBeGreaterThan(0);
      expect(await options.first().getAttribute('label')).toBe('Lisbon, Lisbon, Portugal');
      await city.fill('Lisbon');
      await city.dispatchEvent('change');
      expect(await planner.getByLabel('Country').inputValue()).toBe('Portugal');
      await submit(planner, 'Add venue');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Venue added to the directory.',
      );
      // Markup typed is text.
      expect(await listed(planner)).toContain('Hotel <b>Central</b>');
      await expect(planner.locator('table.venues b').count()).resolves.toBe(0);
      await expect(
        planner.locator('table.venues tbody tr', { hasText: 'Hotel <b>Central</b>' }).innerText(),
      ).resolves.toContain('Lisbon, Portugal');
      const stored = (await d.api('GET', '/v1/venues?q=central')).json.data[0];
      expect(stored).toMatchObject({
        name: 'Hotel <b>Central</b>',
        guestRooms: 240,
        phone: '+351 21 000 0000',
      });
      // The city resolved to a place, as an event's candidate city does.
      expect(stored.countryCode).toBe('PT');
    });

    it('searches by name or city, edits a venue and archives one after saying what that does', async () => {
      await addVenue('Harbour Inn', 'Braga', 'harbour@venues.example');
      await addVenue('Atlas Palace', 'Lisbon', 'atlas@venues.example');
      await planner.goto(`${d.base}${href.venues()}`);
      const all = await listed(planner);
      expect(all).toEqual([...all].sort((a, b) => a.localeCompare(b)));
      expect(all).toEqual(expect.arrayContaining(['Atlas Palace', 'Harbour Inn', 'Hotel <b>Central</b>']));
      // By city, and by a part of the name.
      await planner.getByLabel('Name or city contains').fill('braga');
      await submit(planner, 'Search');
      expect(await listed(planner)).toEqual(['Harbour Inn']);
      await planner.getByLabel('Name or city contains').fill('atlas');
      await submit(planner, 'Search');
      expect(await listed(planner)).toEqual(['Atlas Palace']);
      await planner.getByLabel('Name or city contains').fill('zzz');
      await submit(planner, 'Search');
      await expect(main(planner).innerText()).resolves.toContain('No venue’s name or city contains “zzz”.');

      await planner.goto(`${d.base}${href.venues()}`);
      await clickAndLoad(planner, main(planner).getByRole('link', { name: 'Harbour Inn' }));
      await expect(planner.getByLabel('City').inputValue()).resolves.toBe('Braga');
      await planner.getByLabel('Largest meeting room (people)').fill('-5');
      await submit(planner, 'Save venue');
      await expect(planner.locator('#field-largestMeetingRoomCapacity-error').innerText()).resolves.toBe(
        'Enter a whole number of 0 or more.',
      );
      await expect(planner.getByLabel('Largest meeting room (people)').inputValue()).resolves.toBe('-5');
      await planner.getByLabel('Largest meeting room (people)').fill('180');
      await submit(planner, 'Save venue');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe('Venue saved.');
      await expect(
        planner.locator('table.venues tbody tr', { hasText: 'Harbour Inn' }).innerText(),
      ).resolves.toContain('180 people');

      await clickAndLoad(planner, main(planner).getByRole('link', { name: 'Harbour Inn' }));
      await clickAndLoad(planner, main(planner).getByRole('link', { name: 'Archive this venue' }));
      await expect(planner.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'Archive Harbour Inn?',
      );
      await expect(main(planner).innerText()).resolves.toContain(
        'Events that already asked it keep showing it',
      );
      await submit(planner, 'Archive venue');
      await expect(planner.locator('output.notice').innerText()).resolves.toContain('Venue archived');
      expect(await listed(planner)).toEqual(all.filter((name) => name !== 'Harbour Inn'));
      await clickAndLoad(planner, main(planner).getByRole('link', { name: 'Show archived venues' }));
      await expect(planner.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Archived venues');
      expect(await listed(planner)).toEqual(['Harbour Inn']);
      await clickAndLoad(planner, main(planner).getByRole('link', { name: 'Harbour Inn' }));
      await expect(main(planner).innerText()).resolves.toContain(
        'it can no longer be changed or added to events',
      );
      await expect(main(planner).getByRole('button').count()).resolves.toBe(0);
    });

    it('shortlists from the directory, sends with the event, asks another at once, withdraws with a confirmation', async () => {
      const id = await d.createEvent(fullEvent({ name: 'Porto offsite' }));
      await planner.goto(`${d.base}${href.event(id)}`);
      const venues = planner.getByRole('region', { name: 'Venues', exact: true });
      await expect(venues.innerText()).resolves.toContain(
        'Venues on the shortlist are sent a request for proposals by mail when the event is sent to venues; nothing is sent before.',
      );
      // The checklist item leads to the venue list.
      const item = planner
        .getByRole('region', { name: 'Before sending, fill in' })
        .getByRole('link', { name: 'Add at least one venue to the shortlist.' });
      await expect(item.getAttribute('href')).resolves.toBe(href.event(id, 'venues'));

      await clickAndLoad(planner, venues.getByRole('link', { name: 'Add a venue to the shortlist' }));
      // Archived venues are not offered.
      await expect(
        main(planner)
          .getByRole('radio', { name: /Harbour Inn/ })
          .count(),
      ).resolves.toBe(0);
      await planner.getByLabel('Reply by').fill('2020-01-01');
      await submit(planner, 'Add to the shortlist');
      const alert = await planner.getByRole('alert').first().innerText();
      expect(alert).toContain('Venue: Choose a venue from the list.');
      expect(alert).toContain('Reply by: Choose a date from today on, or leave it blank for the usual date.');
      await expect(planner.getByLabel('Reply by').inputValue()).resolves.toBe('2020-01-01');

      await planner.getByLabel('Reply by').fill('');
      await planner.getByRole('radio', { name: /Hotel <b>Central<\/b>/ }).check();
      await submit(planner, 'Add to the shortlist');
      await expect(planner.locator('output.notice').innerText()).resolves.toContain(
        'Venue added to the shortlist.',
      );
      await clickAndLoad(planner, venues.getByRole('link', { name: 'Add a venue to the shortlist' }));
      // A venue already on the event cannot be chosen twice.
      await expect(planner.getByRole('radio', { name: /Hotel <b>Central<\/b>/ }).isDisabled()).resolves.toBe(
        true,
      );
      await planner.getByRole('radio', { name: /Atlas Palace/ }).check();
      await submit(planner, 'Add to the shortlist');
      expect(await venueRows(planner, id)).toEqual([
        'Hotel <b>Central</b> · Lisbon | On the shortlist: not sent yet',
        'Atlas Palace · Lisbon | On the shortlist: not sent yet',
      ]);

      // Taking one off the shortlist says first that it was never told anything.
      await clickAndLoad(planner, venues.getByRole('link', { name: 'Take off the shortlist: Atlas Palace' }));
      await expect(main(planner).innerText()).resolves.toContain(
        'Atlas Palace will be taken off the shortlist. It was never sent anything, so it is not told',
      );
      await submit(planner, 'Take off the shortlist');
      await expect(planner.locator('output.notice').innerText()).resolves.toContain(
        'Venue taken off the shortlist.',
      );
      expect(await venueRows(planner, id)).toEqual([
        'Hotel <b>Central</b> · Lisbon | On the shortlist: not sent yet',
      ]);
      expect(await subjectsTo('atlas@venues.example')).toEqual([]);

      // "Send to venues" says who is sent a request, then sends it.
      await approver.goto(`${d.base}${href.event(id)}`);
      await clickAndLoad(
        approver,
        approver.locator('.moves').getByRole('button', { name: 'Send to venues' }),
      );
      await expect(main(approver).innerText()).resolves.toContain(
        'Hotel <b>Central</b>, the venue on the shortlist, will be sent a request for proposals by mail',
      );
      await submit(approver, 'Send to venues');
      expect(await subjectsTo('central@venues.example')).toEqual([
        expect.stringMatching(/^Request for proposal/),
      ]);
      expect(await venueRows(planner, id)).toEqual([
        expect.stringMatching(/^Hotel <b>Central<\/b> · Lisbon \| Sent on /),
      ]);
      await expect(venues.innerText()).resolves.toContain(
        'The event has been sent to venues: a venue added now is sent its request by mail at once.',
      );

      // After sending, a venue added is sent its request at once.
      await clickAndLoad(planner, venues.getByRole('link', { name: 'Ask another venue' }));
      await planner.getByRole('radio', { name: /Atlas Palace/ }).check();
      await submit(planner, 'Send the request');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Venue added, and the request sent to it by mail.',
      );
      expect(await subjectsTo('atlas@venues.example')).toEqual([
        expect.stringMatching(/^Request for proposal/),
      ]);

      // Withdrawing says the venue is told, then tells it.
      await clickAndLoad(planner, venues.getByRole('link', { name: 'Withdraw the request: Atlas Palace' }));
      await expect(main(planner).innerText()).resolves.toContain(
        'The request to Atlas Palace will be withdrawn: the venue is told by mail',
      );
      await submit(planner, 'Withdraw the request');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Request withdrawn. The venue is told by mail.',
      );
      expect((await subjectsTo('atlas@venues.example')).length).toBe(2);

      // The venue turns its request down on its own page; the list and the history say why.
      const mail = (await d.t.deps.store.mail.list({ to: 'central@venues.example', limit: 5 }))[0]!;
      const token = /\/rfp\/(\w+)/.exec(mail.text ?? '')![1]!;
      await turnDownVenueRequest(d.t.deps, token, {
        reason: 'dates_unavailable',
        comment: 'Fully <i>booked</i>',
      });
      const rows = await venueRows(planner, id);
      expect(rows[0]).toContain('Turned down by the venue: the dates are not available on');
      expect(rows[0]).toContain('“Fully <i>booked</i>”');
      expect(rows[1]).toBe('Atlas Palace · Lisbon | Withdrawn');
      const history = await planner.getByRole('region', { name: 'History' }).innerText();
      expect(history).toContain('Hotel <b>Central</b> turned down the request: the dates are not available');
      expect(history).toContain('The request to Atlas Palace was withdrawn by Planner');
      expect(history).toContain('Atlas Palace was sent the request by Planner');
      expect(history).toContain('Hotel <b>Central</b> was sent the request by Approver');
      // Closed requests offer nothing to withdraw.
      await expect(venues.getByRole('link', { name: /Withdraw/ }).count()).resolves.toBe(0);
    });

    it('moves one reply date and every open one, names a past date at its field, and marks an overdue request', async () => {
      const DAY_MS = 24 * 60 * 60 * 1000;
      const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
      const id = await d.createEvent(fullEvent({ name: 'Reply offsite' }));
      for (const q of ['atlas', 'central']) {
        const venue = (await d.api('GET', `/v1/venues?q=${q}`)).json.data[0];
        const added = await d.api('POST', `/v1/events/${id}/venue-requests`, {
          venueId: venue.id,
          responseDueDate: inDays(2),
        });
        expect(added.status, JSON.stringify(added.json)).toBe(201);
      }
      await changeEventStatus(d.t.deps, id, 'wait_for_proposals');
      await planner.goto(`${d.base}${href.event(id)}`);
      const venues = planner.getByRole('region', { name: 'Venues', exact: true });

      await clickAndLoad(planner, venues.getByRole('link', { name: 'Move the reply date: Atlas Palace' }));
      await expect(main(planner).innerText()).resolves.toContain(
        'Atlas Palace is told the new date by mail, with its link, and reminded again before it.',
      );
      await planner.getByLabel('New reply date').fill('2020-01-01');
      await submit(planner, 'Move the reply date');
      await expect(planner.getByRole('alert').first().innerText()).resolves.toContain(
        'New reply date: Choose a date from today on.',
      );
      await expect(planner.getByLabel('New reply date').inputValue()).resolves.toBe('2020-01-01');
      await planner.getByLabel('New reply date').fill(inDays(9));
      await submit(planner, 'Move the reply date');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Reply date moved. A venue already asked is told by mail.',
      );
      const moved = (await subjectsTo('atlas@venues.example')).filter((subject) =>
        subject.startsWith('New reply date'),
      );
      expect(moved).toHaveLength(1);

      await clickAndLoad(
        planner,
        venues.getByRole('link', { name: 'Move the reply date of every open request' }),
      );
      await expect(main(planner).innerText()).resolves.toContain('Each of the 2 venues still asked');
      await planner.getByLabel('New reply date').fill(inDays(12));
      await submit(planner, 'Move the reply date of 2 venues');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Reply dates moved. Each venue asked is told by mail.',
      );
      for (const email of ['atlas@venues.example', 'central@venues.example']) {
        expect(
          (await subjectsTo(email)).filter((subject) => subject.startsWith('New reply date')),
        ).toHaveLength(email.startsWith('atlas') ? 2 : 1);
      }
      const history = await planner.getByRole('region', { name: 'History' }).innerText();
      expect(history).toContain('The reply date of Atlas Palace was moved from');
      expect(history).not.toContain('due_date_changed');
      await expect(venueRows(planner, id)).resolves.toHaveLength(2);
      await expect(venues.innerText()).resolves.not.toContain('Overdue');

      // Two weeks later nobody has answered: both requests are overdue, in words.
      d.t.setClockAhead(14 * DAY_MS);
      try {
        const later = await d.signedIn(d.people.planner.email);
        await later.goto(`${d.base}${href.event(id)}`);
        const cells = await later.locator('table.venue-requests tbody td:nth-of-type(2)').allInnerTexts();
        expect(cells).toHaveLength(2);
        for (const cell of cells) expect(cell).toContain('Overdue');
        await later.close();
      } finally {
        d.t.setClockAhead(0);
      }
      // Two weeks on, the sessions of this file had been idle too long and were ended: sign in again.
      [planner, approver] = await Promise.all([
        d.signedIn(d.people.planner.email),
        d.signedIn(d.people.approver.email),
      ]);
    });

    it('says a save of a sent event is not yet seen by venues, lists the changes and sends them after a confirmation', async () => {
      const id = await d.createEvent(fullEvent({ name: 'Changes offsite' }));
      const venueId = await addVenue('Cais Hotel', 'Lisbon', 'cais@venues.example');
      await d.api('POST', `/v1/events/${id}/venue-requests`, { venueId });
      await changeEventStatus(d.t.deps, id, 'wait_for_proposals');
      await planner.goto(`${d.base}${href.event(id)}`);
      await expect(planner.getByRole('region', { name: 'Changes not sent to venues' }).count()).resolves.toBe(
        0,
      );

      await clickAndLoad(planner, planner.getByRole('link', { name: 'Edit details' }));
      await planner.getByLabel('Attendees').fill('150');
      await submit(planner, 'Save');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Saved. Venues still read the request as it was sent: they see this change once you send the changes to them.',
      );
      const unsent = planner.getByRole('region', { name: 'Changes not sent to venues' });
      await expect(unsent.innerText()).resolves.toContain('Attendees: 120 → 150');
      expect(await unsent.innerText()).not.toContain('numPeople');

      await clickAndLoad(planner, unsent.getByRole('link', { name: 'Send the changes to 1 venue' }));
      await expect(main(planner).innerText()).resolves.toContain('Attendees: 120 → 150');
      await expect(main(planner).innerText()).resolves.toContain(
        'The venue still asked (Cais Hotel) gets a mail with each change and your message',
      );
      await planner.getByLabel('Message to the venues').fill('x'.repeat(1001));
      await submit(planner, 'Send the changes to 1 venue');
      await expect(planner.getByRole('alert').first().innerText()).resolves.toContain(
        'Message to the venues: Write at most 1,000 characters.',
      );
      await planner.getByLabel('Message to the venues').fill('Thirty more guests, <b>same dates</b>.');
      await submit(planner, 'Send the changes to 1 venue');
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Changes sent: each venue still asked is told by mail and reads the request as it is now.',
      );
      await expect(planner.getByRole('region', { name: 'Changes not sent to venues' }).count()).resolves.toBe(
        0,
      );
      const [mail] = (await d.t.deps.store.mail.list({ to: 'cais@venues.example', limit: 20 })).filter(
        (candidate) => candidate.subject === 'Updated request: Changes offsite',
      );
      expect(mail!.text).toContain('Attendees: 120 → 150');
      expect(mail!.text).toContain('Thirty more guests, <b>same dates</b>.');
      const history = await planner.getByRole('region', { name: 'History' }).innerText();
      expect(history).toContain('sent the changes to the venues (version 2 of the request)');

      // With nothing pending, the page says so and offers a message alone.
      await planner.goto(`${d.base}${href.sendChanges(id)}`);
      await expect(main(planner).innerText()).resolves.toContain('Venues read the request as it is');
    });

    it('is usable at 375 px and has no serious or critical axe-core violation', async () => {
      const phone = await d.signedIn(d.people.planner.email, PHONE);
      const id = await d.createEvent(fullEvent({ name: 'Phone offsite' }));
      const venue = (await d.api('GET', '/v1/venues?q=atlas')).json.data[0];
      await d.api('POST', `/v1/events/${id}/venue-requests`, { venueId: venue.id });
      const request = (await d.api('GET', `/v1/events/${id}/venue-requests`)).json.data[0];
      const pages = [
        href.venues(),
        href.venues({ archived: true }),
        href.newVenue(),
        href.venue(venue.id),
        href.archiveVenue(venue.id),
        href.event(id),
        href.addEventVenue(id),
        href.withdrawRequest(id, request.id),
        href.moveReplyDate(id, request.id),
        href.moveReplyDates(id),
        href.sendChanges(id),
      ];
      for (const path of pages) {
        await phone.goto(`${d.base}${path}`);
        const width = await widthOf(phone);
        expect(width.document, path).toBeLessThanOrEqual(width.window);
        expect(await seriousViolations(phone), path).toEqual([]);
      }
      // A refused form too.
      await phone.goto(`${d.base}${href.newVenue()}`);
      await submit(phone, 'Add venue');
      expect(await seriousViolations(phone)).toEqual([]);
      expect((await widthOf(phone)).document).toBeLessThanOrEqual(375);
      await phone.goto(`${d.base}${href.addEventVenue(id)}`);
      await submit(phone, 'Add to the shortlist');
      expect(await seriousViolations(phone)).toEqual([]);
      // A refused form is answered 400, which the console notes; nothing else may be logged.
      expect(d.consoleErrors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    }, 120_000);
  });
}
