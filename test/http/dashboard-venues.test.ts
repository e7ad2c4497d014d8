/**
 * The dashboard's venue forms over HTTP (D15, D20, D21): every POST needs its form token and writes
 * nothing without it; another organization's venue is a 404; what a planner typed is text; an archived
 * venue and a closed request refuse their forms in words, writing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/app/organizations.js';
import { setPassword } from '../../src/app/people.js';
import { createVenue } from '../../src/app/venues.js';
import { href } from '../../src/web/href.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { browserFor, formFields, PASSWORD } from './form-browser.js';
import { clientFor, createEvent, fullEventBody } from './requests.js';

describe('the venue forms of the dashboard over HTTP', () => {
  let t: TestApp;
  let browser: ReturnType<typeof browserFor>;
  const api = () => ({
    send: (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `/v1${url}`,
        headers: {
          'x-api-key': t.key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      }),
  });
  const newVenue = async (name: string) => {
    const response = await api().send('POST', '/venues', {
      name,
      email: 'sales@hotel.example',
      city: 'Lisbon',
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
    await setPassword(t.deps, t.demo.userId, PASSWORD);
    browser = browserFor(t);
    await browser.signIn();
  });
  afterAll(() => t.close());

  it('refuses every venue form posted without its token, writing nothing', async () => {
    const venueId = await newVenue('Token Hotel');
    const eventId = await createEvent(clientFor(t), fullEventBody());
    const before = (await api().send('GET', '/venues')).json().total;
    await browser.get(href.venues());
    const posts: Array<[string, Record<string, string>]> = [
      [href.newVenue(), { name: 'Forged', email: 'f@example.com', city: 'Porto' }],
      [href.venue(venueId), { name: 'Renamed', email: 'f@example.com', city: 'Porto' }],
      [href.archiveVenue(venueId), {}],
      [href.addEventVenue(eventId), { venueId }],
    ];
    for (const [url, fields] of posts) {
      const response = await browser.post(url, fields, false);
      expect(response.statusCode, url).toBe(403);
    }
    expect((await api().send('GET', '/venues')).json().total).toBe(before);
    expect((await api().send('GET', `/venues/${venueId}`)).json()).toMatchObject({
      name: 'Token Hotel',
      archivedAt: null,
    });
    expect((await api().send('GET', `/events/${eventId}/venue-requests`)).json().data).toEqual([]);
  });

  it("answers 404 for another organization's venue and for an address that names no venue", async () => {
    const { id: other } = await createOrganization(t.deps, 'Elsewhere');
    const theirs = await createVenue(
      t.deps,
      { organizationId: other },
      {
        name: 'Their Hotel',
        email: 'their@hotel.example',
        city: 'Porto',
      },
    );
    for (const url of [href.venue(theirs.id), href.archiveVenue(theirs.id), href.venue('not-an-id')]) {
      expect((await browser.get(url)).statusCode, url).toBe(404);
    }
    await browser.get(href.venues());
    expect((await browser.post(href.archiveVenue(theirs.id), {})).statusCode).toBe(404);
    const eventId = await createEvent(clientFor(t), fullEventBody());
    await browser.get(href.addEventVenue(eventId));
    const refused = await browser.post(href.addEventVenue(eventId), { venueId: theirs.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('This venue is not in your directory any more; choose another.');
    expect(refused.body).not.toContain('Their Hotel');
  });

  it('shows markup typed into a venue as text, and saves the edit form unchanged as it was', async () => {
    await newVenue('<img src=x onerror=alert(1)> Inn');
    const list = await browser.get(href.venues({ search: 'inn' }));
    expect(list.body).toContain('&lt;img src=x onerror=alert(1)> Inn');
    expect(list.body).not.toContain('<img src=x');
    // Saved unchanged (the form helper reads attributes up to a `>`, so this one has none).
    const plain = await newVenue('Café & "Quay" Rooms');
    const form = await browser.get(href.venue(plain));
    const before = (await api().send('GET', `/venues/${plain}`)).json();
    const saved = await browser.post(href.venue(plain), formFields(form.body, href.venue(plain)));
    expect(saved.statusCode, /field-error[^>]*>([^<]*)/.exec(saved.body)?.[1]).toBe(303);
    expect(saved.headers.location).toBe('/app/venues?notice=venue-saved');
    expect((await api().send('GET', `/venues/${plain}`)).json()).toEqual(before);
  });

  it('refuses to change an archived venue, and to withdraw a closed request, in words', async () => {
    const venueId = await newVenue('Closing Hotel');
    const form = await browser.get(href.venue(venueId));
    const fields = formFields(form.body, href.venue(venueId));
    expect((await api().send('DELETE', `/venues/${venueId}`)).statusCode).toBe(204);
    const refused = await browser.post(href.venue(venueId), fields);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('This venue is archived: it can no longer be changed or asked.');
    expect(refused.body).not.toMatch(/venue_archived/);

    // A shortlisted venue withdrawn twice: the second post finds nothing and shows the event's venues.
    const eventId = await createEvent(clientFor(t), fullEventBody());
    const other = await newVenue('Twice Hotel');
    const added = await api().send('POST', `/events/${eventId}/venue-requests`, { venueId: other });
    const requestId = added.json().id as string;
    await browser.get(href.withdrawRequest(eventId, requestId));
    const first = await browser.post(href.withdrawRequest(eventId, requestId), {});
    expect(first.headers.location).toBe(`/app/events/${eventId}?notice=shortlist-removed#venues`);
    const second = await browser.post(href.withdrawRequest(eventId, requestId), {});
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(`/app/events/${eventId}#venues`);
  });
});
