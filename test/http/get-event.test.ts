import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/app/organizations.js';
import { startTestApp, type TestApp, throughFastPaths } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent, expectProblem, fullEventBody, problemAt } from './requests.js';

let t: TestApp;
let api: Client;
let id: string;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
  id = await createEvent(api, fullEventBody());
});
afterAll(() => t.close());

/** The full details view: the interface's fields plus the timestamps (D3, D6). */
const DETAIL_FIELDS = [
  'id',
  'name',
  'status',
  'currency',
  'location',
  'eventDates',
  'formattedLocations',
  'numPeople',
  'budgetBreakdown',
  'flexibility',
  'decisionDeadline',
  'accommodations',
  'meetingRoomDates',
  'agenda',
  'numMeetingRoomsNeeded',
  'foodBeverageRequirements',
  'meetingRooms',
  'otherNotes',
  'notesForVenue',
  'decisionFactors',
  'decisionFactorOtherText',
  'additionalServices',
  'createdAt',
  'updatedAt',
];

describe('GET /v1/events/{id}', () => {
  it('returns the full details view as JSON with an ETag', async () => {
    const response = await api.get(id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
    const event = response.json();
    expect(Object.keys(event).sort()).toEqual([...DETAIL_FIELDS].sort());
    expect(event).toMatchObject({
      id,
      status: 'draft',
      currency: 'USD',
      flexibility: 'A week either way',
      decisionDeadline: '2026-03-01T17:00:00Z',
      accommodations: { '2026-05-01': { Single: 40, Double: 10 }, '2026-05-02': { Single: 38 } },
      meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
      numMeetingRoomsNeeded: 3,
      foodBeverageRequirements: 'Vegetarian options',
      meetingRooms: 'One plenary room, two breakouts',
      otherNotes: 'Near the airport',
      notesForVenue: 'Flexible on room layout',
      decisionFactorOtherText: 'Sustainability',
      additionalServices: ['Airport transfers'],
    });
  });

  it('keeps the ETag while the event is unchanged and changes it with the event', async () => {
    const first = await api.get(id);
    const second = await api.get(id);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
    const patched = await api.patch(id, { otherNotes: 'Close to the station' });
    expect(patched.statusCode).toBe(200);
    const third = await api.get(id);
    expect(third.headers.etag).not.toBe(first.headers.etag);
    expect(patched.headers.etag).toBe(third.headers.etag);
    expect(patched.json()).toEqual(third.json());
  });

  it('answers the same event for the id in upper case', async () => {
    const response = await api.get(id.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(id);
  });

  it('answers 404 not_found for an unknown id', async () => {
    const body = expectProblem(await api.get(randomUUID()), 404, 'not_found');
    expect(body.errors).toBeUndefined();
  });

  it("answers 404 for another organization's event, exactly as for an unknown one", async () => {
    const other = clientFor(t, (await createDemo(t.deps)).key);
    const response = await other.get(id);
    expectProblem(response, 404, 'not_found');
    const unknown = await other.get(randomUUID());
    expect(Object.keys(response.json()).sort()).toEqual(Object.keys(unknown.json()).sort());
  });

  it.each([
    'not-a-uuid',
    '123',
    `${randomUUID()}x`,
    'g0000000-0000-0000-0000-000000000000',
  ])('answers 400 naming id for the malformed id %s', async (malformed) => {
    const response = await api.get(encodeURIComponent(malformed));
    const problem = problemAt(response, 'id');
    expect(problem.code).toBe('invalid_format');
  });

  it('answers 401 without a key, before looking at the id', async () => {
    expectProblem(await clientFor(t, null).get('not-a-uuid'), 401, 'unauthorized');
  });
});

// In the `fast-paths` project every read here is answered twice, by the fast path and by the routes,
// and compared (test/helpers/test-app.ts); this checks that the fast path really answered.
describe.runIf(throughFastPaths())('through the fast paths', () => {
  it('answers a plain read on the fast path and leaves a conditional one to the routes', async () => {
    const before = t.fastPathAnswers();
    const plain = await api.get(id);
    expect(plain.statusCode).toBe(200);
    expect(t.fastPathAnswers()).toBe(before + 1);
    const conditional = await api.raw({
      method: 'GET',
      url: `/v1/events/${id}`,
      headers: { 'if-none-match': String(plain.headers.etag) },
    });
    expect(conditional.statusCode).toBe(304);
    expect(t.fastPathAnswers()).toBe(before + 1);
  });
});
