/** Candidate cities resolved to places on create and update, and the places search, through the real app. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';

describe('places', () => {
  let t: TestApp;
  const headers = () => ({ 'x-api-key': t.key, 'content-type': 'application/json' });

  beforeAll(async () => {
    t = await startTestApp();
    await t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
  });
  afterAll(() => t.close());

  async function create(formattedLocations: unknown[]) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/events',
      headers: headers(),
      payload: { name: 'Offsite', formattedLocations },
    });
    expect(created.statusCode).toBe(201);
    const id = json(created).id as string;
    const read = await t.app.inject({ method: 'GET', url: `/v1/events/${id}`, headers: headers() });
    return { id, event: json(read) };
  }

  it('resolves a city that names one place clearly, and keeps ambiguous and unknown ones as typed', async () => {
    const { event } = await create([
      { city: 'lisbon', country: 'Portugal' },
      { city: 'PARIS' },
      { city: 'Springfield' },
      { city: 'Springfield', state: 'Illinois', country: 'US' },
      { city: 'Sao Paulo' },
      { city: 'Atlantis', country: 'Nowhere' },
    ]);
    expect(event.formattedLocations).toEqual([
      {
        city: 'lisbon',
        country: 'Portugal',
        formatted_address: 'lisbon, Portugal',
        place_id: 'geonames:2267057',
        countryCode: 'PT',
        latitude: 38.71667,
        longitude: -9.13333,
        timeZone: 'Europe/Lisbon',
      },
      expect.objectContaining({ city: 'PARIS', formatted_address: 'PARIS', place_id: 'geonames:2988507' }),
      { city: 'Springfield', formatted_address: 'Springfield' },
      expect.objectContaining({ place_id: 'geonames:4250542', timeZone: 'America/Chicago' }),
      expect.objectContaining({ place_id: 'geonames:3448439', countryCode: 'BR' }),
      { city: 'Atlantis', country: 'Nowhere', formatted_address: 'Atlantis, Nowhere' },
    ]);
    expect(event.location).toBe(
      'lisbon, Portugal; PARIS; Springfield; Springfield, Illinois, US; Sao Paulo; Atlantis, Nowhere',
    );
  });

  it('accepts a read event sent back unchanged, without moving updatedAt', async () => {
    const { id, event } = await create([{ city: 'Lisbon', country: 'PT' }]);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${id}`,
      headers: headers(),
      payload: { formattedLocations: event.formattedLocations },
    });
    expect(patched.statusCode).toBe(200);
    expect(json(patched).formattedLocations).toEqual(event.formattedLocations);
    expect(json(patched).updatedAt).toBe(event.updatedAt);
  });

  it('resolves the locations of an update, and refuses a resolved field that differs, naming it', async () => {
    const { id } = await create([{ city: 'Springfield' }]);
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${id}`,
      headers: headers(),
      payload: { formattedLocations: [{ city: 'Paris', state: 'TX' }] },
    });
    expect(moved.statusCode).toBe(200);
    expect(json(moved).formattedLocations[0]).toMatchObject({
      place_id: 'geonames:4717560',
      countryCode: 'US',
    });

    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/v1/events/${id}`,
      headers: headers(),
      payload: {
        formattedLocations: [
          { city: 'Paris', state: 'TX', place_id: 'geonames:2988507' },
          { city: 'Springfield', timeZone: 'Europe/Paris' },
        ],
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(json(refused).errors).toEqual([
      expect.objectContaining({ field: 'formattedLocations[0].place_id', code: 'read_only' }),
      expect.objectContaining({ field: 'formattedLocations[1].timeZone', code: 'read_only' }),
    ]);
  });

  it('searches places by prefix, most populous first, in one country', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/places?q=lis&country=PT&limit=10',
      headers: headers(),
    });
    expect(response.statusCode).toBe(200);
    expect(json(response).data).toEqual([
      {
        name: 'Lisbon',
        adminCode: '14',
        population: 517_802,
        place_id: 'geonames:2267057',
        countryCode: 'PT',
        latitude: 38.71667,
        longitude: -9.13333,
        timeZone: 'Europe/Lisbon',
      },
    ]);
    const anywhere = await t.app.inject({ method: 'GET', url: '/v1/places?q=L%C3%81', headers: headers() });
    expect(json(anywhere).data.map((place: { countryCode: string }) => place.countryCode)).toEqual([
      'NG',
      'PT',
    ]);
  });

  it('refuses a search without q, with an unknown country or parameter, or without a key', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v1/places?country=Atlantis&q=a&sort=name',
      headers: headers(),
    });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).errors.map((problem: { field: string }) => problem.field)).toEqual(['query.sort']);
    const noQ = await t.app.inject({ method: 'GET', url: '/v1/places', headers: headers() });
    expect(noQ.statusCode).toBe(400);
    const unknownCountry = await t.app.inject({
      method: 'GET',
      url: '/v1/places?q=a&country=Atlantis',
      headers: headers(),
    });
    expect(json(unknownCountry).errors).toEqual([expect.objectContaining({ field: 'query.country' })]);
    const noKey = await t.app.inject({ method: 'GET', url: '/v1/places?q=lis' });
    expect(noKey.statusCode).toBe(401);
  });
});
