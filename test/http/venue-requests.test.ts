/**
 * Requests for proposals, proposals, awards and declines through the real app (D21, D23, D24): every
 * operation and every refusal, each response checked against the document.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { submitVenueProposal } from '../../src/app/venue-portal.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';
import { expectProblem, fieldsOf, problemAt } from './requests.js';

const READY = {
  name: 'Offsite',
  formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
  numPeople: 20,
  meetingRoomDates: [{ startDate: '2090-05-04', endDate: '2090-05-05' }],
  accommodations: { '2090-05-04': { Single: 10 } },
  budgetBreakdown: { venue: 5000 },
  decisionDeadline: '2090-04-01',
};
const PROPOSAL = {
  validUntil: '2090-04-15',
  rooms: { '2090-05-04': { Single: { count: 10, rate: 120 } } },
  meetingRoomRental: 800,
};

describe('venue requests', () => {
  let t: TestApp;
  let otherKey: string;
  const send = (
    method: 'GET' | 'POST' | 'DELETE',
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

  const newVenue = async (name = 'Hotel') => {
    const response = await send('POST', '/venues', {
      name,
      email: `${randomUUID()}@venues.example`,
      city: 'Lisbon',
    });
    expect(response.statusCode, response.body).toBe(201);
    return json(response) as { id: string; email: string; name: string };
  };
  const newEvent = async (body: Record<string, unknown> = {}) => {
    const response = await send('POST', '/events', { ...READY, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return json(response).id as string;
  };
  const addRequest = async (eventId: string, venueId: string) => {
    const response = await send('POST', `/events/${eventId}/venue-requests`, { venueId });
    expect(response.statusCode, response.body).toBe(201);
    return json(response);
  };
  /** The token of the link in the venue's request mail. */
  const tokenOf = async (email: string) => {
    const mails = await t.deps.store.mail.list({ to: email, limit: 5 });
    const sent = mails.find((mail) => mail.subject.startsWith('Request for proposal'));
    return /\/rfp\/(\w+)/.exec(sent?.text ?? '')![1]!;
  };
  /** The subjects of the mails to `email` (mails of one millisecond have no order among them). */
  const subjectsTo = async (email: string) =>
    (await t.deps.store.mail.list({ to: email, limit: 10 })).map((mail) => mail.subject);
  /** An event sent to `count` venues: ids, requests and venue tokens. */
  const sentEvent = async (count: number) => {
    const eventId = await newEvent();
    const venues = [];
    const requests = [];
    for (let index = 0; index < count; index++) {
      venues.push(await newVenue(`Venue ${index}`));
      requests.push(await addRequest(eventId, venues[index]!.id));
    }
    await changeEventStatus(t.deps, eventId, 'wait_for_proposals');
    const tokens = await Promise.all(venues.map((venue) => tokenOf(venue.email)));
    return { eventId, venues, requests, tokens };
  };

  beforeAll(async () => {
    t = await startTestApp();
    otherKey = (await createDemo(t.deps)).key;
  });
  afterAll(() => t.close());

  describe('POST /v1/events/{id}/venue-requests', () => {
    it('shortlists a venue while the event is a draft: 201, Location, nothing sent', async () => {
      const eventId = await newEvent();
      const venue = await newVenue();
      const response = await send('POST', `/events/${eventId}/venue-requests`, {
        venueId: venue.id.toUpperCase(),
        responseDueDate: '2090-03-20',
      });
      expect(response.statusCode, response.body).toBe(201);
      const request = json(response);
      expect(response.headers.location).toBe(`/v1/events/${eventId}/venue-requests/${request.id}`);
      expect(request).toMatchObject({
        eventId,
        venue: { id: venue.id, name: 'Hotel', email: venue.email, city: 'Lisbon' },
        status: 'shortlisted',
        responseDueDate: '2090-03-20',
        sentAt: null,
        proposal: null,
      });
      expect(await t.deps.store.mail.list({ to: venue.email, limit: 5 })).toEqual([]);
    });

    it('sends at once while venues are asked, keeping the given due date', async () => {
      const { eventId } = await sentEvent(1);
      const venue = await newVenue('Late');
      const request = await addRequest(eventId, venue.id);
      expect(request).toMatchObject({ status: 'sent', responseDueDate: '2090-04-01' });
      expect(await tokenOf(venue.email)).toMatch(/^\w{32}$/);
    });

    it('names every problem of the body, and an unknown venue', async () => {
      const eventId = await newEvent();
      const malformed = await send('POST', `/events/${eventId}/venue-requests`, {
        venueId: 'nope',
        responseDueDate: '2001-01-01',
        extra: 1,
      });
      expect(fieldsOf(malformed).sort()).toEqual(['extra', 'responseDueDate', 'venueId']);
      expect(problemAt(malformed, 'responseDueDate').code).toBe('in_the_past');
      const unknown = await send('POST', `/events/${eventId}/venue-requests`, { venueId: randomUUID() });
      expect(problemAt(unknown, 'venueId').code).toBe('unknown_venue');
      expect(fieldsOf(await send('POST', `/events/${eventId}/venue-requests`, '"x"'))).toEqual(['body']);
    });

    it("refuses another organization's venue as unknown, and its event with a 404", async () => {
      const eventId = await newEvent();
      const theirs = json(
        await send('POST', '/venues', { name: 'Theirs', email: 'a@b.example', city: 'Porto' }, otherKey),
      );
      const response = await send('POST', `/events/${eventId}/venue-requests`, { venueId: theirs.id });
      expect(problemAt(response, 'venueId').code).toBe('unknown_venue');
      const mine = await newVenue();
      expectProblem(
        await send('POST', `/events/${eventId}/venue-requests`, { venueId: mine.id }, otherKey),
        404,
        'not_found',
      );
      expect(fieldsOf(await send('POST', '/events/bad/venue-requests?x=1', {}))).toEqual(['id', 'query.x']);
    });

    it('answers 409 for a venue asked twice, an archived venue, and an event no longer sourcing', async () => {
      const eventId = await newEvent();
      const venue = await newVenue();
      await addRequest(eventId, venue.id);
      expectProblem(
        await send('POST', `/events/${eventId}/venue-requests`, { venueId: venue.id }),
        409,
        'venue_already_requested',
      );
      const archived = await newVenue('Gone');
      await send('DELETE', `/venues/${archived.id}`);
      expectProblem(
        await send('POST', `/events/${eventId}/venue-requests`, { venueId: archived.id }),
        409,
        'venue_archived',
      );
      await changeEventStatus(t.deps, eventId, 'booked');
      expectProblem(
        await send('POST', `/events/${eventId}/venue-requests`, { venueId: randomUUID() }),
        409,
        'event_not_sourcing',
      );
    });

    it('refuses a 51st request, naming venueId', async () => {
      const eventId = await newEvent();
      for (let index = 0; index < 50; index++) await addRequest(eventId, (await newVenue(`V${index}`)).id);
      const response = await send('POST', `/events/${eventId}/venue-requests`, {
        venueId: (await newVenue()).id,
      });
      expect(problemAt(response, 'venueId').code).toBe('too_many');
    });
  });

  describe('reading requests', () => {
    it('lists oldest first and reads one, with its latest proposal and figures', async () => {
      const { eventId, requests, tokens } = await sentEvent(2);
      await submitVenueProposal(t.deps, tokens[1]!, PROPOSAL);
      const list = json(await send('GET', `/events/${eventId}/venue-requests`));
      // Oldest first: by createdAt, then by id for requests made in the same millisecond.
      const oldestFirst = [...requests]
        .sort((a, b) =>
          a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
        )
        .map((request) => request.id);
      expect(list.data.map((request: { id: string }) => request.id)).toEqual(oldestFirst);
      const one = json(await send('GET', `/events/${eventId}/venue-requests/${requests[1]!.id}`));
      expect(one).toMatchObject({ status: 'proposed', proposal: { revision: 1, totals: { total: 2000 } } });
      expect(one.proposal.budget).toEqual({ venue: { budgeted: 5000, proposed: 2000 } });
    });

    it('is a 404 for another organization, an unknown request, or a request of another event', async () => {
      const first = await sentEvent(1);
      const second = await sentEvent(1);
      const url = `/events/${first.eventId}/venue-requests/${first.requests[0]!.id}`;
      expectProblem(await send('GET', url, undefined, otherKey), 404, 'not_found');
      expectProblem(
        await send('GET', `/events/${first.eventId}/venue-requests`, undefined, otherKey),
        404,
        'not_found',
      );
      expectProblem(
        await send('GET', `/events/${second.eventId}/venue-requests/${first.requests[0]!.id}`),
        404,
        'not_found',
      );
      expectProblem(
        await send('GET', `/events/${first.eventId}/venue-requests/${randomUUID()}`),
        404,
        'not_found',
      );
      expect(fieldsOf(await send('GET', `/events/${first.eventId}/venue-requests/bad`))).toEqual([
        'requestId',
      ]);
    });
  });

  describe('DELETE …/venue-requests/{requestId}', () => {
    it('removes a shortlisted request (204) and withdraws an open one (200), telling its venue', async () => {
      const eventId = await newEvent();
      const venue = await newVenue();
      const shortlisted = await addRequest(eventId, venue.id);
      const removed = await send('DELETE', `/events/${eventId}/venue-requests/${shortlisted.id}`);
      expect(removed.statusCode).toBe(204);
      expectProblem(
        await send('GET', `/events/${eventId}/venue-requests/${shortlisted.id}`),
        404,
        'not_found',
      );

      const open = await sentEvent(1);
      const url = `/events/${open.eventId}/venue-requests/${open.requests[0]!.id}`;
      const withdrawn = await send('DELETE', url);
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(json(withdrawn).status).toBe('withdrawn');
      expect(await subjectsTo(open.venues[0]!.email)).toContainEqual(
        expect.stringMatching(/^Request withdrawn/),
      );
      expectProblem(await send('DELETE', url), 409, 'request_closed');
      expectProblem(await send('DELETE', url, undefined, otherKey), 404, 'not_found');
    });
  });

  describe('proposals', () => {
    it("takes a planner's proposal on the venue's behalf: 201 with its figures, newest first in the list", async () => {
      const { eventId, requests } = await sentEvent(1);
      const url = `/events/${eventId}/venue-requests/${requests[0]!.id}/proposals`;
      const first = await send('POST', url, PROPOSAL);
      expect(first.statusCode, first.body).toBe(201);
      expect(json(first)).toMatchObject({
        revision: 1,
        submittedBy: 'planner',
        currency: 'USD',
        holdOption: 'none',
        offeredDates: { startDate: '2090-05-04', endDate: '2090-05-05' },
        coverage: { requestedRoomNights: 10, coveredRoomNights: 10, percent: 100, shortfall: {} },
        attritionExposureAt80: null,
      });
      await send('POST', url, { ...PROPOSAL, meetingRoomRental: 700, attritionPercent: 5 });
      const list = json(await send('GET', url));
      expect(list.data.map((proposal: { revision: number }) => proposal.revision)).toEqual([2, 1]);
      expect(list.data[0].attritionExposureAt80).toBe(180);
      const event = json(await send('GET', `/events/${eventId}`));
      expect(event.status).toBe('proposals_received');
    });

    it('names every problem by its path, and refuses read-only fields', async () => {
      const { eventId, requests } = await sentEvent(1);
      const response = await send('POST', `/events/${eventId}/venue-requests/${requests[0]!.id}/proposals`, {
        validUntil: 'soon',
        rooms: { '2090-05-04': { Single: { count: -1 }, King: { count: 1, rate: 1 } } },
        roomTaxPercent: 101,
        totals: {},
      });
      expect(fieldsOf(response).sort()).toEqual([
        'roomTaxPercent',
        'rooms.2090-05-04.King',
        'rooms.2090-05-04.Single.count',
        'rooms.2090-05-04.Single.rate',
        'totals',
        'validUntil',
      ]);
    });

    it('answers 409 on the shortlist and once closed, before reading the body', async () => {
      const eventId = await newEvent();
      const request = await addRequest(eventId, (await newVenue()).id);
      const url = `/events/${eventId}/venue-requests/${request.id}/proposals`;
      expectProblem(await send('POST', url, { nonsense: true }), 409, 'request_not_sent');
      const closed = await sentEvent(1);
      const closedUrl = `/events/${closed.eventId}/venue-requests/${closed.requests[0]!.id}`;
      await send('DELETE', closedUrl);
      expectProblem(await send('POST', `${closedUrl}/proposals`, { nonsense: true }), 409, 'request_closed');
      expectProblem(await send('GET', `${closedUrl}/proposals`, undefined, otherKey), 404, 'not_found');
    });
  });

  describe('award and decline', () => {
    it('awards with or without a body: the event booked, the others closed, every venue told', async () => {
      const { eventId, requests, tokens, venues } = await sentEvent(3);
      await submitVenueProposal(t.deps, tokens[0]!, PROPOSAL);
      await submitVenueProposal(t.deps, tokens[1]!, PROPOSAL);
      const awarded = await send('POST', `/events/${eventId}/venue-requests/${requests[0]!.id}/award`);
      expect(awarded.statusCode, awarded.body).toBe(200);
      expect(json(awarded)).toMatchObject({ status: 'awarded', decision: { reason: null, comment: null } });
      const statuses = Object.fromEntries(
        json(await send('GET', `/events/${eventId}/venue-requests`)).data.map(
          (request: { id: string; status: string }) => [request.id, request.status],
        ),
      );
      expect(statuses).toEqual({
        [requests[0]!.id]: 'awarded',
        [requests[1]!.id]: 'declined',
        [requests[2]!.id]: 'no_response',
      });
      expect(json(await send('GET', `/events/${eventId}`)).status).toBe('booked');
      for (const venue of venues) {
        expect((await t.deps.store.mail.list({ to: venue.email, limit: 5 })).length).toBe(2);
      }
      expectProblem(
        await send('POST', `/events/${eventId}/venue-requests/${requests[1]!.id}/award`, {}),
        409,
        'event_not_sourcing',
      );
    });

    it('lets one of two simultaneous awards win and answers the other with a 409', async () => {
      const { eventId, requests, tokens } = await sentEvent(2);
      await submitVenueProposal(t.deps, tokens[0]!, PROPOSAL);
      await submitVenueProposal(t.deps, tokens[1]!, PROPOSAL);
      const [first, second] = await Promise.all(
        requests.map((request) => send('POST', `/events/${eventId}/venue-requests/${request.id}/award`, {})),
      );
      expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 409]);
      const statuses = json(await send('GET', `/events/${eventId}/venue-requests`)).data.map(
        (request: { status: string }) => request.status,
      );
      expect(statuses.filter((status: string) => status === 'awarded')).toHaveLength(1);
    });

    it('refuses an award of a request without a proposal, an expired proposal, and a bad body', async () => {
      const { eventId, requests, tokens } = await sentEvent(2);
      const url = (index: number) => `/events/${eventId}/venue-requests/${requests[index]!.id}`;
      expectProblem(await send('POST', `${url(0)}/award`, {}), 409, 'request_not_proposed');
      await submitVenueProposal(t.deps, tokens[0]!, { ...PROPOSAL, validUntil: '2090-04-15' });
      expect(fieldsOf(await send('POST', `${url(0)}/award`, { comment: 5, reason: 'x' })).sort()).toEqual([
        'comment',
        'reason',
      ]);
      expect(fieldsOf(await send('POST', `${url(0)}/award`, '[]'))).toEqual(['body']);
      expectProblem(await send('POST', `${url(0)}/award`, {}, otherKey), 404, 'not_found');
      // Expiry is judged when awarding: a clock past validUntil is simulated by the domain's own tests.
      expect(json(await send('GET', url(0))).status).toBe('proposed');
    });

    it('declines with a reason (comment required for other), 409 without a proposal', async () => {
      const { eventId, requests, tokens, venues } = await sentEvent(1);
      const url = `/events/${eventId}/venue-requests/${requests[0]!.id}/decline`;
      expectProblem(await send('POST', url, { reason: 'late_response' }), 409, 'request_not_proposed');
      await submitVenueProposal(t.deps, tokens[0]!, PROPOSAL);
      expect(fieldsOf(await send('POST', url, {}))).toEqual(['reason']);
      expect(fieldsOf(await send('POST', url, { reason: 'other' }))).toEqual(['comment']);
      expect(fieldsOf(await send('POST', url, { reason: 'too_cheap' }))).toEqual(['reason']);
      const declined = await send('POST', url, { reason: 'other', comment: 'Changed plans' });
      expect(declined.statusCode, declined.body).toBe(200);
      expect(json(declined)).toMatchObject({
        status: 'declined',
        decision: { reason: 'other', comment: 'Changed plans' },
      });
      expect(await subjectsTo(venues[0]!.email)).toContainEqual(expect.stringMatching(/^Proposal declined/));
      expectProblem(await send('POST', url, { reason: 'late_response' }), 409, 'request_not_proposed');
    });
  });

  describe('the change feed and webhooks', () => {
    it('carries each step as a change with its data, and endpoints accept the new types', async () => {
      const { eventId, requests } = await sentEvent(1);
      const revisions = json(await send('GET', `/events/${eventId}/revisions?limit=5`)).data;
      expect(revisions[0]).toMatchObject({
        type: 'venue_request.sent',
        changedFields: [],
        diff: [],
        data: { requestId: requests[0]!.id, venueId: requests[0]!.venue.id },
        actor: { type: 'operator' },
      });
      const endpoint = await send('POST', '/webhook-endpoints', {
        url: 'https://hooks.example.com/rfp',
        enabledEvents: ['venue_request.sent', 'proposal.submitted', 'venue_request.awarded'],
      });
      expect(endpoint.statusCode, endpoint.body).toBe(201);
    });
  });
});
