/**
 * The venue's page over HTTP (D22, D23): `/rfp/{token}` as the venue's browser receives it, through
 * the real app with `inject`. What it shows and never shows, its forms and their refusals, closed
 * requests, unknown links, forged posts, its headers and its rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { changeEventStatus } from '../../src/app/events.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { venueHref } from '../../src/web/venue-page/links.js';
import { fullEvent } from '../browser/dashboard.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { callApi, requestOf, type SentRequest, sendRequests } from '../helpers/venue-link.js';
import { browserFor, formFields, readable } from './form-browser.js';

/** The markup of the field holding control `name` (its label, hint, error and input). */
const fieldMarkup = (html: string, id: string) => {
  const at = html.indexOf(`id="${id}"`);
  expect(at, `no control ${id}`).toBeGreaterThan(-1);
  const start = html.lastIndexOf('<div class="field', at);
  return html.slice(start, at + 400);
};

const PROPOSAL = {
  validUntil: '2030-03-15',
  'rooms.2030-05-01.Single.count': '40',
  'rooms.2030-05-01.Single.rate': '120',
  'rooms.2030-05-02.Single.count': '45',
  'rooms.2030-05-02.Single.rate': '125.50',
  meetingRoomRental: '1500',
  attritionPercent: '10',
  'cancellation[0].daysBefore': '30',
  'cancellation[0].percent': '50',
  notes: 'Breakfast included',
};

