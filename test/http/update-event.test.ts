import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type Client,
  clientFor,
  createEvent,
  expectProblem,
  fieldsOf,
  fullEventBody,
  problemAt,
  type Response,
  session,
} from './requests.js';

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
});
afterAll(() => t.close());

const OVER_ONE_MIB = JSON.stringify({ otherNotes: 'x'.repeat(1024 * 1024) });

function raw(id: string, payload: string, contentType = 'application/json', key: string | null = t.key) {
  return clientFor(t, key).raw({
    method: 'PATCH',
    url: `/v1/events/${id}`,
    headers: { 'content-type': contentType },
    payload,
  });
}

/** Creates an event with a two-day agenda inside May 1–3 and returns its id and session ids. */
async function eventWithAgenda() {
  const id = await createEvent(api, {
    name: 'Agenda event',
    meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
    agenda: [session('Keynote', ['2026-05-01', '2026-05-02']), session('Workshop', ['2026-05-03'])],
  });
  const agenda = (await api.get(id)).json().agenda as Array<{ id: string; title: string }>;
  return { id, keynote: agenda[0]!.id, workshop: agenda[1]!.id };
}

/** Runs `change` and asserts the event reads back byte for byte as before. */
async function expectUnchanged(id: string, change: () => Promise<Response>): Promise<Response> {
  const before = await api.get(id);
  expect(before.statusCode).toBe(200);
  const response = await change();
  const after = await api.get(id);
  expect(after.body).toBe(before.body);
  expect(after.headers.etag).toBe(before.headers.etag);
  return response;
}

