/**
 * The venue's page in a real browser (D22, D23): a venue opens the link from its mail, reads the
 * request, sends a proposal (first with mistakes), revises it, or turns the request down; a closed
 * link, a forged post from another site, a planner's markup, a phone's width, axe-core, and no API
 * name on any of its pages.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPOSAL_FIELDS } from '../../src/domain/proposal.js';
import { REQUEST_STATUSES, TURN_DOWN_REASONS } from '../../src/domain/venue-request.js';
import { href } from '../../src/web/href.js';
import { venueHref } from '../../src/web/venue-page/links.js';
import { callApi, requestOf, type SentRequest, sendRequests } from '../helpers/venue-link.js';
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

/** What no page of the venue's may show: the API's field names, codes and formats. */
const API_WORDS = [
  ...PROPOSAL_FIELDS.map((field) => field.name).filter((name) => /[A-Z]/.test(name)),
  'startDate',
  'endDate',
  'daysBefore',
  ...REQUEST_STATUSES.filter((status) => status.includes('_')),
  ...TURN_DOWN_REASONS.filter((reason) => reason.includes('_')),
];
const API_PATTERNS = [
  /\b[a-z]+_[a-z]+(_[a-z]+)*\b/,
  /RFC 3339|ISO 4217|YYYY-MM-DD|must be|is required/,
  /\bnot a (string|number|boolean|an object|null)\b/,
];

/** Everything a person reads on the page: its text, and the names given in attributes. */
const readable = (page: Page) =>
  page.evaluate(() =>
    [
      document.title,
      document.body.innerText,
      ...Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]')).map((element) =>
        ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? '').join(' '),
      ),
    ].join('\n'),
  );

async function expectPlannerWords(page: Page) {
  const text = await readable(page);
  for (const word of API_WORDS) expect(text, `"${word}" on ${page.url()}`).not.toContain(word);
  for (const pattern of API_PATTERNS) expect(text, `${pattern} on ${page.url()}`).not.toMatch(pattern);
}

const noPageScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