describe("the venue's page over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const sentOne = async (extra: Record<string, unknown> = {}, venues?: string[]) =>
    (await sendRequests(t, fullEvent(extra), venues))[0]!;
  const proposalsOf = async (sent: SentRequest) =>
    (await callApi(t, 'GET', `/v1/events/${sent.eventId}/venue-requests/${sent.requestId}/proposals`)).json
      .data as unknown[];
  const eventStatus = async (sent: SentRequest) =>
    (await callApi(t, 'GET', `/v1/events/${sent.eventId}`)).json.status;

  describe('GET /rfp/{token}', () => {
    it('shows the request as D22 lists it, and marks it viewed once', async () => {
      const [sent, other] = await sendRequests(t, fullEvent(), ['Casa do Rio', 'Other Venue Hotel']);
      const response = await browserFor(t).get(venueHref.request(sent!.token));
      expect(response.statusCode).toBe(200);
      const text = readable(response.body);
      for (const shown of [
        'Demo organization asks Casa do Rio for a proposal for Regional summit',
        'planner@example.com',
        'Wed, May 1 – Fri, May 3, 2030',
        'Lisbon, Portugal',
        'Austin, TX, USA',
        'Attendees 120',
        'A week either way',
        'Guest rooms requested per night',
        'Total room nights: 122',
        'Meeting rooms needed 3',
        'One plenary room, two breakouts',
        '09:00–10:30 Opening plenary · Theatre · 120 people',
        'Vegetarian options',
        'Airport transfers',
        'Sustainability',
        'Your answer is due Fri, Mar 1, 2030',
        'Waiting for your proposal',
        'Flexible on room layout',
      ]) {
        expect(text).toContain(shown);
      }
      // Never the budget, the internal notes, the approvers or the other venues.
      for (const hidden of [
        '25,000',
        '25000',
        '8,000.50',
        'Near the airport',
        'approver@example.com',
        other!.venue.name,
      ]) {
        expect(text).not.toContain(hidden);
      }
      expect(text).not.toMatch(/budget/i);
      const viewed = await requestOf(t, sent!);
      expect(viewed.status).toBe('viewed');
      await browserFor(t).get(venueHref.request(sent!.token));
      expect((await requestOf(t, sent!)).viewedAt).toBe(viewed.viewedAt);
    });

    it('answers with no-store, no referrer, no indexing and the dashboard security headers', async () => {
      const sent = await sentOne();
      const response = await browserFor(t).get(venueHref.request(sent.token));
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      // No dashboard navigation: the venue is not signed in.
      expect(response.body).not.toMatch(/<a [^>]*href="\/app/);
      expect(response.body).not.toContain('Sign out');
    });

    it('carries the token in no outbound link, and every link leaving the page has rel=noreferrer', async () => {
      const sent = await sentOne();
      const response = await browserFor(t).get(venueHref.request(sent.token));
      const links = [...response.body.matchAll(/<a\b[^>]*>/g)].map((match) => match[0]);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        const target = /href="([^"]*)"/.exec(link)?.[1] ?? '';
        if (target.startsWith('#') || target.startsWith(`/rfp/${sent.token}`)) continue;
        expect(target).not.toContain(sent.token);
        expect(link, link).toMatch(/rel="[^"]*noreferrer/);
      }
    });

    it('shows markup a planner typed as text', async () => {
      const sent = await sentOne({ name: '<b>x</b>', notesForVenue: '<script>alert(1)</script>' });
      const response = await browserFor(t).get(venueHref.request(sent.token));
      expect(response.body).not.toContain('<b>x</b>');
      expect(response.body).toContain('&lt;b>x&lt;/b>');
      expect(response.body).not.toContain('<script>alert(1)');
    });

    it('answers an unknown link, a malformed one and a bare /rfp/ with the same plain 404 that reveals nothing', async () => {
      const bodies = [];
      for (const url of [
        venueHref.request('A'.repeat(32)),
        venueHref.request('not-a-token'),
        `${venueHref.request('A'.repeat(32))}/proposal`,
        '/rfp/',
      ]) {
        const response = await browserFor(t).get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        expect(readable(response.body)).toContain('This link is not valid');
        bodies.push(response.body.replace(/<meta[^>]*>/g, ''));
      }
      expect(new Set(bodies).size).toBe(1);
      expect(bodies[0]).not.toContain('AAAA');
    });
  });

  describe('a proposal', () => {
    it('refuses a form with problems: 400, each problem beside its control in words, what was typed kept, nothing written', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      const response = await browser.post(venueHref.proposal(sent.token), {
        validUntil: '2001-01-01',
        'rooms.2030-05-01.Single.count': '12',
        'rooms.2030-05-01.Single.rate': 'twelve',
        roomTaxPercent: '12.345',
        'cancellation[0].daysBefore': '',
        'cancellation[0].percent': '',
        'cancellation[1].daysBefore': '10',
        'cancellation[1].percent': '150',
        notes: 'Typed <i>by</i> the venue',
      });
      expect(response.statusCode).toBe(400);
      const html = response.body;
      expect(readable(html)).toContain('There are 4 problems');
      expect(fieldMarkup(html, 'field-validUntil')).toContain('Enter a day from today on');
      expect(html).toMatch(/id="field-rooms-2030-05-01-Single-rate-error"[^>]*>Enter an amount/);
      expect(html).toMatch(
        /id="field-rooms-2030-05-01-Single-rate"[^>]*value="twelve"|value="twelve"[^>]*id="field-rooms-2030-05-01-Single-rate"/,
      );
      expect(fieldMarkup(html, 'field-roomTaxPercent')).toContain('Use at most two decimals');
      // The second row's problem is on the second row, where it was typed.
      expect(fieldMarkup(html, 'field-cancellation-1-percent')).toContain('Enter a percentage from 0 to 100');
      expect(html).toContain('Typed &lt;i>by&lt;/i> the venue');
      const text = readable(html);
      for (const apiWord of [
        'validUntil',
        'roomTaxPercent',
        'must be',
        'invalid_',
        'in_the_past',
        'rooms.2030',
      ]) {
        expect(text).not.toContain(apiWord);
      }
      expect(await proposalsOf(sent)).toEqual([]);
      expect((await requestOf(t, sent)).status).toBe('viewed');
    });

    it('says a proposal must price something, and a night outside the dates offered, beside the grid', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      const empty = await browser.post(venueHref.proposal(sent.token), { validUntil: '2030-03-15' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toMatch(/id="field-rooms-error"[^>]*>Price something: guest rooms/);
      const outside = await browser.post(venueHref.proposal(sent.token), {
        validUntil: '2030-03-15',
        'offeredDates.startDate': '2030-05-02',
        'offeredDates.endDate': '2030-05-03',
        'rooms.2030-05-01.Single.count': '10',
        'rooms.2030-05-01.Single.rate': '100',
      });
      expect(outside.statusCode).toBe(400);
      expect(outside.body).toMatch(
        /id="field-rooms-2030-05-01-error"[^>]*>This night is outside the dates you offer/,
      );
      expect(await proposalsOf(sent)).toEqual([]);
    });

    it('sends a correct proposal: 303 to the request, the event moves to proposals received, the page shows it', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      const form = await browser.get(venueHref.proposal(sent.token));
      expect(form.statusCode).toBe(200);
      const fields = formFields(form.body, venueHref.proposal(sent.token));
      // A first proposal starts from the event's currency, dates and no hold.
      expect(fields).toContainEqual(['currency', 'EUR']);
      expect(fields).toContainEqual(['offeredDates.startDate', '2030-05-01']);
      const answer = await browser.post(venueHref.proposal(sent.token), PROPOSAL);
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe(venueHref.request(sent.token, 'proposal-sent'));
      expect(await eventStatus(sent)).toBe('proposals_received');
      const request = await requestOf(t, sent);
      expect(request.status).toBe('proposed');
      expect(request.proposal).toMatchObject({
        revision: 1,
        submittedBy: 'venue',
        currency: 'EUR',
        holdOption: 'none',
        rooms: {
          '2030-05-01': { Single: { count: 40, rate: 120 } },
          '2030-05-02': { Single: { count: 45, rate: 125.5 } },
        },
        meetingRoomRental: 1500,
        attritionPercent: 10,
        cancellation: [{ daysBefore: 30, percent: 50 }],
        notes: 'Breakfast included',
      });
      const page = readable((await browser.get(answer.headers.location as string)).body);
      expect(page).toContain('Your proposal is sent.');
      expect(page).toContain('Revision 1');
      expect(page).toContain('Total €11,947.50');
      expect(page).toContain('Revise your proposal');
    });

    it('revises: the form holds the latest revision, and sending it again makes revision 2, the first kept', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      expect((await browser.post(venueHref.proposal(sent.token), PROPOSAL)).statusCode).toBe(303);
      const form = await browser.get(venueHref.proposal(sent.token));
      expect(readable(form.body)).toContain('Revise your proposal');
      const fields = formFields(form.body, venueHref.proposal(sent.token));
      for (const [name, value] of Object.entries(PROPOSAL)) {
        expect(fields).toContainEqual([name, name === 'rooms.2030-05-02.Single.rate' ? '125.5' : value]);
      }
      const changed = fields.map(([name, value]): [string, string] =>
        name === 'rooms.2030-05-01.Single.rate' ? [name, '110'] : [name, value],
      );
      const answer = await browser.post(venueHref.proposal(sent.token), changed);
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe(venueHref.request(sent.token, 'proposal-revised'));
      const revisions = (await proposalsOf(sent)) as Array<{
        revision: number;
        rooms: Record<string, Record<string, { rate: number }>>;
      }>;
      expect(revisions.map((proposal) => proposal.revision)).toEqual([2, 1]);
      expect(revisions[0]!.rooms['2030-05-01']!.Single!.rate).toBe(110);
      expect(revisions[1]!.rooms['2030-05-01']!.Single!.rate).toBe(120);
    });
  });

  describe('turning down', () => {
    it('asks for a reason, and a comment for another reason, beside their controls; nothing written', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.turnDown(sent.token));
      const none = await browser.post(venueHref.turnDown(sent.token), { comment: 'Sorry' });
      expect(none.statusCode).toBe(400);
      expect(none.body).toMatch(/id="field-reason-error"[^>]*>Choose a reason\./);
      expect(none.body).toContain('Sorry</textarea>');
      const other = await browser.post(venueHref.turnDown(sent.token), { reason: 'other', comment: '' });
      expect(other.statusCode).toBe(400);
      expect(other.body).toMatch(/id="field-comment-error"[^>]*>Say why/);
      expect(other.body).toMatch(/value="other"[^>]*checked|checked[^>]*value="other"/);
      expect((await requestOf(t, sent)).status).toBe('viewed');
    });

    it('turns the request down with its reason; the page is then closed and refuses every form with 409', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.turnDown(sent.token));
      const answer = await browser.post(venueHref.turnDown(sent.token), {
        reason: 'dates_unavailable',
        comment: 'Fully booked that week',
      });
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe(venueHref.request(sent.token, 'turned-down'));
      const request = await requestOf(t, sent);
      expect(request).toMatchObject({
        status: 'turned_down',
        turnDown: { reason: 'dates_unavailable', comment: 'Fully booked that week' },
      });
      const page = readable((await browser.get(venueHref.request(sent.token))).body);
      expect(page).toContain('This request is closed: you turned it down.');
      expect(page).not.toContain('Send a proposal');
      // The forms are not offered any more, and a post made from an old page writes nothing.
      const form = await browser.get(venueHref.proposal(sent.token));
      expect(form.statusCode).toBe(303);
      expect(form.headers.location).toBe(venueHref.request(sent.token));
      const late = await browser.post(venueHref.proposal(sent.token), PROPOSAL);
      expect(late.statusCode).toBe(409);
      expect(readable(late.body)).toContain('Nothing was sent: this request is closed');
      expect(await proposalsOf(sent)).toEqual([]);
    });
  });

  describe('a closed request', () => {
    it('withdrawn by the planner: says so, shows the last proposal, refuses a proposal and a turn-down with 409', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      expect((await browser.post(venueHref.proposal(sent.token), PROPOSAL)).statusCode).toBe(303);
      await browser.get(venueHref.proposal(sent.token));
      const withdrawn = await callApi(
        t,
        'DELETE',
        `/v1/events/${sent.eventId}/venue-requests/${sent.requestId}`,
      );
      expect(withdrawn.status, JSON.stringify(withdrawn.json)).toBeLessThan(300);
      const page = readable((await browser.get(venueHref.request(sent.token))).body);
      expect(page).toContain('This request is closed: the planner withdrew it.');
      expect(page).toContain('Revision 1');
      expect(page).not.toContain('Revise your proposal');
      const revision = await browser.post(venueHref.proposal(sent.token), PROPOSAL);
      expect(revision.statusCode).toBe(409);
      const turnDown = await browser.post(venueHref.turnDown(sent.token), { reason: 'other', comment: 'x' });
      expect(turnDown.statusCode).toBe(409);
      expect((await proposalsOf(sent)).length).toBe(1);
      expect((await requestOf(t, sent)).status).toBe('withdrawn');
    });

    it('whose event was cancelled: says it is closed, refuses a proposal with 409', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      await changeEventStatus(t.deps, sent.eventId, 'cancelled');
      const page = readable((await browser.get(venueHref.request(sent.token))).body);
      expect(page).toContain('This request is closed');
      const late = await browser.post(venueHref.proposal(sent.token), PROPOSAL);
      expect(late.statusCode).toBe(409);
      expect(await proposalsOf(sent)).toEqual([]);
    });
  });

  describe('an event no longer taking proposals', () => {
    it('booked by an operator with the request still open: says the event takes no proposals, refuses with 409', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      await changeEventStatus(t.deps, sent.eventId, 'booked');
      expect((await requestOf(t, sent)).status).toBe('viewed');
      const page = readable((await browser.get(venueHref.request(sent.token))).body);
      expect(page).toContain('This request is closed: the event no longer takes proposals.');
      expect(page).not.toContain('Send a proposal');
      const late = await browser.post(venueHref.proposal(sent.token), PROPOSAL);
      expect(late.statusCode).toBe(409);
      expect(readable(late.body)).toContain('the event no longer takes proposals');
      const turnDown = await browser.post(venueHref.turnDown(sent.token), { reason: 'other', comment: 'x' });
      expect(turnDown.statusCode).toBe(409);
      expect(await proposalsOf(sent)).toEqual([]);
      expect((await requestOf(t, sent)).status).toBe('viewed');
    });
  });

  describe('forged posts', () => {
    it('refuses a post without the form token with 403 and writes nothing', async () => {
      const sent = await sentOne();
      const browser = browserFor(t);
      await browser.get(venueHref.proposal(sent.token));
      const forged = await browser.post(venueHref.proposal(sent.token), PROPOSAL, false);
      expect(forged.statusCode).toBe(403);
      expect(readable(forged.body)).toContain('This form has expired');
      const turnDown = await browser.post(
        venueHref.turnDown(sent.token),
        { reason: 'other', comment: 'x' },
        false,
      );
      expect(turnDown.statusCode).toBe(403);
      expect(await proposalsOf(sent)).toEqual([]);
      expect((await requestOf(t, sent)).status).toBe('viewed');
    });

    it("refuses another request's form token: tokens are bound to the request", async () => {
      const [mine, theirs] = await sendRequests(t, fullEvent(), ['Mine', 'Theirs']);
      const browser = browserFor(t);
      const page = await browser.get(venueHref.proposal(theirs!.token));
      const token = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const crossed = await browser.post(venueHref.proposal(mine!.token), { ...PROPOSAL, _csrf: token });
      expect(crossed.statusCode).toBe(403);
      expect(await proposalsOf(mine!)).toEqual([]);
    });
  });
});

