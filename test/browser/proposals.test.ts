/**
 * The Proposals tab in a real browser (D24): the proposals side by side against the budget with their
 * marks said in words, each one's rooms night by night, the CSV a spreadsheet opens as it is, the award
 * and its confirmation (the event booked, the others closed, every venue told), a decline with its
 * reason, a stale page and an expired proposal that write nothing, people not granted, a forged post,
 * a phone, paper, and axe-core at 2, 5 and 10 proposals.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { href } from '../../src/web/href.js';
import { type AnsweredVenue, sendAndAnswer, type VenueAnswer } from '../helpers/proposals.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  hasChromium,
  openDashboard,
  PHONE,
  seriousViolations,
  testSummit,
} from './dashboard.js';

/** The summit's nights (294 room nights: 30 + 5, 90 + 15 + 2 twice, 40 + 5); its budget is in EUR. */
const NIGHTS = ['2030-04-30', '2030-05-01', '2030-05-02', '2030-05-03'] as const;
const REQUESTED: Record<string, Record<string, number>> = {
  '2030-04-30': { Single: 30, Double: 5 },
  '2030-05-01': { Single: 90, Double: 15, Suite: 2 },
  '2030-05-02': { Single: 90, Double: 15, Suite: 2 },
  '2030-05-03': { Single: 40, Double: 5 },
};
const RATES: Record<string, number> = { Single: 110, Double: 140, Suite: 300 };

/** Every room asked for, at `rate(type)`, but for those `leaveOut` names (`night.type`). */
function rooms(rate: (type: string) => number, leaveOut: string[] = []) {
  const offered: Record<string, Record<string, { count: number; rate: number }>> = {};
  for (const night of NIGHTS) {
    for (const [type, count] of Object.entries(REQUESTED[night]!)) {
      if (leaveOut.includes(`${night}.${type}`)) continue;
      offered[night] = { ...offered[night], [type]: { count, rate: rate(type) } };
    }
  }
  return offered;
}

/**
 * Harbour: every room (34,300), 10% tax, 3,000 rental, 7,000 F&B + 20% service, AV 1,500: 50,630, over
 * the venue and F&B lines. Riverside: singles only, 190 of 294 room nights, 27,810: the lowest total in
 * EUR. Airport: in USD, all but two suites (292): compared with no budget, marked by nothing of money.
 */
const HARBOUR = {
  validUntil: '2030-03-31',
  rooms: rooms((type) => RATES[type]!),
  roomTaxPercent: 10,
  meetingRoomRental: 3000,
  foodBeverageMinimum: 7000,
  serviceChargePercent: 20,
  avEstimate: 1500,
  attritionPercent: 10,
  depositPercent: 30,
  commissionPercent: 8,
  cutoffDate: '2030-04-01',
  cancellation: [
    { daysBefore: 90, percent: 25 },
    { daysBefore: 30, percent: 100 },
  ],
  notes: '=HYPERLINK("http://evil.example","x") <b>not bold</b>',
};
const RIVERSIDE = {
  validUntil: '2030-03-31',
  rooms: {
    '2030-04-30': { Single: { count: 30, rate: 90 } },
    '2030-05-01': { Single: { count: 60, rate: 90 } },
    '2030-05-02': { Single: { count: 60, rate: 90 } },
    '2030-05-03': { Single: { count: 40, rate: 90 } },
  },
  roomTaxPercent: 10,
  meetingRoomRental: 2000,
  foodBeverageMinimum: 6000,
  avEstimate: 1000,
  holdOption: 'first',
};
const AIRPORT = {
  validUntil: '2030-03-31',
  currency: 'USD',
  rooms: rooms(() => 100, ['2030-05-02.Suite']),
};

const FIVE: VenueAnswer[] = [
  { venue: 'Harbour Hotel', proposal: HARBOUR },
  { venue: 'Riverside Inn', city: 'Porto', proposal: RIVERSIDE },
  { venue: 'Airport Lodge', proposal: AIRPORT },
  {
    venue: 'Tower Suites',
    turnDown: { reason: 'dates_unavailable', comment: 'Fully booked for a congress' },
  },
  { venue: 'Quay House' },
];

