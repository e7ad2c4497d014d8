/**
 * The dashboard over HTTP (D15): what a browser receives, checked through the real app with `inject`
 * on the test backend. The browser suite (test/browser) walks the same pages as a person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/app/people.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { browserFor, formFields, PASSWORD } from './form-browser.js';
import { clientFor, createEvent } from './requests.js';

describe('the planning dashboard over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await setPassword(t.deps, t.demo.userId, PASSWORD);
  });
  afterAll(() => t.close());

  it('redirects / to /app, and /app to the sign-in page when signed out', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/app');
    const app = await t.app.inject({ method: 'GET', url: '/app' });
    expect(app.statusCode).toBe(303);
    expect(app.headers.location).toBe('/app/sign-in?next=%2Fapp');
  });

  it('sends pages with a strict content security policy, no framing, no sniffing and no caching', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/app/sign-in' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
  });

  it('serves its assets itself, cached for a year under a content-versioned address', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/app/sign-in' });
    const css = /href="(\/app\/assets\/app\.css\?v=[0-9a-f]+)"/.exec(page.body)?.[1];
    expect(css).toBeDefined();
    const asset = await t.app.inject({ method: 'GET', url: css! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('signs in with an HttpOnly, SameSite=Lax session cookie on Path=/, a new session each time', async () => {
    const first = browserFor(t);
    const signedIn = await first.signIn();
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/app');
    const cookie = signedIn.cookies.find((one) => one.name === 'eventplan_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
    const second = browserFor(t);
    await second.signIn();
    expect(second.jar.get('eventplan_session')).not.toBe(first.jar.get('eventplan_session'));
    expect((await first.get('/app')).statusCode).toBe(200);
  });

  it('uses a Secure __Host- cookie when the request came over HTTPS', async () => {
    const https = await startTestApp({ trustProxy: 1 });
    try {
      await setPassword(https.deps, https.demo.userId, PASSWORD);
      const browser = browserFor(https, { 'x-forwarded-proto': 'https' });
      const signedIn = await browser.signIn();
      expect(signedIn.statusCode).toBe(303);
      const cookie = signedIn.cookies.find((one) => one.name === '__Host-eventplan_session');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
      expect((await browser.get('/app')).statusCode).toBe(200);
    } finally {
      await https.close();
    }
  });

  it('refuses a POST without the form token with 403 and writes nothing', async () => {
    const browser = browserFor(t);
    await browser.signIn();
    const id = await createEvent(clientFor(t), { name: 'Untouched' });
    const before = (await clientFor(t).get(id)).body;
    const refused = await browser.post(`/app/events/${id}/edit`, { name: 'Changed' }, false);
    expect(refused.statusCode).toBe(403);
    const forged = await browser.post(
      `/app/events/${id}/edit`,
      { name: 'Changed', _csrf: 'forged-token' },
      false,
    );
    expect(forged.statusCode).toBe(403);
    expect((await clientFor(t).get(id)).body).toBe(before);
  });

  it('refuses a form token made for another session', async () => {
    const planner = browserFor(t);
    await planner.signIn();
    const other = browserFor(t);
    await other.signIn();
    await other.get('/app');
    const id = await createEvent(clientFor(t), { name: 'Mine' });
    const theirToken = /name="_csrf" value="([^"]+)"/.exec((await other.get('/app')).body)![1]!;
    const refused = await planner.post(`/app/events/${id}/duplicate`, { _csrf: theirToken }, false);
    expect(refused.statusCode).toBe(403);
  });

  it('answers an event it does not show with the same 404 page as an address that names nothing', async () => {
    const browser = browserFor(t);
    await browser.signIn();
    const unknown = await browser.get('/app/events/00000000-0000-4000-8000-000000000000');
    const malformed = await browser.get('/app/events/not-an-id');
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    const title = (body: string) => /<title>(.*?)<\/title>/.exec(body)?.[1];
    expect(title(unknown.body)).toBe(title(malformed.body));
  });

  it('suggests cities from the gazetteer to a signed-in person only, most populous first', async () => {
    const signedOut = await t.app.inject({ method: 'GET', url: '/app/places?q=lis' });
    expect(signedOut.statusCode).toBe(303);
    await t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
    const browser = browserFor(t);
    await browser.signIn();
    const found = await browser.get('/app/places?q=LIS');
    expect(found.statusCode).toBe(200);
    expect(found.json().data.slice(0, 2)).toEqual([
      { city: 'Lisbon', state: '14', country: 'PT' },
      { city: 'Lisbon', state: 'ME', country: 'US' },
    ]);
    expect((await browser.get('/app/places?q=l')).json()).toEqual({ data: [] });
    const form = await browser.get('/app/events/new');
    expect(form.body).toMatch(/<script src="\/app\/assets\/places\.js\?v=[0-9a-f]+" defer/);
  });

  it('keeps the places an event resolved when its "Edit details" form is saved unchanged', async () => {
    await t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
    const browser = browserFor(t);
    await browser.signIn();
    await browser.get('/app/events/new');
    const created = await browser.post('/app/events/new', {
      name: 'Lisbon offsite',
      'formattedLocations[0].city': 'Lisbon',
      'formattedLocations[0].country': 'PT',
    });
    expect(created.statusCode, created.body).toBe(303);
    const id = /^\/app\/events\/([0-9a-f-]{36})\b/.exec(String(created.headers.location))![1]!;
    const read = await clientFor(t).get(id);
    expect(read.json().formattedLocations).toEqual([
      {
        city: 'Lisbon',
        country: 'PT',
        formatted_address: 'Lisbon, PT',
        place_id: 'geonames:2267057',
        countryCode: 'PT',
        latitude: 38.71667,
        longitude: -9.13333,
        timeZone: 'Europe/Lisbon',
      },
    ]);

    const edit = `/app/events/${id}/edit`;
    const saved = await browser.post(edit, formFields((await browser.get(edit)).body, edit));
    expect(saved.statusCode, saved.body).toBe(303);
    // Nothing was changed, so nothing is: the same document, and no change record (D17).
    const after = await clientFor(t).get(id);
    expect(after.json().formattedLocations).toEqual(read.json().formattedLocations);
    expect(after.body).toBe(read.body);
    const history = await t.deps.store.events.changes(t.demo.organizationId, id, { limit: 10 });
    expect(history.map((change) => change.type)).toEqual(['event.created']);
  });

  it('says "Saved." after the room grid is saved, on the event page at its rooms', async () => {
    const browser = browserFor(t);
    await browser.signIn();
    const id = await createEvent(clientFor(t), { name: 'Rooms to save' });
    const rooms = `/app/events/${id}/rooms`;
    await browser.get(`${rooms}?from=2030-05-01&to=2030-05-01`);
    const saved = await browser.post(rooms, [
      ...formFields((await browser.get(`${rooms}?from=2030-05-01&to=2030-05-01`)).body, rooms),
      ['accommodations.2030-05-01.Single', '12'],
    ]);
    expect(saved.statusCode, saved.body).toBe(303);
    // The notice is in the query and the section in the fragment, so the page both says it and shows it.
    expect(saved.headers.location).toBe(`/app/events/${id}?notice=saved#rooms`);
    expect((await browser.get(String(saved.headers.location))).body).toContain(
      '<output class="notice">Saved.</output>',
    );
  });

  it('answers an agenda form whose days are not dates with the form again and its problem, not a failure', async () => {
    const browser = browserFor(t);
    await browser.signIn();
    const id = await createEvent(clientFor(t), {
      name: 'Agenda to refuse',
      meetingRoomDates: [{ startDate: '2030-05-01', endDate: '2030-05-02' }],
    });
    const agenda = `/app/events/${id}/agenda`;
    const form = formFields((await browser.get(agenda)).body, agenda);
    const refused = await browser.post(agenda, [
      ...form.filter(([name]) => name !== 'dates'),
      ['title', 'Workshop'],
      ['startTime', '11:00'],
      ['endTime', '12:00'],
      ['dates', 'soon'],
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('There is a problem; nothing was saved');
    expect(refused.body).toMatch(/href="#field-dates">Days: /);
    expect((await clientFor(t).get(id)).json().agenda).toEqual([]);
  });

  it('copies a night onto the grid as posted and saves nothing; a Save read before a change meanwhile writes nothing', async () => {
    const browser = browserFor(t);
    await browser.signIn();
    const id = await createEvent(clientFor(t), {
      name: 'Rooms to copy',
      accommodations: { '2030-05-01': { Single: 12 }, '2030-05-02': { Double: 3 } },
    });
    const rooms = `/app/events/${id}/rooms`;
    const grid = formFields((await browser.get(rooms)).body, rooms);
    await clientFor(t).patch(id, { otherNotes: 'Changed meanwhile' });
    const copied = await browser.post(`${rooms}/copy`, [
      ...grid.filter(([name]) => !name.startsWith('copy') && name !== 'accommodations.2030-05-01.Single'),
      ['accommodations.2030-05-01.Single', '14'],
      ['copyNight', '2030-05-01'],
      ['copyFrom', '2030-05-03'],
      ['copyTo', '2030-05-03'],
    ]);
    expect(copied.statusCode).toBe(200);
    expect(copied.body).toContain('Copied, not saved yet');
    const shown = formFields(copied.body, rooms);
    expect(shown).toContainEqual(['accommodations.2030-05-03.Single', '14']);
    expect(shown).toContainEqual(['accommodations.2030-05-01.Single', '14']);
    // The grid still carries the version it was read at: its Save is refused, nothing is written.
    const saved = await browser.post(rooms, shown);
    expect(saved.statusCode).toBe(409);
    expect(saved.body).toContain('This event changed since you opened the grid');
    expect((await clientFor(t).get(id)).json().accommodations).toEqual({
      '2030-05-01': { Single: 12 },
      '2030-05-02': { Double: 3 },
    });
  });

  it('ends the session at sign-out, so the old cookie no longer works', async () => {
    const browser = browserFor(t);
    await browser.signIn();
    const session = browser.jar.get('eventplan_session')!;
    await browser.get('/app');
    const out = await browser.post('/app/sign-out', {});
    expect(out.statusCode).toBe(303);
    const replayed = await t.app.inject({
      method: 'GET',
      url: '/app',
      headers: { cookie: `eventplan_session=${session}` },
    });
    expect(replayed.statusCode).toBe(303);
    expect(replayed.headers.location).toContain('/app/sign-in');
  });
});