if (!hasChromium) {
  describeWithoutChromium("the venue's page");
} else {
  // axe-core over the long proposal form is slow on a busy machine: each test may take a minute.
  describe("the venue's page", { timeout: 60_000 }, () => {
    let d: Dashboard;
    beforeAll(async () => {
      d = await openDashboard();
    }, 60_000);
    afterAll(async () => d?.close());

    const sentOne = async (extra: Record<string, unknown> = {}) =>
      (await sendRequests(d.t, fullEvent(extra)))[0]!;
    const open = async (sent: SentRequest, path = venueHref.request(sent.token), viewport?: typeof PHONE) => {
      const page = await d.newPage(viewport);
      const response = await page.goto(`${d.base}${path}`);
      return { page, status: response?.status() };
    };
    const submit = async (page: Page, name: string) => {
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name, exact: true }).click();
      const status = (await answered).status();
      await page.waitForLoadState('load');
      return status;
    };
    const stored = async (sent: SentRequest) => requestOf(d.t, sent);

    it('shows the request to the venue, marks it viewed, in words, axe-clean', async () => {
      const sent = await sentOne();
      const { page, status } = await open(sent);
      expect(status).toBe(200);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Request for proposals: Regional summit' }).isVisible(),
      ).resolves.toBe(true);
      const text = await page.locator('main').innerText();
      expect(text).toContain('Demo organization asks Casa do Rio for a proposal');
      expect(text).toContain('Guest rooms requested per night');
      expect(text).toContain('Opening plenary');
      expect(text).not.toContain('Near the airport');
      expect((await stored(sent)).status).toBe('viewed');
      // No dashboard navigation: the venue has no account.
      expect(await page.getByRole('navigation').count()).toBe(0);
      await expectPlannerWords(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('refuses a proposal with mistakes: each problem beside its field, what was typed kept, focus on the summary', async () => {
      const sent = await sentOne();
      const { page } = await open(sent);
      await clickAndLoad(page, page.getByRole('link', { name: 'Send a proposal' }));
      await page.getByLabel('Valid until').fill('2001-01-01');
      await page.getByLabel('Single rooms, night of Wed, May 1, 2030').fill('30');
      await page.getByLabel('Single rate per room, night of Wed, May 1, 2030').fill('lots');
      await page.getByLabel('Attrition (%)').fill('120');
      await page.getByLabel('Notes').fill('Sea view for all');
      expect(await submit(page, 'Send the proposal')).toBe(400);

      const focused = await page.evaluate(() => document.activeElement?.getAttribute('role'));
      expect(focused).toBe('alert');
      const rate = page.getByLabel('Single rate per room, night of Wed, May 1, 2030');
      await expect(rate.inputValue()).resolves.toBe('lots');
      await expect(rate.getAttribute('aria-invalid')).resolves.toBe('true');
      const rateError = await page.locator(`#${await rate.getAttribute('id')}-error`).innerText();
      expect(rateError).toBe('Enter an amount, e.g. 1200 or 1200.50.');
      const validUntilError = await page.locator('#field-validUntil-error').innerText();
      expect(validUntilError).toContain('this day has passed');
      expect(await page.locator('#field-attritionPercent-error').innerText()).toContain('from 0 to 100');
      await expect(page.getByLabel('Notes').inputValue()).resolves.toBe('Sea view for all');
      await expect(page.getByLabel('Single rooms, night of Wed, May 1, 2030').inputValue()).resolves.toBe(
        '30',
      );
      await expectPlannerWords(page);
      expect(await seriousViolations(page)).toEqual([]);
      expect((await stored(sent)).proposal).toBeNull();
    });

    it('sends a correct proposal: the event moves to proposals received, and the page shows it', async () => {
      const sent = await sentOne();
      const { page } = await open(sent, venueHref.proposal(sent.token));
      await page.getByLabel('Valid until').fill('2030-03-15');
      await page.getByLabel('Single rooms, night of Wed, May 1, 2030').fill('40');
      await page.getByLabel('Single rate per room, night of Wed, May 1, 2030').fill('120');
      await page.getByLabel('Meeting-room rental').fill('1500');
      expect(await submit(page, 'Send the proposal')).toBe(303);
      expect(page.url()).toBe(`${d.base}${venueHref.request(sent.token, 'proposal-sent')}`);
      await expect(
        page.getByRole('status').or(page.locator('output.notice')).first().innerText(),
      ).resolves.toContain('Your proposal is sent');
      expect((await callApi(d.t, 'GET', `/v1/events/${sent.eventId}`)).json.status).toBe(
        'proposals_received',
      );
      const text = await page.locator('main').innerText();
      expect(text).toContain('Revision 1');
      expect(text).toContain('€6,300.00');
      await expectPlannerWords(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('revises: the form holds the latest revision; the change becomes revision 2', async () => {
      const sent = await sentOne();
      const { page } = await open(sent, venueHref.proposal(sent.token));
      await page.getByLabel('Valid until').fill('2030-03-15');
      await page.getByLabel('Meeting-room rental').fill('1500');
      expect(await submit(page, 'Send the proposal')).toBe(303);
      await clickAndLoad(page, page.getByRole('link', { name: 'Revise your proposal' }));
      await expect(page.getByLabel('Valid until').inputValue()).resolves.toBe('2030-03-15');
      await expect(page.getByLabel('Meeting-room rental').inputValue()).resolves.toBe('1500');
      await page.getByLabel('Meeting-room rental').fill('1200');
      expect(await submit(page, 'Send the revised proposal')).toBe(303);
      expect(await page.locator('main').innerText()).toContain('Revision 2');
      const revisions = await callApi(
        d.t,
        'GET',
        `/v1/events/${sent.eventId}/venue-requests/${sent.requestId}/proposals`,
      );
      expect(
        revisions.json.data.map((proposal: { meetingRoomRental: number }) => proposal.meetingRoomRental),
      ).toEqual([1200, 1500]);
    });

    it('turns the request down with a reason; the link then shows it closed and offers no form', async () => {
      const sent = await sentOne();
      const { page } = await open(sent);
      await clickAndLoad(page, page.getByRole('link', { name: 'Turn this request down' }));
      expect(await seriousViolations(page)).toEqual([]);
      expect(await submit(page, 'Turn down the request')).toBe(400);
      expect(await page.locator('#field-reason-error').innerText()).toBe('Choose a reason.');
      await page.getByLabel('The dates are not available').check();
      await page.getByLabel('Comment').fill('Fully booked that week');
      expect(await submit(page, 'Turn down the request')).toBe(303);
      expect((await stored(sent)).status).toBe('turned_down');
      const text = await page.locator('main').innerText();
      expect(text).toContain('This request is closed: you turned it down.');
      expect(await page.getByRole('link', { name: 'Send a proposal' }).count()).toBe(0);
      await expectPlannerWords(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('a closed link (withdrawn): says so, and a form left open sends nothing (409)', async () => {
      const sent = await sentOne();
      const { page } = await open(sent, venueHref.proposal(sent.token));
      await callApi(d.t, 'DELETE', `/v1/events/${sent.eventId}/venue-requests/${sent.requestId}`);
      await page.getByLabel('Valid until').fill('2030-03-15');
      await page.getByLabel('Meeting-room rental').fill('1500');
      expect(await submit(page, 'Send the proposal')).toBe(409);
      expect(await page.getByRole('alert').innerText()).toContain('Nothing was sent: this request is closed');
      expect((await stored(sent)).proposal).toBeNull();
      await page.goto(`${d.base}${venueHref.request(sent.token)}`);
      expect(await page.locator('main').innerText()).toContain('the planner withdrew it');
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('an unknown link is a plain 404 that names nothing', async () => {
      const page = await d.newPage();
      const response = await page.goto(`${d.base}${venueHref.request('Q'.repeat(32))}`);
      expect(response?.status()).toBe(404);
      const text = await page.locator('main').innerText();
      expect(text).toContain('This link is not valid');
      expect(text).not.toContain('Regional summit');
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('refuses a forged post from another site with 403, writing nothing', async () => {
      const sent = await sentOne();
      const { page } = await open(sent);
      // Another site's page posts to the venue's form in the same browser, which holds the form cookie.
      await page.setContent(
        `<form method="post" action="${d.base}${venueHref.proposal(sent.token)}">` +
          '<input name="validUntil" value="2030-03-15"><input name="meetingRoomRental" value="1">' +
          '<button>Go</button></form>',
      );
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Go' }).click();
      expect((await answered).status()).toBe(403);
      await page.waitForLoadState('load');
      expect(await page.locator('main').innerText()).toContain('This form has expired');
      expect((await stored(sent)).proposal).toBeNull();
    });

    it("shows a planner's markup as text", async () => {
      const sent = await sentOne({ name: '<b>x</b>' });
      const { page } = await open(sent);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading.innerText()).resolves.toBe('Request for proposals: <b>x</b>');
      expect(await page.locator('main b').count()).toBe(0);
    });

    it('fits a 375 px phone: no sideways page scroll; the grids scroll in their own box', async () => {
      const sent = await sentOne();
      for (const path of [
        venueHref.request(sent.token),
        venueHref.proposal(sent.token),
        venueHref.turnDown(sent.token),
      ]) {
        const { page } = await open(sent, path, PHONE);
        expect(await noPageScroll(page), path).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
      }
      const { page } = await open(sent, venueHref.proposal(sent.token), PHONE);
      await page.getByRole('button', { name: 'Send the proposal' }).click();
      await page.waitForLoadState('load');
      expect(await noPageScroll(page)).toBe(true);
    }, 90_000);

    it('keeps a proposal form opened before a new version, shows what changed, and stores it against the new one', async () => {
      const sent = await sentOne({ name: 'Version summit' });
      const { page } = await open(sent, venueHref.proposal(sent.token));
      await page.getByLabel('Valid until').fill('2030-03-15');
      await page.getByLabel('Single rooms, night of Wed, May 1, 2030').fill('40');
      await page.getByLabel('Single rate per room, night of Wed, May 1, 2030').fill('120');
      await page.getByLabel('Meeting-room rental').fill('1500');
      // Meanwhile the planner sends 30 more attendees as version 2.
      expect((await callApi(d.t, 'PATCH', `/v1/events/${sent.eventId}`, { numPeople: 150 })).status).toBe(
        200,
      );
      expect(
        (
          await callApi(d.t, 'POST', `/v1/events/${sent.eventId}/request-versions`, {
            message: 'More guests.',
          })
        ).status,
      ).toBe(201);
      expect(await submit(page, 'Send the proposal')).toBe(409);
      const alert = await page.getByRole('alert').first().innerText();
      expect(alert).toContain('The request changed while you were writing');
      // Each change reads before → after (a screen reader hears "changed to").
      expect(alert).toMatch(/Attendees: 120 →\s*(changed to\s*)?150/);
      await expect(page.getByLabel('Meeting-room rental').inputValue()).resolves.toBe('1500');
      await expect(page.getByLabel('Valid until').inputValue()).resolves.toBe('2030-03-15');
      expect((await stored(sent)).proposal).toBeNull();
      await expectPlannerWords(page);
      expect(await seriousViolations(page)).toEqual([]);

      expect(await submit(page, 'Send the proposal')).toBe(303);
      const proposal = (await stored(sent)).proposal;
      expect(proposal).toMatchObject({ requestVersion: 2, meetingRoomRental: 1500 });
      // The page reads the latest version: what changed, and the planner's message.
      const text = await page.locator('main').innerText();
      expect(text).toMatch(/Attendees: 120 →\s*(changed to\s*)?150/);
      expect(text).toContain('More guests.');
    });

    it('asks a question, the planner answers it to all, and another venue sees the answer but not who asked', async () => {
      const [asker, other] = await sendRequests(d.t, fullEvent({ name: 'Question summit' }), [
        'Casa do Rio',
        'Hotel Sol',
      ]);
      const { page } = await open(asker!);
      await page.getByLabel('Your question').fill('');
      expect(await submit(page, 'Ask the planner')).toBe(400);
      await expect(page.getByRole('alert').first().innerText()).resolves.toContain(
        'Your question: Write your question: it cannot be empty.',
      );
      await page.getByLabel('Your question').fill('Can the breakout rooms be on <i>another</i> floor?');
      expect(await submit(page, 'Ask the planner')).toBe(303);
      await expect(page.locator('output.notice').innerText()).resolves.toContain(
        'Your question is sent to the planner.',
      );
      const mine = await page.getByRole('region', { name: 'Questions and answers' }).innerText();
      expect(mine).toContain('Your question');
      expect(mine).toContain('Can the breakout rooms be on <i>another</i> floor?');
      expect(mine).toContain('Not answered yet.');
      await expectPlannerWords(page);
      expect(await seriousViolations(page)).toEqual([]);
      // The other venue sees nothing of a question not yet answered.
      const { page: otherPage } = await open(other!);
      await expect(otherPage.locator('main').innerText()).resolves.not.toContain('another</i> floor');

      // The planner: the event list marks the event, the event page shows the question with its form.
      const planner = await d.signedIn(d.people.planner.email);
      await planner.goto(`${d.base}${href.events()}`);
      await expect(
        planner.getByRole('link', { name: 'Questions waiting for an answer' }).first().isVisible(),
      ).resolves.toBe(true);
      await planner.goto(`${d.base}${href.event(asker!.eventId)}`);
      const section = planner.getByRole('region', { name: 'Questions from venues' });
      await expect(section.innerText()).resolves.toContain('1 question waits for an answer.');
      expect(await seriousViolations(planner)).toEqual([]);
      await section.getByRole('button', { name: /^Send the answer/ }).click();
      await planner.waitForLoadState('load');
      await expect(planner.getByRole('alert').first().innerText()).resolves.toContain(
        'Answer: Write the answer: it cannot be empty.',
      );
      await planner.getByLabel('Answer', { exact: true }).fill('Yes: the second floor, step-free.');
      await planner.getByLabel('Every venue asked, without saying who asked').check();
      await clickAndLoad(planner, planner.getByRole('button', { name: /^Send the answer/ }));
      await expect(planner.locator('output.notice').innerText()).resolves.toBe(
        'Answer sent: each venue that sees it is told by mail.',
      );
      await expect(section.innerText()).resolves.toContain('Every question is answered.');
      await expect(planner.getByRole('region', { name: 'History' }).innerText()).resolves.toContain(
        'answered a question of Casa do Rio, for every venue asked',
      );

      await otherPage.reload();
      const shared = await otherPage.getByRole('region', { name: 'Questions and answers' }).innerText();
      expect(shared).toContain('A question from a venue');
      expect(shared).toContain('Yes: the second floor, step-free.');
      expect(shared).not.toContain('Casa do Rio');
      await expectPlannerWords(otherPage);
    });

    it('made no request to another site and logged no console error', () => {
      expect(d.requested.filter((url) => !url.startsWith(d.base) && !url.startsWith('about:'))).toEqual([]);
      expect(d.consoleErrors.filter((error) => !/403|404|409|400/.test(error))).toEqual([]);
    });
  });
}