describe('PATCH /v1/events/{id}: order of checks (D5)', () => {
  it('answers 401 before anything else', async () => {
    expectProblem(await raw('not-a-uuid', 'hello', 'text/plain', null), 401, 'unauthorized');
    expectProblem(await raw(randomUUID(), OVER_ONE_MIB, 'application/json', 'evp_bad'), 401, 'unauthorized');
  });

  it('answers 429 before looking at the id', async () => {
    const limited = await startTestApp({ rateLimitPerMinute: 1 });
    try {
      const client = clientFor(limited);
      expect((await client.list()).statusCode).toBe(200);
      expectProblem(await client.patch('not-a-uuid', { name: 'x' }), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('answers 400 naming id before reading the body', async () => {
    expect(problemAt(await raw('not-a-uuid', 'hello', 'text/plain'), 'id').code).toBe('invalid_format');
    problemAt(await raw('not-a-uuid', OVER_ONE_MIB), 'id');
    problemAt(await raw('not-a-uuid', '{"name":'), 'id');
    problemAt(await raw('not-a-uuid', '[]'), 'id');
  });

  it('answers 401 and 429 before looking at the query', async () => {
    expectProblem(await raw(`${randomUUID()}?foo=1`, '{}', 'application/json', null), 401, 'unauthorized');
    const limited = await startTestApp({ rateLimitPerMinute: 1 });
    try {
      const client = clientFor(limited);
      expect((await client.list()).statusCode).toBe(200);
      expectProblem(await client.patch(`${randomUUID()}?foo=1`, { name: 'x' }), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('reports a malformed id and an unknown query parameter in one 400', async () => {
    const response = await raw('not-a-uuid?foo=1', '{"name":"x"}');
    expect(fieldsOf(response)).toEqual(['id', 'query.foo']);
    expect(problemAt(response, 'query.foo').code).toBe('unknown_field');
  });

  it('answers 400 naming the unknown query parameter before reading the body or looking the event up', async () => {
    const unknown = randomUUID();
    expect(fieldsOf(await raw(`${unknown}?foo=1`, 'name=x', 'text/plain'))).toEqual(['query.foo']);
    expect(fieldsOf(await raw(`${unknown}?foo=1`, OVER_ONE_MIB))).toEqual(['query.foo']);
    expect(fieldsOf(await raw(`${unknown}?foo=1`, '{"name":'))).toEqual(['query.foo']);
    expect(fieldsOf(await raw(`${unknown}?foo=1`, '{"name":"x"}'))).toEqual(['query.foo']);
  });

  it('checks the body (415, 413, 400) before looking the event up', async () => {
    const unknown = randomUUID();
    expectProblem(await raw(unknown, 'name=x', 'text/plain'), 415, 'unsupported_media_type');
    expectProblem(await raw(unknown, OVER_ONE_MIB), 413, 'payload_too_large');
    expect(problemAt(await raw(unknown, '{"name":'), 'body').code).toBe('invalid_json');
    problemAt(await raw(unknown, '[1, 2]'), 'body');
    problemAt(await raw(unknown, ''), 'body');
  });

  it('answers 404 for an unknown event even when the fields are wrong', async () => {
    expectProblem(await api.patch(randomUUID(), { name: '', numPeople: -1 }), 404, 'not_found');
  });

  it('answers 409 event_cancelled for a cancelled event even when the fields are wrong', async () => {
    const id = await createEvent(api);
    await changeEventStatus(t.deps, id, 'cancelled');
    expectProblem(await api.patch(id, { name: '', colour: 'red' }), 409, 'event_cancelled');
  });

  it('reports field problems with 400 before orphaned sessions', async () => {
    const { id } = await eventWithAgenda();
    const response = await api.patch(id, {
      meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-01' }],
      numPeople: 'many',
    });
    expect(fieldsOf(response)).toEqual(['numPeople']);
  });

  it('answers 200 with the full details view when everything is right', async () => {
    const id = await createEvent(api);
    const response = await api.patch(id, { numPeople: 42 });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.etag).toBeDefined();
    expect(response.json()).toMatchObject({ id, numPeople: 42, name: 'Sales kickoff', status: 'draft' });
    expect(response.json()).toEqual((await api.get(id)).json());
  });
});

describe('PATCH: all or nothing', () => {
  it('lists every problem at once, stateless and stateful, and writes nothing', async () => {
    const { id, keynote } = await eventWithAgenda();
    const response = await expectUnchanged(id, () =>
      api.patch(id, {
        name: 'x'.repeat(101),
        numPeople: -1,
        otherNotes: 'é'.repeat(1001),
        budgetBreakdown: { venue: 1.234 },
        accommodations: { '2026-05-02': { Kingsize: 2 }, '2026-02-30': { Single: 1 } },
        meetingRoomDates: [{ startDate: '2026-05-03', endDate: '2026-05-01' }],
        decisionFactors: Array.from({ length: 51 }, (_, index) => `Factor ${index}`),
        flexibility: 7,
        location: 'Somewhere else',
        colour: 'red',
        agendaOperations: [
          { op: 'update', sessionId: keynote, session: { title: 'Renamed' } },
          { op: 'update', sessionId: randomUUID(), session: { title: 'Ghost' } },
          {
            op: 'add',
            session: { title: 'Late', dates: ['2026-05-01'], startTime: '9am', endTime: '10:00' },
          },
          { op: 'explode' },
        ],
      }),
    );
    const fields = fieldsOf(response);
    for (const field of [
      'name',
      'numPeople',
      'otherNotes',
      'budgetBreakdown.venue',
      'accommodations.2026-05-02.Kingsize',
      'accommodations.2026-02-30',
      'meetingRoomDates[0].endDate',
      'decisionFactors',
      'flexibility',
      'location',
      'colour',
      'agendaOperations[1].sessionId',
      'agendaOperations[2].session.startTime',
      'agendaOperations[3].op',
    ]) {
      expect(fields).toContain(field);
    }
    expect(problemAt(response, 'agendaOperations[1].sessionId').code).toBe('unknown_session');
    expect(problemAt(response, 'colour').code).toBe('unknown_field');
    expect(problemAt(response, 'location').code).toBe('read_only');
  });

  it('answers 409 with orphanedSessions exactly as the interface describes, and writes nothing', async () => {
    const { id, keynote, workshop } = await eventWithAgenda();
    const response = await expectUnchanged(id, () =>
      api.patch(id, {
        name: 'Renamed in the same request',
        meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-01' }],
      }),
    );
    const body = expectProblem(response, 409, 'agenda_sessions_orphaned');
    expect(body.errors).toBeUndefined();
    expect(body.orphanedSessions).toEqual([
      { sessionId: keynote, title: 'Keynote', droppedDates: ['2026-05-02'], fullyOrphaned: false },
      { sessionId: workshop, title: 'Workshop', droppedDates: ['2026-05-03'], fullyOrphaned: true },
    ]);
  });

  it('accepts moving the meeting-room dates and the affected sessions in one request', async () => {
    const { id, keynote, workshop } = await eventWithAgenda();
    const response = await api.patch(id, {
      meetingRoomDates: [{ startDate: '2026-06-01', endDate: '2026-06-02' }],
      agendaOperations: [
        { op: 'update', sessionId: keynote, session: { dates: ['2026-06-01', '2026-06-02'] } },
        { op: 'remove', sessionId: workshop },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const event = response.json();
    expect(event.agenda).toHaveLength(1);
    expect(event.agenda[0]).toMatchObject({ id: keynote, dates: ['2026-06-01', '2026-06-02'] });
    expect(event.eventDates).toEqual([{ startDate: '2026-06-01', endDate: '2026-06-02' }]);
  });

  it('refuses a session added outside the meeting-room dates with 400 on that operation', async () => {
    const { id } = await eventWithAgenda();
    const response = await expectUnchanged(id, () =>
      api.patch(id, { agendaOperations: [{ op: 'add', session: session('Day four', ['2026-05-04']) }] }),
    );
    expect(problemAt(response, 'agendaOperations[0].session.dates').code).toBe('outside_meeting_room_dates');
  });
});

describe('PATCH: merge semantics (D6)', () => {
  it('leaves omitted fields unchanged and clears fields sent as null', async () => {
    const id = await createEvent(api, fullEventBody());
    const response = await api.patch(id, {
      formattedLocations: null,
      numPeople: null,
      budgetBreakdown: null,
      flexibility: null,
      decisionDeadline: null,
      accommodations: null,
      numMeetingRoomsNeeded: null,
      otherNotes: null,
      decisionFactors: null,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Regional summit',
      formattedLocations: [],
      location: '',
      numPeople: 0,
      budgetBreakdown: {},
      flexibility: null,
      decisionDeadline: null,
      accommodations: {},
      numMeetingRoomsNeeded: null,
      otherNotes: null,
      decisionFactors: [],
      notesForVenue: 'Flexible on room layout',
      additionalServices: ['Airport transfers'],
      meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
      eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
    });
  });

  it('refuses to clear or empty the name', async () => {
    const id = await createEvent(api);
    problemAt(await api.patch(id, { name: null }), 'name');
    problemAt(await api.patch(id, { name: '   ' }), 'name');
  });

  it('merges objects key by key, removes keys set to null, and replaces arrays whole', async () => {
    const id = await createEvent(api, fullEventBody());
    const response = await api.patch(id, {
      budgetBreakdown: { fb: null, av: 1200 },
      accommodations: {
        '2026-05-01': { Double: null, Suite: 2 },
        '2026-05-02': null,
        '2026-05-04': { VIP: 1 },
      },
      additionalServices: ['Photographer'],
    });
    expect(response.statusCode, response.body).toBe(200);
    const event = response.json();
    expect(event.budgetBreakdown).toEqual({ venue: 25000, av: 1200 });
    expect(event.accommodations).toEqual({
      '2026-05-01': { Single: 40, Suite: 2 },
      '2026-05-04': { VIP: 1 },
    });
    expect(event.additionalServices).toEqual(['Photographer']);
    expect(event.eventDates).toEqual([{ startDate: '2026-05-01', endDate: '2026-05-04' }]);
  });

  it('refuses a changed read-only field with 400 naming it, and points agenda to agendaOperations', async () => {
    const id = await createEvent(api);
    for (const [field, value] of [
      ['id', randomUUID()],
      ['status', 'booked'],
      ['currency', 'EUR'],
      ['eventDates', [{ startDate: '2026-01-01', endDate: '2026-01-01' }]],
      ['createdAt', '2020-01-01T00:00:00.000Z'],
    ] as const) {
      expect(problemAt(await api.patch(id, { [field]: value }), field).code).toBe('read_only');
    }
    const agenda = problemAt(await api.patch(id, { agenda: [session('Sneaky', ['2026-05-01'])] }), 'agenda');
    expect(agenda.code).toBe('read_only');
    expect(agenda.message).toContain('agendaOperations');
  });

  it('accepts the read-only id and session ids in upper case, as ids in the path are', async () => {
    const { id, keynote, workshop } = await eventWithAgenda();
    const response = await api.patch(id.toUpperCase(), {
      id: id.toUpperCase(),
      agendaOperations: [
        { op: 'update', sessionId: keynote.toUpperCase(), session: { title: 'Opening keynote' } },
        { op: 'remove', sessionId: workshop.toUpperCase() },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().id).toBe(id);
    expect(response.json().agenda).toEqual([
      expect.objectContaining({ id: keynote, title: 'Opening keynote' }),
    ]);
  });

  it('refuses currency null on update as a change of a read-only field, and accepts it sent back', async () => {
    const id = await createEvent(api, { currency: 'EUR' });
    const response = await expectUnchanged(id, () => api.patch(id, { currency: null, numPeople: 9 }));
    expect(fieldsOf(response)).toEqual(['currency']);
    expect(problemAt(response, 'currency').code).toBe('read_only');
    expect((await api.patch(id, { currency: 'EUR', numPeople: 9 })).statusCode).toBe(200);
  });

  it('refuses agendaOperations null with 400 invalid_type: it is a list of operations, not a field', async () => {
    const { id } = await eventWithAgenda();
    const response = await expectUnchanged(id, () => api.patch(id, { agendaOperations: null, numPeople: 9 }));
    expect(fieldsOf(response)).toEqual(['agendaOperations']);
    expect(problemAt(response, 'agendaOperations').code).toBe('invalid_type');
    expect((await api.patch(id, { agendaOperations: [] })).statusCode).toBe(200);
  });

  it('ignores organizationId', async () => {
    const id = await createEvent(api);
    const response = await api.patch(id, { organizationId: randomUUID(), numPeople: 3 });
    expect(response.statusCode).toBe(200);
    expect(response.json().numPeople).toBe(3);
  });

  it('adds, updates and removes sessions by id, and refuses an unknown or twice-removed id', async () => {
    const { id, keynote, workshop } = await eventWithAgenda();
    const response = await api.patch(id, {
      agendaOperations: [
        { op: 'add', session: session('Lunch', ['2026-05-02'], { capacity: 80 }) },
        { op: 'update', sessionId: keynote, session: { title: 'Opening keynote', notes: 'Main hall' } },
        { op: 'remove', sessionId: workshop },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const agenda = response.json().agenda;
    expect(agenda.map((item: { title: string }) => item.title)).toEqual(['Opening keynote', 'Lunch']);
    expect(agenda[0]).toMatchObject({ id: keynote, notes: 'Main hall', dates: ['2026-05-01', '2026-05-02'] });

    const twice = await api.patch(id, {
      agendaOperations: [
        { op: 'remove', sessionId: keynote },
        { op: 'remove', sessionId: keynote },
      ],
    });
    expect(problemAt(twice, 'agendaOperations[1].sessionId').code).toBe('unknown_session');
    const withId = await api.patch(id, {
      agendaOperations: [{ op: 'add', session: { ...session('Mine', ['2026-05-01']), id: randomUUID() } }],
    });
    problemAt(withId, 'agendaOperations[0].session.id');
  });
});

describe('PATCH: read back and re-send', () => {
  it('accepts the whole GET body sent back unchanged, and changes nothing', async () => {
    const id = await createEvent(api, fullEventBody());
    const before = await api.get(id);
    const response = await api.patch(id, before.body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe(before.body);
    expect(response.json().updatedAt).toBe(before.json().updatedAt);
    expect((await api.get(id)).body).toBe(before.body);
  });

  it('accepts the same body as application/merge-patch+json, then applies a merge patch', async () => {
    const id = await createEvent(api, fullEventBody());
    const before = await api.get(id);
    const same = await api.patch(id, before.body, 'application/merge-patch+json');
    expect(same.statusCode, same.body).toBe(200);
    expect(same.body).toBe(before.body);

    const changed = await api.patch(
      id,
      { budgetBreakdown: { venue: null }, notesForVenue: 'Updated' },
      'application/merge-patch+json',
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().budgetBreakdown).toEqual({ fb: 8000.5 });
    expect(changed.json().notesForVenue).toBe('Updated');
    expect(changed.json().updatedAt).not.toBe(before.json().updatedAt);
  });

  it('accepts event_dates equal to the stored eventDates', async () => {
    const id = await createEvent(api, fullEventBody());
    const { eventDates } = (await api.get(id)).json();
    expect((await api.patch(id, { event_dates: eventDates })).statusCode).toBe(200);
  });
});

describe('PATCH: statuses (D2)', () => {
  it('refuses every update of a cancelled event with 409 and writes nothing; reopen restores the status', async () => {
    const id = await createEvent(api);
    await changeEventStatus(t.deps, id, 'wait_for_proposals');
    await changeEventStatus(t.deps, id, 'cancelled');
    const cancelled = await api.get(id);
    expect(cancelled.json().status).toBe('cancelled');

    for (const body of [{ numPeople: 10 }, {}, { name: null, colour: 'red' }]) {
      const response = await expectUnchanged(id, () => api.patch(id, body));
      const problem = expectProblem(response, 409, 'event_cancelled');
      expect(problem.orphanedSessions).toBeUndefined();
    }
    expect((await api.get(id)).statusCode).toBe(200);

    await changeEventStatus(t.deps, id, 'reopen');
    expect((await api.get(id)).json().status).toBe('wait_for_proposals');
    const response = await api.patch(id, { numPeople: 10 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'wait_for_proposals', numPeople: 10 });
  });

  it('accepts updates in every status but cancelled', async () => {
    const id = await createEvent(api);
    for (const status of [
      'wait_for_proposals',
      'proposals_received',
      'booked',
      'completed',
      'draft',
    ] as const) {
      await changeEventStatus(t.deps, id, status);
      const response = await api.patch(id, { otherNotes: `In ${status}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status, otherNotes: `In ${status}` });
    }
  });
});

describe('PATCH: concurrency', () => {
  it.each([2, 20])('keeps every session when %i requests each add one at the same time', async (count) => {
    const id = await createEvent(api, { eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-01' }] });
    const titles = Array.from({ length: count }, (_, index) => `Session ${index}`);
    const responses = await Promise.all(
      titles.map((title) =>
        api.patch(id, { agendaOperations: [{ op: 'add', session: session(title, ['2026-05-01']) }] }),
      ),
    );
    for (const response of responses) expect(response.statusCode).toBe(200);
    const agenda = (await api.get(id)).json().agenda as Array<{ id: string; title: string }>;
    expect(agenda.map((item) => item.title).sort()).toEqual([...titles].sort());
    expect(new Set(agenda.map((item) => item.id)).size).toBe(count);
  });
});

describe('PATCH: organizations', () => {
  it("answers 404 for another organization's event and leaves it untouched", async () => {
    const id = await createEvent(api);
    const other = clientFor(t, (await createDemo(t.deps)).key);
    const response = await expectUnchanged(id, () => other.patch(id, { name: 'Taken over' }));
    expectProblem(response, 404, 'not_found');
    // Even an invalid body reveals nothing about the event.
    expectProblem(await other.patch(id, { name: '' }), 404, 'not_found');
  });
});