describe("the venue's page's rate limit", () => {
  let t: TestApp;
  let pages: RateLimiter;
  beforeAll(async () => {
    // Only the venue's page is limited tightly here, so that setting up through the API is not.
    pages = createMemoryRateLimiter({ limit: 3 });
    const api = createMemoryRateLimiter({ limit: 1_000_000 });
    t = await startTestApp({
      rateLimiter: {
        consume: (key) => (key.startsWith('venue-page:') ? pages : api).consume(key),
        close: async () => {
          await pages.close();
          await api.close();
        },
      },
    });
  });
  afterAll(() => t.close());

  it('limits requests per client address and per link: 429 with Retry-After, nothing written', async () => {
    const [first, second] = await sendRequests(t, fullEvent(), ['First', 'Second']);
    const browser = browserFor(t);
    for (let index = 0; index < 3; index++) {
      expect((await browser.get(venueHref.request(first!.token))).statusCode).toBe(200);
    }
    const limited = await browser.get(venueHref.request(first!.token));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(readable(limited.body)).toContain('Too many requests');
    // Another link from the same address is limited too: the address's budget is spent.
    expect((await browserFor(t).get(venueHref.request(second!.token))).statusCode).toBe(429);
    // From another address, the first link's own budget is spent; the second link's is not.
    const fromElsewhere = (token: string) =>
      t.app.inject({ method: 'GET', url: venueHref.request(token), remoteAddress: '198.51.100.7' });
    expect((await fromElsewhere(first!.token)).statusCode).toBe(429);
    expect((await fromElsewhere(second!.token)).statusCode).toBe(200);
  });
});
