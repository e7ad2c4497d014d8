/**
 * The dashboard in a planner's words, in a real browser: every page of a full event, with and without
 * errors, with a copy of rooms to check and once cancelled, shows no API field name, status code or
 * problem code; the history shows values before and after; errors say what to type; an approver sees
 * first what waits for them; focus starts on what went wrong; and the edit form is reachable with the
 * keyboard in fewer Tab presses.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askVenueQuestion, turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { FIELD_NAMES } from '../../src/domain/event-field-table.js';
import { STATUSES } from '../../src/domain/types.js';
import { href } from '../../src/web/href.js';
import { sendAndAnswer } from '../helpers/proposals.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  fullEvent,
  hasChromium,
  openDashboard,
  PASSWORD,
  signIn,
} from './dashboard.js';

/** What no page may show: the API's field names, status and problem codes, formats and machine limits. */
const API_WORDS = [
  ...FIELD_NAMES.filter((name) => /[A-Z_]/.test(name)),
  'event_dates',
  'formatted_address',
  'place_id',
  'startDate',
  'endDate',
  'startTime',
  'endTime',
  'roomType',
  'avRequirements',
  'fbRequirements',
  'sessionId',
  'agendaOperations',
  // A venue's and a venue request's fields (D20, D21).
  'contactName',
  'guestRooms',
  'largestMeetingRoomCapacity',
  'venueId',
  'responseDueDate',
  'archivedAt',
  'sentAt',
  'viewedAt',
  'respondedAt',
  'turnDown',
  ...STATUSES.filter((status) => status.includes('_')),
];
const API_PATTERNS = [
  /\b[a-z]+_[a-z]+(_[a-z]+)*\b/, // any snake_case code: invalid_type, out_of_range, move_not_allowed, …
  /RFC 3339|ISO 4217|YYYY-MM-DD|HH:MM|9007199254740991|2\^53/,
  /\bnot a (string|number|boolean|an object|null)\b/,
];

/** Everything a person reads on the page: its text, and the names and hints given in attributes. */
const readable = (page: Page) =>
  page.evaluate(() =>
    [
      document.title,
      document.body.innerText,
      ...Array.from(document.querySelectorAll('[aria-label], [title], [placeholder], option[label]')).map(
        (element) =>
          ['aria-label', 'title', 'placeholder', 'label']
            .map((name) => element.getAttribute(name) ?? '')
            .join(' '),
      ),
    ].join('\n'),
  );

/** The API words and codes a page shows (none is right). */
async function apiWordsOn(page: Page): Promise<string[]> {
  const text = await readable(page);
  const words = API_WORDS.filter((word) => new RegExp(`\\b${word}\\b`).test(text));
  const codes = API_PATTERNS.flatMap((pattern) => pattern.exec(text)?.[0] ?? []);
  return [...words, ...codes];
}

/** The text of the page's error summary. */
const alertOf = (page: Page) => page.getByRole('alert').first().innerText();
/**
 * Whether the error summary (an alert) gets the focus. It has `autofocus`, which Chromium applies at
 * its next rendering step, after the page's `load` on a busy machine, so this waits up to 5 s for it.
 */
const focusOnAlert = (page: Page) =>
  page
    .waitForFunction(() => document.activeElement?.getAttribute('role') === 'alert', undefined, {
      timeout: 5_000,
    })
    .then(
      () => true,
      () => false,
    );

/** Posts the page's form with the button named `button` and waits for the answer to load. */
async function submit(page: Page, button: string, within = page.getByRole('main')) {
  const answered = page.waitForResponse((response) => response.request().method() === 'POST');
  // The answer's own document, not the form's: right after the response, the form's page may still
  // be the one loaded, and a check made on it would read the old page.
  const loaded = page.waitForEvent('load');
  await within.getByRole('button', { name: button, exact: true }).click();
  const response = await answered;
  await loaded;
  return response.status();
}

