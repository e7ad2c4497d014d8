import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeOnEveryBackend } from './backends.js';

describeOnEveryBackend('conditional requests (RFC 9110)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  });
  afterAll(() => t.close());

  const headers = (extra: Record<string, string> = {}) => ({ 'x-api-key': t.key, ...extra });
  const create = async (body: Record<string, unknown> = {}) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/events',
      headers: headers(),
      payload: { name: 'Board offsite', meetingRoomDates: [{ startDate: '2027-05-01', endDate: '2027-05-03' }], ...body },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const get = (id: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/v1/events/${id}`, headers: headers(extra) });
  const patch = (id: string, payload: unknown, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'PATCH', url: `/v1/events/${id}`, headers: headers(extra), payload: payload as object });

  it('sends a strong ETag on GET, and the PATCH that produced a state sends the same one', async () => {
    const id = await create();
    const read = await get(id);
    expect(read.headers.etag).toMatch(/^"[^"]+"$/);
    const patched = await patch(id, { numPeople: 40 });
    expect(patched.statusCode).toBe(200);
    expect(patched.headers.etag).not.toBe(read.headers.etag);
    expect((await get(id)).headers.etag).toBe(patched.headers.etag);
  });

  it('changes the ETag whenever the event changes, also when an operator changes its status', async () => {
    const id = await create();
    const before = (await get(id)).headers.etag;
    await changeEventStatus(t.deps, id, 'wait_for_proposals');
    const after = await get(id);
    expect(after.json().status).toBe('wait_for_proposals');
    expect(after.headers.etag).not.toBe(before);
  });

  it('keeps the ETag when a PATCH changes nothing', async () => {
    const id = await create({ numPeople: 10 });
    const read = await get(id);
    const patched = await patch(id, { numPeople: 10 }, { 'if-match': read.headers.etag as string });
    expect(patched.statusCode).toBe(200);
    expect(patched.headers.etag).toBe(read.headers.etag);
  });

  it('answers GET with 304, the ETag and no body while If-None-Match lists the current ETag', async () => {
    const id = await create();
    const etag = (await get(id)).headers.etag as string;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const response = await get(id, { 'if-none-match': ifNoneMatch });
      expect(response.statusCode, ifNoneMatch).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['x-request-id']).toBeDefined();
    }
  });

  it('answers GET with 200 and the event once it has changed since the ETag in If-None-Match', async () => {
    const id = await create();
    const etag = (await get(id)).headers.etag as string;
    await patch(id, { otherNotes: 'changed' });
    const response = await get(id, { 'if-none-match': etag });
    expect(response.statusCode).toBe(200);
    expect(response.json().otherNotes).toBe('changed');
  });

  it('applies a PATCH whose If-Match lists the current ETag, or is *', async () => {
    const id = await create();
    const etag = (await get(id)).headers.etag as string;
    const first = await patch(id, { numPeople: 1 }, { 'if-match': `"other", ${etag}` });
    expect(first.statusCode, first.body).toBe(200);
    const second = await patch(id, { numPeople: 2 }, { 'if-match': '*' });
    expect(second.statusCode, second.body).toBe(200);
    expect((await get(id)).json().numPeople).toBe(2);
  });

  it('refuses a PATCH with a stale If-Match with 412 precondition_failed, writing nothing', async () => {
    const id = await create({ numPeople: 5 });
    const stale = (await get(id)).headers.etag as string;
    await patch(id, { numPeople: 6 });
    const before = await get(id);
    const refused = await patch(id, { numPeople: 7 }, { 'if-match': stale });
    expect(refused.statusCode).toBe(412);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 412, code: 'precondition_failed' });
    const after = await get(id);
    expect(after.body).toBe(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('never matches a weak tag in If-Match (strong comparison)', async () => {
    const id = await create();
    const etag = (await get(id)).headers.etag as string;
    expect((await patch(id, { numPeople: 3 }, { 'if-match': `W/${etag}` })).statusCode).toBe(412);
  });

  it('refuses a malformed If-Match or If-None-Match with 400 naming the header', async () => {
    const id = await create();
    const badMatch = await patch(id, { numPeople: 3 }, { 'if-match': 'no-quotes' });
    expect(badMatch.statusCode).toBe(400);
    expect(badMatch.json().errors).toEqual([expect.objectContaining({ field: 'header.if-match' })]);
    const badNoneMatch = await get(id, { 'if-none-match': '"unterminated' });
    expect(badNoneMatch.statusCode).toBe(400);
    expect(badNoneMatch.json().errors).toEqual([expect.objectContaining({ field: 'header.if-none-match' })]);
  });

  it('keeps the order of checks: 404 and the cancelled 409 come before 412, and 412 before field problems', async () => {
    const stale = '"0000000000000000000000000000000a"';
    const missing = await patch('7d3c2f9e-0000-4000-8000-000000000000', { numPeople: 1 }, { 'if-match': stale });
    expect(missing.statusCode).toBe(404);

    const cancelled = await create();
    await changeEventStatus(t.deps, cancelled, 'cancelled');
    const refused = await patch(cancelled, { numPeople: 1 }, { 'if-match': stale });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('event_cancelled');

    const id = await create();
    const invalid = await patch(id, { numPeople: -1, unknown: true }, { 'if-match': stale });
    expect(invalid.statusCode).toBe(412);
  });

  it('lets only one of two concurrent PATCHes holding the same ETag win', async () => {
    const id = await create();
    const etag = (await get(id)).headers.etag as string;
    const results = await Promise.all([
      patch(id, { otherNotes: 'planner A' }, { 'if-match': etag }),
      patch(id, { otherNotes: 'planner B' }, { 'if-match': etag }),
    ]);
    const statuses = results.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 412]);
    const winner = results.find((response) => response.statusCode === 200)!;
    const final = await get(id);
    expect(final.json().otherNotes).toBe(winner.json().otherNotes);
    expect(final.headers.etag).toBe(winner.headers.etag);
  });
});
