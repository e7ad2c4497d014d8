/** Small request helpers for the HTTP tests: every call goes through the real app with `inject`. */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';

export type Response = LightMyRequestResponse;

export interface Client {
  list(query?: string): Promise<Response>;
  create(body: unknown): Promise<Response>;
  get(id: string): Promise<Response>;
  patch(id: string, body: unknown, contentType?: string): Promise<Response>;
  /** Sends `payload` as raw text, exactly as given. */
  raw(options: InjectOptions): Promise<Response>;
}

/** A client that sends `key` in x-api-key, or no key at all when `key` is null. */
export function clientFor(t: TestApp, key: string | null = t.key): Client {
  const auth: Record<string, string> = key === null ? {} : { 'x-api-key': key };
  const send = (options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...auth, ...(options.headers as Record<string, string>) } });
  const jsonBody = (body: unknown, contentType = 'application/json') => ({
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    list: (query = '') => send({ method: 'GET', url: `/v1/events${query ? `?${query}` : ''}` }),
    create: (body) => send({ method: 'POST', url: '/v1/events', ...jsonBody(body) }),
    get: (id) => send({ method: 'GET', url: `/v1/events/${id}` }),
    patch: (id, body, contentType) =>
      send({ method: 'PATCH', url: `/v1/events/${id}`, ...jsonBody(body, contentType) }),
    raw: send,
  };
}

/** Creates an event and returns its id. */
export async function createEvent(client: Client, body: Record<string, unknown> = {}): Promise<string> {
  const response = await client.create({ name: 'Sales kickoff', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** A session for `add`, running on the given days. */
export function session(title: string, dates: string[], extra: Record<string, unknown> = {}) {
  return { title, dates, startTime: '09:00', endTime: '10:30', ...extra };
}

/** A realistic event body, every writable field set. */
export function fullEventBody() {
  return {
    name: 'Regional summit',
    formattedLocations: [
      { city: 'Lisbon', country: 'Portugal' },
      { city: 'Austin', state: 'TX', country: 'USA' },
    ],
    numPeople: 120,
    budgetBreakdown: { venue: 25000, fb: 8000.5 },
    flexibility: 'A week either way',
    decisionDeadline: '2026-03-01T17:00:00Z',
    accommodations: { '2026-05-01': { Single: 40, Double: 10 }, '2026-05-02': { Single: 38 } },
    meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
    numMeetingRoomsNeeded: 3,
    foodBeverageRequirements: 'Vegetarian options',
    meetingRooms: 'One plenary room, two breakouts',
    otherNotes: 'Near the airport',
    notesForVenue: 'Flexible on room layout',
    decisionFactors: ['Price', 'Other'],
    decisionFactorOtherText: 'Sustainability',
    additionalServices: ['Airport transfers'],
    agenda: [session('Opening plenary', ['2026-05-01'], { capacity: 120, roomType: 'Theatre' })],
  };
}

/** The RFC 9457 problem body every error carries (D4), checked field by field. */
export function expectProblem(response: Response, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(body).toMatchObject({ status, code });
  expect(typeof body.type).toBe('string');
  expect(body.type.length).toBeGreaterThan(0);
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body as {
    errors?: Array<{ field: string; code: string; message: string }>;
    orphanedSessions?: unknown;
    [key: string]: unknown;
  };
}

/** The fields named by a 400's `errors`, in order. */
export function fieldsOf(response: Response): string[] {
  const body = expectProblem(response, 400, 'validation_failed');
  expect(Array.isArray(body.errors)).toBe(true);
  for (const problem of body.errors!) {
    expect(Object.keys(problem).sort()).toEqual(['code', 'field', 'message']);
    expect(problem.message.length).toBeGreaterThan(0);
  }
  return body.errors!.map((problem) => problem.field);
}

/** The problem for one field of a 400. */
export function problemAt(response: Response, field: string) {
  const body = expectProblem(response, 400, 'validation_failed');
  const problem = body.errors!.find((entry) => entry.field === field);
  expect(problem, `no problem for ${field} in ${response.body}`).toBeDefined();
  return problem!;
}