if (!hasChromium) {
  describeWithoutChromium('the dashboard in a planner’s words');
} else {
  describe('the dashboard in a planner’s words', () => {
    let d: Dashboard;
    let planner: Page;
    let approver: Page;
    let summit: string;
    /** Every page visited, with the API words it showed. */
    const shown = new Map<string, string[]>();
    const visit = async (page: Page, name: string) => shown.set(name, await apiWordsOn(page));

    beforeAll(async () => {
      d = await openDashboard();
      summit = await d.createEvent(fullEvent());
      // Several kinds of change: details through the API, rooms and agenda in the dashboard, moves.
      const patched = await d.api('PATCH', `/v1/events/${summit}`, {
        numPeople: 130,
        budgetBreakdown: { venue: 26000, transport: 1500 },
        formattedLocations: [
          { city: 'Lisbon', country: 'Portugal' },
          { city: 'Porto', country: 'PT' },
        ],
        decisionDeadline: '2030-03-15T17:00:00Z',
      });
      expect(patched.status).toBe(200);
      // The pre-send checklist asks for a venue on the shortlist.
      const venue = await d.api('POST', '/v1/venues', {
        name: 'Harbourside Hotel',
        email: 'events@harbourside.example',
        city: 'Lisbon',
      });
      const shortlisted = await d.api('POST', `/v1/events/${summit}/venue-requests`, {
        venueId: venue.json.id,
      });
      expect(shortlisted.status).toBe(201);
      [planner, approver] = await Promise.all([
        d.signedIn(d.people.planner.email),
        d.signedIn(d.people.approver.email),
      ]);
      await planner.goto(`${d.base}${href.rooms(summit)}`);
      await planner.getByRole('spinbutton', { name: 'Wed, May 1, 2030 Twin' }).fill('5');
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Save' }));
      await planner.goto(`${d.base}${href.agenda(summit)}`);
      await planner.getByLabel('Title').fill('Closing dinner');
      await planner.getByRole('checkbox', { name: 'Fri, May 3, 2030' }).check();
      await planner.getByLabel('Start time').fill('19:00');
      await planner.getByLabel('End time').fill('22:30');
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Save' }));
      for (const [page, label, note] of [
        [planner, 'Request approval'],
        [approver, 'Return to draft', 'Budget too high for the venue line'],
        [planner, 'Request approval'],
      ] as const) {
        await page.goto(`${d.base}${href.event(summit)}`);
        await clickAndLoad(page, page.locator('.moves').getByRole('button', { name: label, exact: true }));
        if (note) await page.getByRole('textbox', { name: 'Comment' }).fill(note);
        await clickAndLoad(page, page.getByRole('main').getByRole('button', { name: label, exact: true }));
      }
    }, 120_000);
    afterAll(async () => d?.close());

    it('shows the history’s changes by their labels, with each value before and after', async () => {
      await planner.goto(`${d.base}${href.event(summit)}`);
      await visit(planner, 'event page');
      // Each arrow is read out as "changed to" (text for screen readers only, on a line of its own here).
      const history = (await planner.locator('#history').innerText()).replace(/ →\s*changed to\s*/g, ' → ');
      for (const line of [
        /Planner \(API key \w+\) changed Candidate cities, Attendees, Budget, Decision deadline/,
        'Candidate cities: Lisbon, Portugal; Austin, TX, United States → Lisbon, Portugal; Porto, Portugal',
        'Attendees: 120 → 130',
        'Budget: Venue: €25,000.00 → €26,000.00',
        'Budget: Transport: — → €1,500.00',
        'Decision deadline: Fri, Mar 1, 2030 → Mar 15, 2030, 17:00 UTC',
        'Planner changed Room block',
        'Rooms, night of Wed, May 1, 2030: 40 Single, 10 Double → 40 Single, 10 Double, 5 Twin',
        'Planner changed Agenda',
        'Session “Closing dinner”: not on the agenda → “Closing dinner”, Fri, May 3, 2030, 19:00–22:30',
        'Approver moved it from Waiting for approval to Draft',
        'Comment: Budget too high for the venue line',
      ]) {
        if (typeof line === 'string') expect(history).toContain(line);
        else expect(history).toMatch(line);
      }
      // The badge says the status in words, and only in words.
      await expect(planner.locator('.status').innerText()).resolves.toBe('Waiting for approval');
    });

    it('shows an approver first what waits for them', async () => {
      const theirs = await d.createEvent(fullEvent({ name: 'Not waiting' }));
      await approver.goto(`${d.base}${href.events()}`);
      await visit(approver, 'event list (approver)');
      const waiting = approver.getByRole('region', { name: 'Waiting for your approval' });
      await expect(waiting.getByRole('rowheader').allInnerTexts()).resolves.toEqual(['Regional summit']);
      await expect(waiting.getByRole('cell').first().innerText()).resolves.toBe('Waiting for approval');
      // It comes before the filters and the list of every event.
      const headings = await approver.getByRole('heading').allInnerTexts();
      expect(headings.slice(0, 2)).toEqual(['Events', 'Waiting for your approval']);
      await expect(approver.getByRole('link', { name: 'Not waiting' }).count()).resolves.toBe(1);
      // The creator waits for no one's approval but their own events' approvers'.
      await planner.goto(`${d.base}${href.events()}`);
      await visit(planner, 'event list (planner)');
      await expect(planner.getByRole('region', { name: 'Waiting for your approval' }).count()).resolves.toBe(
        0,
      );
      // The status filter says statuses in words.
      await expect(planner.getByRole('checkbox', { name: 'Waiting for approval' }).count()).resolves.toBe(1);
      void theirs;
    });

    it('says what an edit needs, in words, beside each field, and starts focus on the summary', async () => {
      await planner.goto(`${d.base}${href.editEvent(summit)}`);
      await visit(planner, 'edit form');
      await planner.getByRole('textbox', { name: 'Name', exact: true }).fill('');
      await planner.getByLabel('Attendees').fill('-5');
      await planner.getByLabel('Venue', { exact: true }).fill('10.555');
      await planner.getByLabel('Range 1: first day').fill('2030-05-03');
      await planner.getByLabel('Range 1: last day').fill('2030-05-01');
      await planner.getByLabel('Time (UTC)').fill('25:00');
      expect(await submit(planner, 'Save')).toBe(400);
      expect(await focusOnAlert(planner)).toBe(true);
      const summary = await alertOf(planner);
      for (const line of [
        'There are 5 problems; nothing was saved',
        'Name: Enter a name for the event.',
        'Attendees: Enter a whole number of 0 or more.',
        'Budget: Venue: Use at most two decimals, e.g. 1200.50.',
        'Meeting-room dates, row 1: last day: The last day must not be before the first day.',
        'Decision deadline: time: Enter a time in the 24-hour form, e.g. 09:30 or 14:00.',
      ]) {
        expect(summary).toContain(line);
      }
      await expect(planner.locator('#field-numPeople-error').innerText()).resolves.toBe(
        'Enter a whole number of 0 or more.',
      );
      await visit(planner, 'edit form with errors');
    });

    it('keeps a stored deadline time as it was, and saves a date picked alone', async () => {
      const offset = await d.api('PATCH', `/v1/events/${summit}`, {
        decisionDeadline: '2030-03-15T19:00:00+02:00',
      });
      expect(offset.status).toBe(200);
      await planner.goto(`${d.base}${href.editEvent(summit)}`);
      await expect(planner.getByLabel('Decision deadline', { exact: true }).inputValue()).resolves.toBe(
        '2030-03-15',
      );
      await expect(planner.getByLabel('Time (UTC)').inputValue()).resolves.toBe('17:00');
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Save' }));
      await expect(planner.getByText('Saved.', { exact: true }).isVisible()).resolves.toBe(true);
      // Shown in UTC, sent back as stored: the offset is kept and nothing is recorded as changed.
      const after = (await d.api('GET', `/v1/events/${summit}`)).json;
      expect(after.decisionDeadline).toBe('2030-03-15T19:00:00+02:00');
      expect(after.updatedAt).toBe(offset.json.updatedAt);
      const other = await d.createEvent(fullEvent({ name: 'Deadline by date' }));
      await planner.goto(`${d.base}${href.editEvent(other)}`);
      await expect(planner.getByLabel('Time (UTC)').isVisible()).resolves.toBe(false);
      await planner.getByLabel('Decision deadline', { exact: true }).fill('2030-02-20');
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Save' }));
      expect((await d.api('GET', `/v1/events/${other}`)).json.decisionDeadline).toBe('2030-02-20');
    });

    it('says what the room grid, the agenda and a session need, in words', async () => {
      await planner.goto(`${d.base}${href.rooms(summit)}`);
      await visit(planner, 'rooms');
      await planner.getByRole('spinbutton', { name: 'Fri, May 3, 2030 Single' }).fill('2.5');
      expect(await submit(planner, 'Save')).toBe(400);
      expect(await focusOnAlert(planner)).toBe(true);
      await expect(alertOf(planner)).resolves.toContain(
        'Single rooms, night of Fri, May 3, 2030: Enter a whole number of 0 or more.',
      );
      await visit(planner, 'rooms with errors');

      await planner.goto(`${d.base}${href.agenda(summit)}`);
      await visit(planner, 'agenda');
      await planner.getByLabel('Title').fill('Late session');
      await planner.getByRole('checkbox', { name: 'Fri, May 3, 2030' }).check();
      await planner.getByLabel('Start time').fill('19:00');
      await planner.getByLabel('End time').fill('18:00');
      expect(await submit(planner, 'Save')).toBe(400);
      expect(await focusOnAlert(planner)).toBe(true);
      await expect(alertOf(planner)).resolves.toContain('End time: Must be after the start time.');
      await visit(planner, 'agenda with errors');
      // Times as the hint promises: 24-hour, a one-digit hour read as two.
      await planner.getByLabel('Start time').fill('7:45');
      await planner.getByLabel('End time').fill('25:00');
      expect(await submit(planner, 'Save')).toBe(400);
      await expect(alertOf(planner)).resolves.toContain(
        'End time: Enter a time in the 24-hour form, e.g. 09:30 or 14:00.',
      );
      await expect(planner.getByLabel('Start time').inputValue()).resolves.toBe('7:45');

      await planner.goto(`${d.base}${href.agenda(summit)}`);
      await clickAndLoad(planner, planner.getByRole('link', { name: 'Edit “Closing dinner”' }));
      await visit(planner, 'session form');
      await planner.getByLabel('Title').fill('');
      expect(await submit(planner, 'Save')).toBe(400);
      await expect(alertOf(planner)).resolves.toContain('Title: Enter a title for the session.');
      await visit(planner, 'session form with errors');
    });

    it('says a copy to check and a range of nights the wrong way round in words', async () => {
      await planner.goto(`${d.base}${href.rooms(summit)}`);
      await planner.getByLabel('Night to copy').selectOption('2030-05-02');
      await planner.getByLabel('First night of the range').fill('2030-06-01');
      await planner.getByLabel('Last night of the range').fill('2030-06-03');
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Copy night' }));
      const copy = await planner.getByRole('alert').filter({ hasText: 'Copied, not saved yet' }).innerText();
      expect(copy).toContain('Thu, May 2, 2030 copied to 3 nights (Sat, Jun 1 – Mon, Jun 3, 2030)');
      expect(copy).toContain(
        "All 3 of these nights fall outside the event's dates (Wed, May 1 – Fri, May 3, 2030).",
      );
      await visit(planner, 'rooms, a copy to check');
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Undo the copy' }));
      await visit(planner, 'rooms, the copy undone');

      await planner.getByLabel('First night', { exact: true }).fill('2030-05-20');
      await planner.getByLabel('Last night', { exact: true }).fill('2030-05-18');
      expect(await submit(planner, 'Add nights')).toBe(400);
      expect(await focusOnAlert(planner)).toBe(true);
      await expect(alertOf(planner)).resolves.toContain(
        'Last night: The last night must be on or after the first night, Mon, May 20, 2030.',
      );
      await visit(planner, 'rooms, nights the wrong way round');
      await planner.getByLabel('First night of the range').fill('');
      expect(await submit(planner, 'Copy night')).toBe(400);
      await expect(alertOf(planner)).resolves.toContain(
        'First night of the range: Enter the first night as a date, e.g. May 12, 2027.',
      );
      await visit(planner, 'rooms, a copy without its range');
    });

    it('says in words that an event is cancelled, on its edit pages and after a save it refused', async () => {
      const event = await d.createEvent(fullEvent({ name: 'Called off' }));
      const sessionId = (await d.api('GET', `/v1/events/${event}`)).json.agenda[0].id as string;
      // A form opened before the approver cancels the event, saved after.
      await planner.goto(`${d.base}${href.editEvent(event)}`);
      await planner.getByLabel('Attendees').fill('150');
      await approver.goto(`${d.base}${href.move(event, 'cancel')}`);
      await approver.getByRole('textbox', { name: 'Reason' }).fill('Venue closed for works');
      await clickAndLoad(approver, approver.getByRole('main').getByRole('button', { name: 'Cancel event' }));
      expect(await submit(planner, 'Save')).toBe(409);
      expect(await focusOnAlert(planner)).toBe(true);
      await expect(alertOf(planner)).resolves.toContain(
        'Reopen it to change it again; it goes back to Draft.',
      );
      await visit(planner, 'edit details, saved on an event cancelled meanwhile');
      for (const [name, path] of [
        ['event page, cancelled', href.event(event)],
        ['edit details, cancelled', href.editEvent(event)],
        ['rooms, cancelled', href.rooms(event)],
        ['agenda, cancelled', href.agenda(event)],
        ['session form, cancelled', href.agendaSession(event, sessionId)],
        ['reopen', href.move(event, 'reopen')],
      ] as const) {
        await planner.goto(`${d.base}${path}`);
        await visit(planner, name);
      }
      await planner.goto(`${d.base}${href.editEvent(event)}`);
      await expect(planner.getByRole('main').innerText()).resolves.toContain(
        'Approver cancelled it: “Venue closed for works”',
      );
    });

    it('says on each confirmation page what the move will do', async () => {
      await approver.goto(`${d.base}${href.move(summit, 'approve_and_send')}`);
      await visit(approver, 'approve and send');
      await expect(approver.getByRole('main').innerText()).resolves.toContain(
        'This will approve the event and send it to venues for their proposals. Harbourside Hotel, the venue on the shortlist, will be sent a request for proposals by mail, with a link to answer it. Its status will become Waiting for proposals.',
      );
      await approver.goto(`${d.base}${href.move(summit, 'return_to_draft')}`);
      expect(await submit(approver, 'Return to draft')).toBe(400);
      expect(await focusOnAlert(approver)).toBe(true);
      await expect(alertOf(approver)).resolves.toContain(
        "Comment: Enter a comment: it is kept in the event's history.",
      );
      await visit(approver, 'return to draft with errors');
      await planner.goto(`${d.base}${href.move(summit, 'cancel')}`);
      await visit(planner, 'cancel');
      await expect(planner.getByRole('main').innerText()).resolves.toContain(
        'This will cancel the event: it cannot be changed until someone reopens it, back to Waiting for approval.',
      );
      const draft = await d.createEvent(fullEvent({ name: 'Ready to ask' }));
      await planner.goto(`${d.base}${href.move(draft, 'request_approval')}`);
      await visit(planner, 'request approval');
      await expect(planner.getByRole('main').innerText()).resolves.toContain(
        'This will ask Approver to approve the event before it goes to venues.',
      );
    });

    it('names signed-in devices by browser and system, and says sign-in errors in words, focused', async () => {
      await planner.goto(`${d.base}${href.sessions()}`);
      await visit(planner, 'signed-in devices');
      await expect(planner.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'Your signed-in devices',
      );
      await expect(planner.getByRole('navigation', { name: 'Main' }).innerText()).resolves.toContain(
        'Signed-in devices',
      );
      await expect(planner.getByRole('rowheader').first().innerText()).resolves.toMatch(/^Chrome on Linux/);

      // The account page names each kind of mail in words, never its code.
      await planner.goto(`${d.base}${href.account()}`);
      await visit(planner, 'account');
      await expect(planner.getByRole('main').innerText()).resolves.not.toMatch(
        /approval_requested|approval_answered|proposal_received|venue_turned_down|venue_question/,
      );

      const visitor = await d.newPage();
      await signIn(visitor, d.base, d.people.planner.email, `${PASSWORD} nope`);
      expect(await focusOnAlert(visitor)).toBe(true);
      await visit(visitor, 'sign-in with errors');
      await visitor.goto(`${d.base}${href.forgotPassword()}`);
      await visit(visitor, 'forgot password');
    });

    it('says venues, their problems and each request’s status and history in words', async () => {
      await planner.goto(`${d.base}${href.venues()}`);
      await visit(planner, 'venues');
      await planner.goto(`${d.base}${href.newVenue()}`);
      await planner.getByLabel('Email').fill('two@a.example, b@b.example');
      await planner.getByLabel('Website').fill('ftp://hotel.example');
      await planner.getByLabel('Guest rooms').fill('-1');
      await planner.locator('#field-name').fill('x'.repeat(201));
      expect(await submit(planner, 'Add venue')).toBe(400);
      expect(await focusOnAlert(planner)).toBe(true);
      const problems = await alertOf(planner);
      expect(problems).toContain('Name: Use at most 200 characters (this has 201).');
      expect(problems).toContain('Email: Enter one email address, e.g. sales@hotel.example.');
      expect(problems).toContain('City: Enter the city the venue is in.');
      expect(problems).toContain('Guest rooms: Enter a whole number of 0 or more.');
      await visit(planner, 'venue form with errors');
      const atlas = await d.api('POST', '/v1/venues', {
        name: 'Atlas Hotel',
        email: 'atlas@example.com',
        city: 'Porto',
      });
      await planner.goto(`${d.base}${href.venue(atlas.json.id)}`);
      await visit(planner, 'venue edit form');
      await planner.goto(`${d.base}${href.archiveVenue(atlas.json.id)}`);
      await visit(planner, 'archive venue');
      await submit(planner, 'Archive venue');
      await planner.goto(`${d.base}${href.venues({ archived: true })}`);
      await visit(planner, 'archived venues');
      await planner.goto(`${d.base}${href.venue(atlas.json.id)}`);
      await visit(planner, 'archived venue');

      // An event sent to two venues: one turns it down, one is withdrawn.
      const event = await d.createEvent(fullEvent({ name: 'Venue words' }));
      await planner.goto(`${d.base}${href.addEventVenue(event)}`);
      await planner.getByLabel('Reply by').fill('2001-02-03');
      expect(await submit(planner, 'Add to the shortlist')).toBe(400);
      await expect(alertOf(planner)).resolves.toContain('Venue: Choose a venue from the list.');
      await visit(planner, 'add a venue with errors');
      for (const name of ['Harbourside Hotel', 'Quay Rooms']) {
        const venue =
          name === 'Quay Rooms'
            ? (await d.api('POST', '/v1/venues', { name, email: 'quay@example.com', city: 'Lisbon' })).json
            : (await d.api('GET', `/v1/venues?q=${encodeURIComponent(name)}`)).json.data[0];
        expect(
          (await d.api('POST', `/v1/events/${event}/venue-requests`, { venueId: venue.id })).status,
        ).toBe(201);
      }
      await planner.goto(`${d.base}${href.event(event)}`);
      await visit(planner, 'event with a shortlist');
      await approver.goto(`${d.base}${href.move(event, 'send_to_venues')}`);
      await expect(approver.getByRole('main').innerText()).resolves.toContain(
        'The 2 venues on the shortlist (Harbourside Hotel and Quay Rooms) will each be sent a request for proposals by mail',
      );
      await visit(approver, 'send to venues');
      await submit(approver, 'Send to venues');
      const requests = (await d.api('GET', `/v1/events/${event}/venue-requests`)).json.data;
      const mail = await d.t.deps.store.mail.list({ to: 'events@harbourside.example', limit: 5 });
      const token = /\/rfp\/(\w+)/.exec(
        mail.find((m) => m.subject.startsWith('Request for proposal'))?.text ?? '',
      )![1]!;
      // A request that lives (D26–D28): a reply date moved, changes not sent, a question answered.
      await planner.goto(`${d.base}${href.moveReplyDate(event, requests[0].id)}`);
      await visit(planner, 'move a reply date');
      await planner.getByLabel('New reply date').fill('2001-02-03');
      expect(await submit(planner, 'Move the reply date')).toBe(400);
      await visit(planner, 'move a reply date with errors');
      await planner.goto(`${d.base}${href.moveReplyDates(event)}`);
      await visit(planner, 'move every open reply date');
      expect((await d.api('PATCH', `/v1/events/${event}`, { numPeople: 130 })).status).toBe(200);
      await planner.goto(`${d.base}${href.event(event)}`);
      await visit(planner, 'event with changes not sent');
      await planner.goto(`${d.base}${href.sendChanges(event)}`);
      await visit(planner, 'send the changes');
      await askVenueQuestion(d.t.deps, token, { text: 'Is there parking for a coach?' });
      await planner.goto(`${d.base}${href.event(event)}`);
      await visit(planner, 'event with a question');
      const [question] = (await d.api('GET', `/v1/events/${event}/questions`)).json.data;
      await planner.goto(`${d.base}${href.answerQuestion(event, question.id)}`);
      await visit(planner, 'answer a question');
      expect(await submit(planner, 'Send the answer to the question of Harbourside Hotel')).toBe(400);
      await visit(planner, 'answer a question with errors');
      await turnDownVenueRequest(d.t.deps, token, { reason: 'budget_too_low' });
      await planner.goto(`${d.base}${href.withdrawRequest(event, requests[1].id)}`);
      await visit(planner, 'withdraw a request');
      await submit(planner, 'Withdraw the request');
      await visit(planner, 'event with requests');
      const section = await planner.getByRole('region', { name: 'Venues', exact: true }).innerText();
      expect(section).toContain('Turned down by the venue: the budget is too low');
      expect(section).toContain('Withdrawn');
      const history = await planner.getByRole('region', { name: 'History' }).innerText();
      expect(history).toContain('Harbourside Hotel turned down the request: the budget is too low');
      expect(history).toContain('The request to Quay Rooms was withdrawn by Planner');
      expect(history).toContain('Quay Rooms was sent the request by Approver');
      await planner.goto(`${d.base}${href.addEventVenue(event)}`);
      await visit(planner, 'ask another venue');
    });

    it('says the Proposals tab, an award and a decline in words', async () => {
      const event = await d.createEvent(fullEvent({ name: 'Words of the proposals' }));
      const offer = (currency: string, single: number) => ({
        validUntil: '2030-03-31',
        currency,
        rooms: {
          '2030-05-01': { Single: { count: 40, rate: single } },
          '2030-05-02': { Single: { count: 50, rate: single } },
        },
        meetingRoomRental: 2500,
        foodBeverageMinimum: 9000,
        serviceChargePercent: 18,
        attritionPercent: 15,
        cancellation: [{ daysBefore: 60, percent: 50 }],
        holdOption: 'second',
      });
      const organizationId = d.t.demo.organizationId;
      const [harbour, riverside] = await sendAndAnswer(
        d.t.deps,
        {
          planner: { organizationId, userId: d.people.planner.id },
          approver: { organizationId, userId: d.people.approver.id },
        },
        event,
        [
          { venue: 'Harbour Hotel', proposal: offer('EUR', 140) },
          { venue: 'Riverside Inn', proposal: offer('USD', 120) },
          { venue: 'Tower Suites', turnDown: { reason: 'budget_too_low' } },
          { venue: 'Quay House' },
        ],
      );
      await planner.goto(`${d.base}${href.proposals(event)}`);
      await visit(planner, 'proposals');
      const main = await planner.getByRole('main').innerText();
      for (const words of [
        'Second option (another group holds the first)',
        'The budget is too low',
        'Turned down by the venue',
        'Proposal received',
        'Not compared: the budget is in EUR',
      ]) {
        expect(main).toContain(words);
      }
      await planner.goto(`${d.base}${href.awardProposal(event, harbour!.requestId)}`);
      await visit(planner, 'award');
      await planner.goto(`${d.base}${href.declineProposal(event, riverside!.requestId)}`);
      await visit(planner, 'decline');
      await planner.getByRole('radio', { name: 'Another reason' }).check();
      expect(await submit(planner, 'Decline proposal')).toBe(400);
      expect(await focusOnAlert(planner)).toBe(true);
      await expect(alertOf(planner)).resolves.toContain(
        'Comment: Say why in a comment: the reason “Another reason” needs one.',
      );
      await visit(planner, 'decline with errors');
      await planner.getByRole('radio', { name: 'The food and beverage minimum is too high' }).check();
      await planner.getByLabel('Comment').fill('Too much for a working lunch.');
      expect(await submit(planner, 'Decline proposal')).toBe(303);
      await visit(planner, 'proposals after a decline');
      await expect(planner.getByRole('main').innerText()).resolves.toContain(
        'Declined: The food and beverage minimum is too high',
      );
      await planner.goto(`${d.base}${href.awardProposal(event, riverside!.requestId)}`);
      await visit(planner, 'award of a declined proposal');
      await expect(planner.getByRole('main').innerText()).resolves.toContain(
        'Riverside Inn’s request is now “Declined”',
      );
    });

    it('shows no API field name, status code or problem code on any page visited', () => {
      // 18 pages of the full event and its forms, 4 states of the room grid, 7 of a cancelled event,
      // 12 of venues and an event's requests, 6 of the Proposals tab and its award and decline pages.
      expect(shown.size).toBeGreaterThanOrEqual(47);
      const offending = [...shown].filter(([, words]) => words.length > 0);
      expect(offending).toEqual([]);
    });

    it('reaches Save on the edit form of a full event in fewer Tab presses', async () => {
      // Before the spare rows went behind "Add another …": 55 presses for this event.
      const event = await d.createEvent(fullEvent({ name: 'Tab walk' }));
      await planner.goto(`${d.base}${href.editEvent(event)}`);
      let presses = 0;
      let focused = '';
      while (presses < 100 && focused !== 'Save') {
        await planner.keyboard.press('Tab');
        presses++;
        focused = await planner.evaluate(() =>
          document.activeElement?.tagName === 'BUTTON'
            ? (document.activeElement.textContent ?? '').trim()
            : '',
        );
      }
      console.info(`Tab presses from the top of the edit form to Save: ${presses}`);
      expect(focused).toBe('Save');
      // 47 before the header's navigation gained "Venues" and "Account", links every walk passes once.
      expect(presses).toBeLessThanOrEqual(49);
    });
  });
}