/** A tiny RFC 4180 reader: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  return rows;
}

if (!hasChromium) {
  describeWithoutChromium('the Proposals tab of the planning dashboard');
} else {
  describe('the Proposals tab of the planning dashboard', () => {
    let d: Dashboard;
    let page: Page;

    beforeAll(async () => {
      d = await openDashboard();
      page = await d.signedIn(d.people.planner.email);
    }, 60_000);
    afterAll(async () => d?.close());

    const people = () => ({
      planner: { organizationId: d.t.demo.organizationId, userId: d.people.planner.id },
      approver: { organizationId: d.t.demo.organizationId, userId: d.people.approver.id },
    });
    /** A new summit sent to one venue per answer, answered so. */
    async function summitWith(answers: readonly VenueAnswer[], name = 'Lisbon partner summit') {
      const id = await d.createEvent(testSummit({ name }));
      const venues = await sendAndAnswer(d.t.deps, people(), id, answers);
      return { id, venues };
    }
    const venueOf = (venues: AnsweredVenue[], name: string) => venues.find((v) => v.venueName === name)!;
    const cells = (rowId: string) =>
      page.locator(`table.comparison tr#row-${rowId} td:not(.budget)`).allInnerTexts();
    const budgetOf = (rowId: string) =>
      page.locator(`table.comparison tr#row-${rowId} td.budget`).innerText();
    const eventStatus = async (id: string) => (await d.api('GET', `/v1/events/${id}`)).json.status as string;
    const requests = async (id: string) => {
      const list = (await d.api('GET', `/v1/events/${id}/venue-requests`)).json.data as Array<{
        venue: { name: string };
        status: string;
        decision: { reason: string | null; comment: string | null } | null;
      }>;
      return Object.fromEntries(list.map((request) => [request.venue.name, request]));
    };
    const mailsTo = (email: string) => d.t.deps.store.mail.list({ to: email, limit: 10 });

    it('shows each proposal in its column against the budget, the marks in words, and the others with their reason', async () => {
      const { id } = await summitWith(FIVE);
      await page.goto(`${d.base}${href.event(id)}`);
      await clickAndLoad(
        page,
        page.getByRole('navigation', { name: 'Event' }).getByRole('link', { name: /Proposals/ }),
      );
      expect(new URL(page.url()).pathname).toBe(href.proposals(id));
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'Proposals: Lisbon partner summit',
      );
      await expect(page.locator('table.comparison thead .venue-name').allInnerTexts()).resolves.toEqual([
        'Harbour Hotel',
        'Riverside Inn',
        'Airport Lodge',
      ]);
      const heads = await page.locator('table.comparison thead th.venue').allInnerTexts();
      expect(heads[0]).toContain('Best coverage');
      expect(heads[1]).toContain('Lowest total in EUR');
      expect(heads[2]).not.toMatch(/Lowest total|Best coverage/);

      const total = await cells('total');
      expect(total[0]).toBe('€50,630.00');
      expect(total[1]).toContain('€27,810.00');
      expect(total[1]).toContain('Lowest total in EUR');
      expect(total[2]).toBe('$29,200.00');
      await expect(budgetOf('venueLine')).resolves.toBe('€25,000.00');
      const venueLine = await cells('venueLine');
      expect(venueLine[0]).toContain('€40,730.00');
      expect(venueLine[0]).toContain('Over budget by €15,730.00');
      expect(venueLine[1]).toContain('Within budget');
      expect(venueLine[2]).toContain('Not compared: the budget is in EUR');
      expect((await cells('foodBeverage'))[0]).toContain('Over budget by €399.50');
      await expect(budgetOf('foodBeverage')).resolves.toBe('€8,000.50');
      expect(await cells('overBudget')).toEqual([
        'Venue, Food and beverage',
        'None',
        'Not compared: another currency',
      ]);
      // Over budget is said in words and drawn as a warning: never colour alone.
      await expect(page.locator('tr#row-venueLine td.warning').count()).resolves.toBe(1);

      expect((await cells('coverage')).map((text) => text.split('\n')[0])).toEqual([
        '100%',
        '64.6%',
        '99.3%',
      ]);
      expect((await cells('coverage'))[0]).toContain('Best coverage');
      expect(await cells('coveredRoomNights')).toEqual(['294', '190', '292']);
      const short = await cells('shortfall');
      expect(short[0]).toBe('None');
      expect(short[1]).toContain('Tue, Apr 30, 2030: 5 Double');
      expect(short[2]).toBe('Thu, May 2, 2030: 2 Suite');
      expect((await cells('averageNightlyRate'))[1]).toBe('€90.00');
      const terms = await cells('cancellation');
      expect(terms[0]).toBe('Under 90 days before: 25%; Under 30 days before: 100%');
      expect((await cells('attritionExposureAt80'))[0]).toBe('€3,430.00');
      expect((await cells('attritionExposureAt80'))[1]).toBe('Unknown: no attrition given');
      expect((await cells('holdOption'))[1]).toBe('First option (held for you first)');
      // What a venue typed is text.
      expect((await cells('notes'))[0]).toContain('<b>not bold</b>');
      await expect(page.locator('table.comparison b').count()).resolves.toBe(0);

      const highlights = await page.locator('.highlights').innerText();
      expect(highlights).toContain(
        'The proposals are in EUR and USD: amounts are never added across currencies',
      );
      expect(highlights).toContain('Lowest total: Riverside Inn.');
      expect(highlights).toContain('Best coverage of the room block: Harbour Hotel.');

      const others = page.getByRole('region', { name: 'Requests without a proposal' });
      const otherRows = await others.locator('tbody tr').allInnerTexts();
      expect(otherRows[0]).toMatch(
        /Tower Suites[\s\S]*Turned down by the venue[\s\S]*The dates are not available: Fully booked for a congress/,
      );
      expect(otherRows[1]).toMatch(/Quay House[\s\S]*Sent[\s\S]*—/);

      // Each proposal's rooms night by night: requested, offered, short.
      const riverside = page.getByRole('region', { name: 'Riverside Inn' });
      await expect(riverside.locator('.summary').innerText()).resolves.toBe(
        '64.6% covered; 104 room nights short.',
      );
      const line = riverside.getByRole('row', { name: /Tue, Apr 30, 2030 Double/ });
      await expect(line.getByRole('cell').allInnerTexts()).resolves.toEqual(['5', '0', '5 short']);
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('downloads the same table as CSV: one column per venue, plain numbers, no formula, opened as it is', async () => {
      const { id } = await summitWith(FIVE.slice(0, 3), 'Café "Olé" summit');
      await page.goto(`${d.base}${href.proposals(id)}`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download as CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('cafe-ole-summit-proposals.csv');
      const bytes = readFileSync((await download.path())!);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = parseCsv(bytes.toString('utf8').slice(1));
      expect(rows[0]).toEqual([
        'Row',
        'Budget (EUR)',
        'Harbour Hotel, Lisbon',
        'Riverside Inn, Porto',
        'Airport Lodge, Lisbon',
      ]);
      const row = (label: string) => rows.find((cells) => cells[0] === label)!;
      expect(row('Total')).toEqual(['Total', '', '50630', '27810', '29200']);
      expect(row('Venue (guest rooms, room tax, meeting rooms)')).toEqual([
        'Venue (guest rooms, room tax, meeting rooms)',
        '25000',
        '40730',
        '20810',
        '29200',
      ]);
      expect(row('Currency')).toEqual(['Currency', '', 'EUR', 'EUR', 'USD']);
      expect(row('Coverage (%)')).toEqual(['Coverage (%)', '', '100', '64.6', '99.3']);
      expect(row('Marks')).toEqual(['Marks', '', 'Best coverage', 'Lowest total in EUR', '']);
      expect(row('Notes')[2]).toBe(`'${HARBOUR.notes}`);
      expect(rows.every((cells) => cells.length === 5)).toBe(true);

      const response = await page.request.get(`${d.base}${href.proposalsCsv(id)}`);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers()['content-disposition']).toBe(
        'attachment; filename="cafe-ole-summit-proposals.csv"',
      );
    });

    it('awards one proposal after a confirmation that says what it does: booked, the others closed, every venue told', async () => {
      const { id, venues } = await summitWith(FIVE);
      await page.goto(`${d.base}${href.proposals(id)}`);
      await clickAndLoad(page, page.getByRole('link', { name: 'Award Harbour Hotel' }));
      const said = await page.getByRole('region', { name: 'What awarding does' }).innerText();
      expect(said).toContain('Harbour Hotel is awarded the event, on its proposal of €50,630.00.');
      expect(said).toContain('Lisbon partner summit becomes Booked');
      expect(said).toContain(
        'The other 2 proposals are declined as “Another venue was selected”: Riverside Inn and Airport Lodge.',
      );
      expect(said).toContain('The request still unanswered is closed as “No response”: Quay House.');
      expect(said).toContain('Every venue asked is told by mail');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await eventStatus(id)).not.toBe('booked');

      await page.getByLabel('Comment (optional)').fill('Best coverage, and the sea view.');
      await clickAndLoad(page, page.getByRole('button', { name: 'Award Harbour Hotel' }));
      expect(new URL(page.url()).pathname).toBe(href.proposals(id));
      await expect(page.locator('output.notice').innerText()).resolves.toContain(
        'Awarded: the event is booked',
      );
      expect(await eventStatus(id)).toBe('booked');
      const after = await requests(id);
      expect(after['Harbour Hotel']).toMatchObject({
        status: 'awarded',
        decision: { comment: 'Best coverage, and the sea view.' },
      });
      expect(after['Riverside Inn']).toMatchObject({
        status: 'declined',
        decision: { reason: 'selected_other_venue' },
      });
      expect(after['Airport Lodge']).toMatchObject({
        status: 'declined',
        decision: { reason: 'selected_other_venue' },
      });
      expect(after['Tower Suites']!.status).toBe('turned_down');
      expect(after['Quay House']!.status).toBe('no_response');
      // Every venue asked is told, in the outbox (the newest mail first).
      const subjects = async (name: string) => (await mailsTo(venueOf(venues, name).email))[0]?.subject ?? '';
      expect(await subjects('Harbour Hotel')).toMatch(/^Proposal accepted: Lisbon partner summit/);
      expect(await subjects('Riverside Inn')).toMatch(/^Proposal declined: Lisbon partner summit/);
      expect(await subjects('Airport Lodge')).toMatch(/^Proposal declined/);
      expect(await subjects('Quay House')).toMatch(/^Request closed: Lisbon partner summit/);
      expect((await mailsTo(venueOf(venues, 'Harbour Hotel').email))[0]?.text).toContain(
        'Best coverage, and the sea view.',
      );
      // Nothing is left to decide; the columns say how each ended.
      await expect(page.getByRole('link', { name: /^(Award|Decline) / }).count()).resolves.toBe(0);
      expect(await cells('status')).toEqual([
        'Awarded',
        'Declined: Another venue was selected',
        'Declined: Another venue was selected',
      ]);
    });

    it('declines with a reason from the list, refusing a decline without one beside its field', async () => {
      const { id, venues } = await summitWith(FIVE.slice(0, 3));
      await page.goto(`${d.base}${href.proposals(id)}`);
      await clickAndLoad(page, page.getByRole('link', { name: 'Decline Riverside Inn' }));
      await page.getByLabel('Comment').fill('Thank you for the quick answer.');
      await clickAndLoad(page, page.getByRole('button', { name: 'Decline proposal' }));
      await expect(page.getByRole('alert').first().innerText()).resolves.toContain(
        'Reason: Choose why you decline this proposal.',
      );
      await expect(page.locator('#field-reason-error').innerText()).resolves.toBe(
        'Choose why you decline this proposal.',
      );
      await expect(page.getByLabel('Comment').inputValue()).resolves.toBe('Thank you for the quick answer.');
      expect(await seriousViolations(page)).toEqual([]);
      // "Another reason" needs a comment.
      await page.getByLabel('Comment').fill('');
      await page.getByRole('radio', { name: 'Another reason' }).check();
      await clickAndLoad(page, page.getByRole('button', { name: 'Decline proposal' }));
      await expect(page.locator('#field-comment-error').innerText()).resolves.toBe(
        'Say why in a comment: the reason “Another reason” needs one.',
      );
      await expect(page.getByRole('radio', { name: 'Another reason' }).isChecked()).resolves.toBe(true);
      expect((await requests(id))['Riverside Inn']!.status).toBe('proposed');

      await page.getByRole('radio', { name: 'The room rate is too high' }).check();
      await page.getByLabel('Comment').fill('Singles only does not work for us.');
      await clickAndLoad(page, page.getByRole('button', { name: 'Decline proposal' }));
      await expect(page.locator('output.notice').innerText()).resolves.toBe(
        'Proposal declined: the venue is told by mail.',
      );
      expect((await cells('status'))[1]).toBe('Declined: The room rate is too high');
      expect((await requests(id))['Riverside Inn']).toMatchObject({
        status: 'declined',
        decision: { reason: 'rate_too_high', comment: 'Singles only does not work for us.' },
      });
      expect(await eventStatus(id)).not.toBe('booked');
      const [mail] = await mailsTo(venueOf(venues, 'Riverside Inn').email);
      expect(mail?.subject).toMatch(/^Proposal declined/);
      expect(mail?.text).toContain('The room rate is too high');
    });

    it('writes nothing from a stale page and says so, then awards on what it shows now', async () => {
      const { id, venues } = await summitWith(FIVE.slice(0, 3));
      await page.goto(`${d.base}${href.awardProposal(id, venueOf(venues, 'Harbour Hotel').requestId)}`);
      // Meanwhile a colleague declines Airport Lodge through the API.
      const declined = await d.api(
        'POST',
        `/v1/events/${id}/venue-requests/${venueOf(venues, 'Airport Lodge').requestId}/decline`,
        { reason: 'dates_unsuitable' },
      );
      expect(declined.status).toBe(200);
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Award Harbour Hotel' }).click();
      expect((await answered).status()).toBe(409);
      await page.waitForLoadState('load');
      await expect(page.getByRole('alert').first().innerText()).resolves.toContain(
        'Nothing was awarded: the proposals changed meanwhile',
      );
      expect(await eventStatus(id)).not.toBe('booked');
      expect((await requests(id))['Harbour Hotel']!.status).toBe('proposed');
      // The page now says what an award does as things stand: only Riverside Inn is left to decline.
      await expect(page.getByRole('region', { name: 'What awarding does' }).innerText()).resolves.toContain(
        'The other proposal is declined as “Another venue was selected”: Riverside Inn.',
      );
      await clickAndLoad(page, page.getByRole('button', { name: 'Award Harbour Hotel' }));
      expect(await eventStatus(id)).toBe('booked');
    });

    it('refuses to award a proposal past its validity and says to ask the venue for a revision', async () => {
      const januaryClock = { now: () => new Date('2026-01-05T10:00:00Z') };
      const { id, venues } = await summitWith([
        { venue: 'Harbour Hotel', proposal: { ...HARBOUR, validUntil: '2026-02-01' }, clock: januaryClock },
        { venue: 'Riverside Inn', proposal: RIVERSIDE },
      ]);
      const harbour = venueOf(venues, 'Harbour Hotel').requestId;
      await page.goto(`${d.base}${href.proposals(id)}`);
      expect((await cells('validUntil'))[0]).toContain('Expired: ask the venue for a revision');
      await expect(page.getByRole('link', { name: 'Award Harbour Hotel' }).count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Award Riverside Inn' }).count()).resolves.toBe(1);

      await page.goto(`${d.base}${href.awardProposal(id, harbour)}`);
      await expect(page.getByRole('main').innerText()).resolves.toContain(
        'Harbour Hotel’s proposal was valid until Sun, Feb 1, 2026, so it can no longer be awarded. Ask Harbour Hotel for a revision',
      );
      await expect(page.getByRole('button', { name: /^Award/ }).count()).resolves.toBe(0);
      // A post made anyway (the form of a page opened before it expired) is refused in the same words.
      await page.goto(`${d.base}${href.declineProposal(id, harbour)}`);
      const token = await page.locator('input[name="_csrf"]').first().inputValue();
      const version = await page.locator('input[name="version"]').inputValue();
      const posted = await page.request.post(`${d.base}${href.awardProposal(id, harbour)}`, {
        form: { _csrf: token, version, comment: '' },
      });
      expect(posted.status()).toBe(409);
      expect(await posted.text()).toContain(
        'so it can no longer be awarded. Ask Harbour Hotel for a revision',
      );
      expect(await eventStatus(id)).not.toBe('booked');
    });

    it('marks a proposal that answers an earlier version, and asks its venue for a revision after saying what it sends', async () => {
      const { id, venues } = await summitWith([
        { venue: 'Harbour Hotel', proposal: HARBOUR },
        { venue: 'Riverside Inn', proposal: RIVERSIDE },
      ]);
      const harbour = venueOf(venues, 'Harbour Hotel');
      // The attendees change and are sent as version 2; Riverside answers it again, Harbour does not.
      expect((await d.api('PATCH', `/v1/events/${id}`, { numPeople: 150 })).status).toBe(200);
      expect((await d.api('POST', `/v1/events/${id}/request-versions`, {})).status).toBe(201);
      const riverside = venueOf(venues, 'Riverside Inn').requestId;
      expect(
        (await d.api('POST', `/v1/events/${id}/venue-requests/${riverside}/proposals`, RIVERSIDE)).status,
      ).toBe(201);

      await page.goto(`${d.base}${href.proposals(id)}`);
      expect(await cells('requestVersion')).toEqual([
        'Version 1\nAnswers an earlier version: the request is now at version 2\nChanged since: Attendees: 120 → 150',
        'Version 2',
      ]);
      await expect(
        page.getByRole('link', { name: 'Ask for a revision from Riverside Inn' }).count(),
      ).resolves.toBe(0);
      await clickAndLoad(page, page.getByRole('link', { name: 'Ask for a revision from Harbour Hotel' }));
      await expect(page.getByRole('main').innerText()).resolves.toContain(
        'Harbour Hotel’s proposal answers version 1 of the request, which is now at version 2. Harbour Hotel is mailed what changed since, your message and its link',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Message to the venue').fill('We are 150 now: <b>more rooms</b>?');
      await clickAndLoad(page, page.getByRole('button', { name: 'Ask for a revision' }));
      await expect(page.locator('output.notice').innerText()).resolves.toBe(
        'Revision asked: the venue is told by mail, with what changed since its proposal.',
      );
      const [mail] = (await mailsTo(harbour.email)).filter(
        (candidate) => candidate.subject === 'Please revise your proposal: Lisbon partner summit',
      );
      expect(mail!.text).toContain('Attendees: 120 → 150');
      expect(mail!.html).toContain('&lt;b&gt;more rooms&lt;/b&gt;');
    });

    it('shows a person not granted on the event the 404 page, and refuses a forged post with 403', async () => {
      const { id, venues } = await summitWith(FIVE.slice(0, 2));
      const harbour = venueOf(venues, 'Harbour Hotel').requestId;
      const sibling = await d.signedIn(d.people.sibling.email);
      for (const path of [
        href.proposals(id),
        href.proposalsCsv(id),
        href.awardProposal(id, harbour),
        href.declineProposal(id, harbour),
      ]) {
        const response = await sibling.request.get(`${d.base}${path}`);
        expect(response.status(), path).toBe(404);
        expect(await response.text(), path).toContain('Page not found');
      }
      const token = await sibling.locator('input[name="_csrf"]').first().inputValue();
      const theirs = await sibling.request.post(`${d.base}${href.awardProposal(id, harbour)}`, {
        form: { _csrf: token, version: 'x', comment: '' },
      });
      expect(theirs.status()).toBe(404);
      // The planner's own session, without the form token: a forged post.
      const forged = await page.request.post(`${d.base}${href.awardProposal(id, harbour)}`, {
        form: { version: 'x', comment: '' },
      });
      expect(forged.status()).toBe(403);
      expect(await eventStatus(id)).not.toBe('booked');
      expect((await requests(id))['Harbour Hotel']!.status).toBe('proposed');
    });

    describe('at 2, 5 and 10 proposals', () => {
      const byCount = new Map<number, string>();
      beforeAll(async () => {
        for (const count of [2, 5, 10]) {
          const answers: VenueAnswer[] = Array.from({ length: count }, (_, index) => ({
            venue: `Venue ${String(index + 1).padStart(2, '0')} with a longer name`,
            proposal: { ...RIVERSIDE, meetingRoomRental: 2000 + index * 250 },
          }));
          byCount.set(count, (await summitWith(answers, `Summit of ${count}`)).id);
        }
      }, 60_000);

      it('reads on a desktop: the table in its own box, no page scroll sideways, axe-core clean', async () => {
        for (const [count, id] of byCount) {
          await page.goto(`${d.base}${href.proposals(id)}`);
          await expect(page.locator('table.comparison thead th.venue').count()).resolves.toBe(count);
          const widths = await page.evaluate(() => ({
            page: document.documentElement.scrollWidth,
            window: window.innerWidth,
          }));
          expect(widths.page, `${count}`).toBeLessThanOrEqual(widths.window);
          expect(await seriousViolations(page), `${count}`).toEqual([]);
        }
        // Two proposals fit without scrolling at all.
        await page.goto(`${d.base}${href.proposals(byCount.get(2)!)}`);
        const box = await page.locator('.comparison-wrap').evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(box).toBeLessThanOrEqual(0);
      }, 90_000);

      it('reads at 375 px: only the table scrolls, its first column staying in sight', async () => {
        const phone = await d.signedIn(d.people.planner.email, PHONE);
        for (const [count, id] of byCount) {
          await phone.goto(`${d.base}${href.proposals(id)}`);
          const page = await phone.evaluate(() => document.documentElement.scrollWidth);
          expect(page, `${count}`).toBeLessThanOrEqual(375);
          const wrap = phone.locator('.comparison-wrap');
          expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth), `${count}`).toBe(true);
          const figure = phone.locator('tr#row-total th[scope="row"]');
          const before = (await figure.boundingBox())!.x;
          await wrap.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
          const after = (await figure.boundingBox())!.x;
          expect(after, `${count}`).toBeCloseTo(before, 0);
          expect(await seriousViolations(phone), `${count}`).toEqual([]);
        }
      }, 90_000);

      it('prints the comparison whole: no buttons, tabs or scroll box, landscape', async () => {
        await page.goto(`${d.base}${href.proposals(byCount.get(5)!)}`);
        await page.emulateMedia({ media: 'print' });
        try {
          const shown = await page.evaluate(() => {
            const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
            return {
              decide: style('.decide-row').display,
              tabs: style('.event-tabs').display,
              csv: style('.proposals-page .actions').display,
              wrap: style('.comparison-wrap').overflowX,
              sticky: style('tr#row-total th').position,
              page: style('.proposals-page').getPropertyValue('page'),
            };
          });
          expect(shown).toEqual({
            decide: 'none',
            tabs: 'none',
            csv: 'none',
            wrap: 'visible',
            sticky: 'static',
            page: 'wide',
          });
          await expect(
            page
              .getByRole('link', { name: /^Award/ })
              .first()
              .isVisible(),
          ).resolves.toBe(false);
          // Landscape A4 (the page’s own size), the rooms of each proposal three abreast: measured 4 pages at 5 proposals, 5 at 10.
          const pages = async (count: number) => {
            await page.goto(`${d.base}${href.proposals(byCount.get(count)!)}`);
            const pdf = await page.pdf({ preferCSSPageSize: true });
            return (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
          };
          const printed = { 5: await pages(5), 10: await pages(10) };
          console.info(`Printed pages of the Proposals tab: ${JSON.stringify(printed)}`);
          expect(printed[5]).toBeGreaterThan(0);
          expect(printed[5]).toBeLessThanOrEqual(5);
          expect(printed[10]).toBeLessThanOrEqual(7);
        } finally {
          await page.emulateMedia({ media: 'screen' });
        }
      }, 90_000);
    });
  });
}
