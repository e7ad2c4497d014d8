/**
 * Venues' questions and the planners' answers (D27) through the real app: a venue asks on its page,
 * the people granted are mailed, the API lists and answers, an answer shared with all reaches every
 * open request's page and mail without naming the asker, one shared with the asker reaches it alone,
 * and every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { askVenueQuestion, readVenueRequest, turnDownVenueRequest } from '../../src/app/venue-portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { callApi, READY_EVENT, type SentRequest, sendRequests } from '../helpers/venue-link.js';

const READY = READY_EVENT;

describe('questions from venues (D27)', () => {
  let t: TestApp;
  let otherKey: string;
  let venues: SentRequest[];
  let eventId: string;
  beforeAll(async () => {
    t = await startTestApp();
    otherKey = (await createDemo(t.deps)).key;
    venues = await sendRequests(t, READY, ['Casa do Rio', 'Hotel Sol', 'Quinta Nova']);
    eventId = venues[0]!.eventId;
    await turnDownVenueRequest(t.deps, venues[2]!.token, { reason: 'dates_unavailable' });
  });
  afterAll(() => t.close());

  const list = () => callApi(t, 'GET', `/v1/events/${eventId}/questions`);
  const answer = (questionId: string, body: unknown) =>
    callApi(t, 'POST', `/v1/events/${eventId}/questions/${questionId}/answer`, body);
  const mailsTo = (email: string, subject: string) =>
    t.deps.store.mail
      .list({ to: email, limit: 30 })
      .then((mails) => mails.filter((mail) => mail.subject.startsWith(subject)));

  it('takes a venue’s question, records it as the venue’s, and tells the people granted', async () => {
    const page = await askVenueQuestion(t.deps, venues[0]!.token, {
      text: '  Can the breakout rooms be on <b>another</b> floor?\r\nBcc: x@example.com  ',
    });
    expect(page.questions).toEqual([
      expect.objectContaining({ own: true, answer: null, text: expect.stringMatching(/^Can the breakout/) }),
    ]);
    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.json.data).toEqual([
      {
        id: expect.any(String),
        requestId: venues[0]!.requestId,
        venue: { id: venues[0]!.venue.id, name: 'Casa do Rio' },
        text: 'Can the breakout rooms be on <b>another</b> floor?\r\nBcc: x@example.com',
        askedAt: expect.any(String),
        answer: null,
      },
    ]);
    const feed = await callApi(t, 'GET', `/v1/events/${eventId}/revisions?limit=1`);
    expect(feed.json.data[0]).toMatchObject({
      type: 'question.asked',
      actor: { type: 'venue', venueId: venues[0]!.venue.id },
      changedFields: [],
      data: { questionId: listed.json.data[0].id, requestId: venues[0]!.requestId },
    });
    const told = (await t.deps.store.mail.list({ limit: 50 })).filter(
      (mail) => mail.subject === 'Question from Casa do Rio: Offsite',
    );
    expect(told.length).toBeGreaterThan(0);
    for (const mail of told) {
      expect(mail.text).toContain('Can the breakout rooms be on <b>another</b> floor?');
      expect(mail.html).toContain('&lt;b&gt;another&lt;/b&gt;');
      expect(mail.html).not.toContain('<b>another</b>');
    }
    // Another venue does not see an unanswered question, nor who asked.
    const other = await readVenueRequest(t.deps, venues[1]!.token);
    expect(other.questions).toEqual([]);
  });

  it('refuses a question that is empty, too long or not text, and one from a closed request', async () => {
    for (const body of [
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(1001) },
      { text: 12 },
      {},
      { text: 'ok', x: 1 },
    ]) {
      await expect(askVenueQuestion(t.deps, venues[1]!.token, body)).rejects.toMatchObject({
        code: 'validation_failed',
      });
    }
    await expect(askVenueQuestion(t.deps, venues[2]!.token, { text: 'Still?' })).rejects.toMatchObject({
      code: 'request_closed',
    });
    expect((await list()).json.data).toHaveLength(1);
  });

  it('answers to all: every open request’s page and mail has it, without naming the asker', async () => {
    const [question] = (await list()).json.data;
    const bad = await answer(question.id, { text: 'Yes', sharedWith: 'everyone' });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((problem: { field: string }) => problem.field)).toEqual(['sharedWith']);
    const long = await answer(question.id, { text: 'x'.repeat(1001), sharedWith: 'all' });
    expect(long.json.errors.map((problem: { field: string }) => problem.field)).toEqual(['text']);

    const answered = await answer(question.id, { text: 'Yes, the second floor.', sharedWith: 'all' });
    expect(answered.status, JSON.stringify(answered.json)).toBe(200);
    expect(answered.json.answer).toMatchObject({
      text: 'Yes, the second floor.',
      sharedWith: 'all',
      answeredBy: { type: 'api_key' },
    });
    const other = await readVenueRequest(t.deps, venues[1]!.token);
    expect(other.questions).toEqual([
      {
        id: question.id,
        text: question.text,
        askedAt: question.askedAt,
        own: false,
        answer: { text: 'Yes, the second floor.', answeredAt: expect.any(String) },
      },
    ]);
    expect(JSON.stringify(other)).not.toContain('Casa do Rio');
    const [toOther] = await mailsTo(venues[1]!.venue.email, 'Answer to a question');
    expect(toOther!.text).toContain('Yes, the second floor.');
    expect(toOther!.text).not.toContain('Casa do Rio');
    const token = /\/rfp\/(\w+)/.exec(toOther!.text ?? '')![1]!;
    expect((await t.app.inject({ url: `/rfp/${token}` })).statusCode).toBe(200);
    expect(await mailsTo(venues[0]!.venue.email, 'Answer to a question')).toHaveLength(1);
    // The closed request is not told.
    expect(await mailsTo(venues[2]!.venue.email, 'Answer to a question')).toEqual([]);
    const feed = await callApi(t, 'GET', `/v1/events/${eventId}/revisions?limit=1`);
    expect(feed.json.data[0]).toMatchObject({ type: 'question.answered', data: { sharedWith: 'all' } });
  });

  it('answers to the asker alone: only its page and mail have it', async () => {
    await askVenueQuestion(t.deps, venues[1]!.token, { text: 'Is parking free?' });
    const question = (await list()).json.data.find(
      (one: { text: string }) => one.text === 'Is parking free?',
    );
    expect((await answer(question.id, { text: 'For you, yes.', sharedWith: 'asker' })).status).toBe(200);
    const asker = await readVenueRequest(t.deps, venues[1]!.token);
    expect(asker.questions.find((one) => one.id === question.id)?.answer?.text).toBe('For you, yes.');
    const first = await readVenueRequest(t.deps, venues[0]!.token);
    expect(first.questions.map((one) => one.id)).not.toContain(question.id);
    expect(
      (await mailsTo(venues[0]!.venue.email, 'Answer to a question')).map((mail) => mail.text).join(''),
    ).not.toContain('For you, yes.');
  });

  it('answers 404 for another organization, an unknown question or a malformed id, and 409 once booked', async () => {
    const [question] = (await list()).json.data;
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/v1/events/${eventId}/questions`,
      headers: { 'x-api-key': otherKey },
    });
    expect(theirs.statusCode).toBe(404);
    const unknown = await answer('00000000-0000-4000-8000-000000000000', { text: 'x', sharedWith: 'all' });
    expect(unknown.status).toBe(404);
    expect((await answer('not-a-uuid', { text: 'x', sharedWith: 'all' })).status).toBe(400);
    await changeEventStatus(t.deps, eventId, 'booked');
    const booked = await answer(question.id, { text: 'Again', sharedWith: 'all' });
    expect(booked.status).toBe(409);
    expect(booked.json.code).toBe('event_not_sourcing');
  });
});
