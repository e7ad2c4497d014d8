/**
 * Generated requests to every venue sourcing operation (D20–D24): bodies drawn from the published
 * schemas of the venue, request, proposal, award and decline bodies, some broken on purpose, sent to
 * real venues and requests in every state. Every answer must be below 500 and every 4xx a complete
 * problem-details body; startTestApp checks each response against the document.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { committedDocument } from '../helpers/openapi.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';
import { arbitraryOf, type SchemaDocument } from './schema-arbitrary.js';

const RUNS = 600;
const SEED = 2_020_024;
const document = committedDocument() as unknown as SchemaDocument;
const body = (name: string) =>
  arbitraryOf({ $ref: `#/components/schemas/${name}` }, { document, wrong: 0.05 });

describe('venue sourcing under generated requests', () => {
  let t: TestApp;
  let eventId: string;
  let venueIds: string[] = [];
  const requestIds: string[] = [];
  const answers = new Map<number, number>();

  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const response = await t.app.inject({
      method,
      url: `/v1${url}`,
      headers: {
        'x-api-key': t.key,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    answers.set(response.statusCode, (answers.get(response.statusCode) ?? 0) + 1);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(500);
    if (response.statusCode >= 400) {
      expect(json(response)).toMatchObject({ status: response.statusCode, code: expect.any(String) });
    }
    return response;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const event = await send('POST', '/events', {
      name: 'Fuzzed sourcing',
      eventDates: [{ startDate: '2090-05-01', endDate: '2090-05-03' }],
      accommodations: { '2090-05-01': { Single: 5 } },
      budgetBreakdown: { venue: 1000 },
    });
    eventId = json(event).id;
    venueIds = t.demo.venueIds;
    for (const venueId of venueIds)
      requestIds.push(json(await send('POST', `/events/${eventId}/venue-requests`, { venueId })).id);
    await changeEventStatus(t.deps, eventId, 'wait_for_proposals');
  });
  afterAll(() => t.close());

  it('answers every generated request below 500 with a complete problem for every refusal', async () => {
    const request = fc.oneof(
      body('CreateVenueRequest').map((payload) => ['POST', '/venues', payload] as const),
      fc
        .tuple(fc.nat(), body('UpdateVenueRequest'))
        .map(([n, payload]) => ['PATCH', `/venues/${venueIds[n % venueIds.length]}`, payload] as const),
      body('NewVenueRequest').map(
        (payload) => ['POST', `/events/${eventId}/venue-requests`, payload] as const,
      ),
      fc
        .tuple(fc.nat(), body('SubmitProposalRequest'))
        .map(
          ([n, payload]) =>
            [
              'POST',
              `/events/${eventId}/venue-requests/${requestIds[n % requestIds.length]}/proposals`,
              payload,
            ] as const,
        ),
      fc
        .tuple(fc.nat(), body('DeclineVenueRequest'))
        .map(
          ([n, payload]) =>
            [
              'POST',
              `/events/${eventId}/venue-requests/${requestIds[n % requestIds.length]}/decline`,
              payload,
            ] as const,
        ),
      fc
        .tuple(fc.nat(), body('AwardVenueRequest'))
        .map(
          ([n, payload]) =>
            [
              'POST',
              `/events/${eventId}/venue-requests/${requestIds[n % requestIds.length]}/award`,
              payload,
            ] as const,
        ),
      fc.constantFrom(
        ['GET', `/venues?q=${encodeURIComponent('%_\u0000é')}`, undefined] as const,
        ['GET', `/events/${eventId}/venue-requests`, undefined] as const,
      ),
    );
    await fc.assert(
      fc.asyncProperty(request, async ([method, url, payload]) => {
        await send(method, url, payload);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generated bodies reached the domain's checks and, valid, were written.
    expect(answers.get(400)).toBeGreaterThan(0);
    expect((answers.get(200) ?? 0) + (answers.get(201) ?? 0)).toBeGreaterThan(0);
  });
});
