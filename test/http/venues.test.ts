/** The venue directory through the real app (D20); every response is checked against the document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/app/organizations.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';
import { expectProblem, fieldsOf, problemAt } from './requests.js';

describe('venues', () => {
  let t: TestApp;
  let otherKey: string;
  const send = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    key: string | null = t.key,
    contentType = 'application/json',
  ) =>
    t.app.inject({
      method,
      url: `/v1${url}`,
      headers: {
        ...(key === null ? {} : { 'x-api-key': key }),
        ...(body === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const create = async (body: Record<string, unknown>) => {
    const response = await send('POST', '/venues', { email: 'sales@hotel.example', city: 'Lisbon', ...body });
    expect(response.statusCode, response.body).toBe(201);
    return json(response);
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
    otherKey = (await createDemo(t.deps)).key;
  });
  afterAll(() => t.close());

  describe('POST /v1/venues', () => {
    it('adds a venue, resolves its city, and answers 201 with it and its Location', async () => {
      const response = await send('POST', '/venues', {
        name: 'Hotel <Atlântico>',
        email: 'sales@atlantico.example',
        city: 'Lisbon',
        country: 'Portugal',
        website: 'https://atlantico.example/meetings',
        guestRooms: 120,
        notes: 'Line one\nline two',
      });
      expect(response.statusCode, response.body).toBe(201);
      const venue = json(response);
      expect(response.headers.location).toBe(`/v1/venues/${venue.id}`);
      expect(venue).toMatchObject({
        name: 'Hotel <Atlântico>',
        state: null,
        contactName: null,
        largestMeetingRoomCapacity: null,
        place_id: 'geonames:2267057',
        countryCode: 'PT',
        timeZone: 'Europe/Lisbon',
        archivedAt: null,
      });
      expect(json(await send('GET', `/venues/${venue.id}`))).toEqual(venue);
    });

    it('names every problem at once, line breaks in the name and email included, and writes nothing', async () => {
      const before = json(await send('GET', '/venues?limit=100')).total;
      const response = await send('POST', '/venues', {
        name: 'Evil\r\nBcc: victim@example.com',
        email: 'a@b.example\nBcc: x@y.example',
        website: 'http://plain.example',
        guestRooms: -1,
        id: 'mine',
        extra: true,
      });
      expect(fieldsOf(response).sort()).toEqual([
        'city',
        'email',
        'extra',
        'guestRooms',
        'id',
        'name',
        'website',
      ]);
      expect(problemAt(response, 'name').code).toBe('line_break');
      expect(problemAt(response, 'id').code).toBe('read_only');
      expect(json(await send('GET', '/venues?limit=100')).total).toBe(before);
    });

    it('refuses a body that is not a JSON object, and a type other than JSON', async () => {
      expect(fieldsOf(await send('POST', '/venues', '[]'))).toEqual(['body']);
      expectProblem(
        await send('POST', '/venues', 'name=x', t.key, 'text/plain'),
        415,
        'unsupported_media_type',
      );
      expectProblem(await send('POST', '/venues', { name: 'x' }, null), 401, 'unauthorized');
    });
  });

  describe('GET /v1/venues', () => {
    it('lists in name order with q on name or city, paged, archived venues left out', async () => {
      for (const [name, city] of [
        ['zz Last Resort', 'Faro'],
        ['ÁA First House', 'Faro'],
        ['Mid Inn', 'Braga'],
      ]) {
        await create({ name, city });
      }
      const faro = json(await send('GET', '/venues?q=faro'));
      expect(faro.data.map((venue: { name: string }) => venue.name)).toEqual([
        'ÁA First House',
        'zz Last Resort',
      ]);
      expect(faro).toMatchObject({ page: 1, limit: 20, total: 2 });
      expect(json(await send('GET', '/venues?q=mid%20inn')).total).toBe(1);
      const paged = json(await send('GET', '/venues?q=faro&page=2&limit=1'));
      expect(paged.data.map((venue: { name: string }) => venue.name)).toEqual(['zz Last Resort']);
      expect(json(await send('GET', '/venues?q=faro&page=9')).data).toEqual([]);
    });

    it('refuses unknown and malformed parameters, each named', async () => {
      const response = await send('GET', `/venues?limit=0&page=x&sort=name&q=${'x'.repeat(201)}`);
      expect(fieldsOf(response).sort()).toEqual(['query.limit', 'query.page', 'query.sort']);
      expect(fieldsOf(await send('GET', `/venues?q=${'x'.repeat(201)}`))).toEqual(['query.q']);
      expect(fieldsOf(await send('GET', '/venues?q=a&q=b'))).toEqual(['query.q']);
    });

    it("never shows another organization's venues", async () => {
      await create({ name: 'Private Palace' });
      const other = json(await send('GET', '/venues?q=private%20palace', undefined, otherKey));
      expect(other.total).toBe(0);
    });
  });

  describe('GET, PATCH, DELETE /v1/venues/{id}', () => {
    it("is a 404 for another organization's venue and a 400 naming a malformed id", async () => {
      const venue = await create({ name: 'Guarded' });
      for (const method of ['GET', 'DELETE'] as const) {
        expectProblem(await send(method, `/venues/${venue.id}`, undefined, otherKey), 404, 'not_found');
      }
      expectProblem(await send('PATCH', `/venues/${venue.id}`, { name: 'Mine' }, otherKey), 404, 'not_found');
      expect(fieldsOf(await send('GET', '/venues/nope?x=1'))).toEqual(['id', 'query.x']);
      expect(json(await send('GET', `/venues/${venue.id}`)).name).toBe('Guarded');
    });

    it('merges a patch: null clears, a read venue sent back changes nothing, the city resolves again', async () => {
      const venue = await create({ name: 'Patched', contactName: 'Ana', phone: '+351 1' });
      const patched = await send(
        'PATCH',
        `/venues/${venue.id}`,
        { phone: null, city: 'Paris', country: 'France' },
        t.key,
        'application/merge-patch+json',
      );
      expect(patched.statusCode, patched.body).toBe(200);
      expect(json(patched)).toMatchObject({ phone: null, contactName: 'Ana', place_id: 'geonames:2988507' });
      const same = await send('PATCH', `/venues/${venue.id}`, json(patched));
      expect(json(same)).toEqual(json(patched));
      expect(
        fieldsOf(await send('PATCH', `/venues/${venue.id}`, { name: null, createdAt: 'x' })).sort(),
      ).toEqual(['createdAt', 'name']);
    });

    it('archives with DELETE: 204, out of the list, readable, changes refused with 409', async () => {
      const venue = await create({ name: 'Closing Down' });
      const deleted = await send('DELETE', `/venues/${venue.id}`);
      expect(deleted.statusCode).toBe(204);
      expect((await send('DELETE', `/venues/${venue.id}`)).statusCode).toBe(204);
      expect(json(await send('GET', '/venues?q=closing')).total).toBe(0);
      expect(json(await send('GET', `/venues/${venue.id}`)).archivedAt).not.toBeNull();
      expectProblem(await send('PATCH', `/venues/${venue.id}`, { name: 'Back' }), 409, 'venue_archived');
    });
  });
});
