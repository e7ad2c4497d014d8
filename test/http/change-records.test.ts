/**
 * D17's "exactly one change record per committed change", through every way an event is changed: the
 * API, each dashboard form and move, and the operator's command line. A change that changes nothing
 * records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/app/people.js';
import type { ChangeType } from '../../src/domain/changes.js';
import { runJson, SPAWN_TIMEOUT_MS } from '../cli/run-cli.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { asPerson, shortlistVenue } from '../helpers/sourcing.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { browserFor, formFields, PASSWORD } from './form-browser.js';
import { type Client, clientFor, createEvent } from './requests.js';

/** Enough to pass the pre-send checklist (D16). */
const READY = {
  formattedLocations: [{ city: 'Lisbon', country: 'PT' }],
  numPeople: 30,
  meetingRoomDates: [{ startDate: '2026-05-04', endDate: '2026-05-06' }],
  decisionDeadline: '2026-04-01',
};

describe('change records of every way to change an event', { timeout: SPAWN_TIMEOUT_MS }, () => {
  let t: TestApp;
  let api: Client;
  beforeAll(async () => {
    t = await startTestApp();
    api = clientFor(t);
    await setPassword(t.deps, t.demo.userId, PASSWORD);
    await setPassword(t.deps, t.demo.approverId, PASSWORD);
    await t.deps.store.places.replaceAll(SAMPLE_PLACES, 'sample@1');
  });
  afterAll(() => t.close());

  const plannerRequester = () => asPerson({ organizationId: t.demo.organizationId, userId: t.demo.userId });

  /** The event's change records, oldest first. */
  const recorded = async (id: string): Promise<ChangeType[]> =>
    (await t.deps.store.events.changes(t.demo.organizationId, id, { limit: 100 }))
      .map((change) => change.type)
      .reverse();

  /** Runs `change` and expects exactly `types` recorded for the event by it: none for a change that changes nothing. */
  async function expectRecords(id: string, change: () => Promise<unknown>, types: ChangeType[]) {
    const before = await recorded(id);
    await change();
    expect(await recorded(id)).toEqual([...before, ...types]);
  }

  const eventIdIn = (location: unknown) => /^\/app\/events\/([0-9a-f-]{36})\b/.exec(String(location))![1]!;

  it('records one change per API create and PATCH, and none for a PATCH that changes nothing', async () => {
    const id = await createEvent(api, READY);
    expect(await recorded(id)).toEqual(['event.created']);
    const patch = async (body: Record<string, unknown>) => {
      const response = await api.patch(id, body);
      expect(response.statusCode, response.body).toBe(200);
    };
    await expectRecords(id, () => patch({ numPeople: 31 }), ['event.updated']);
    await expectRecords(id, () => patch({ numPeople: 31 }), []);
    // The locations as first sent, without the place each resolved to: the same places again.
    expect((await api.get(id)).json().formattedLocations[0].place_id).toBe('geonames:2267057');
    await expectRecords(id, () => patch({ formattedLocations: READY.formattedLocations }), []);
    await expectRecords(id, () => patch({ formattedLocations: [{ city: 'Paris', country: 'FR' }] }), [
      'event.updated',
    ]);
  });

  it('records one change per dashboard form, move and duplicate, and per operator status change', async () => {
    const planner = browserFor(t);
    await planner.signIn();
    await planner.get('/app/events/new');
    const created = await planner.post('/app/events/new', {
      name: 'Every path',
      numPeople: '30',
      'formattedLocations[0].city': 'Lisbon',
      'formattedLocations[0].country': 'PT',
      'meetingRoomDates[0].startDate': '2026-05-04',
      'meetingRoomDates[0].endDate': '2026-05-06',
      decisionDeadline: '2026-04-01',
    });
    expect(created.statusCode, created.body).toBe(303);
    const id = eventIdIn(created.headers.location);
    expect(await recorded(id)).toEqual(['event.created']);
    const page = `/app/events/${id}`;

    /** Submits the form posting to `action` as the page shows it, with `changes` typed in. */
    const submit = async (pageUrl: string, action: string, changes: Record<string, string> = {}) => {
      const form = formFields((await planner.get(pageUrl)).body, action).filter(
        ([name]) => !(name in changes),
      );
      const response = await planner.post(action, [...form, ...Object.entries(changes)]);
      expect(response.statusCode, response.body).toBe(303);
      return response;
    };

    // Edit details: the form saved as it is (its cities resolve to the same places again), then a change.
    await expectRecords(id, () => submit(`${page}/edit`, `${page}/edit`), []);
    await expectRecords(id, () => submit(`${page}/edit`, `${page}/edit`, { otherNotes: 'Quiet rooms' }), [
      'event.updated',
    ]);

    // The room block: a night of rooms, then copying it to the next two nights: the copy is shown in the
    // grid and records nothing; saving the grid records it.
    const rooms = `${page}/rooms`;
    await expectRecords(id, () => submit(rooms, rooms, { 'accommodations.2026-05-04.Single': '12' }), [
      'event.updated',
    ]);
    let copied = '';
    await expectRecords(id, async () => {
      const grid = formFields((await planner.get(rooms)).body, rooms).filter(
        ([name]) => !name.startsWith('copy'),
      );
      const response = await planner.post(`${rooms}/copy`, [
        ...grid,
        ['copyNight', '2026-05-04'],
        ['copyFrom', '2026-05-05'],
        ['copyTo', '2026-05-06'],
      ]);
      expect(response.statusCode, response.body).toBe(200);
      copied = response.body;
    }, []);
    await expectRecords(id, async () => {
      const response = await planner.post(rooms, formFields(copied, rooms));
      expect(response.statusCode, response.body).toBe(303);
    }, ['event.updated']);

    // The agenda: a session added, edited, and removed.
    const agenda = `${page}/agenda`;
    await expectRecords(
      id,
      () =>
        submit(agenda, agenda, {
          title: 'Opening',
          dates: '2026-05-04',
          startTime: '09:00',
          endTime: '10:00',
        }),
      ['event.updated'],
    );
    const sessionId = (await api.get(id)).json().agenda[0].id as string;
    const session = `${agenda}/${sessionId}`;
    await expectRecords(id, () => submit(session, session, { title: 'Welcome' }), ['event.updated']);
    await expectRecords(id, () => submit(agenda, `${session}/remove`), ['event.updated']);
    expect(await recorded(id)).toHaveLength(7);
    expect((await api.get(id)).json().agenda).toEqual([]);

    // Duplicate: a new event with its own creation record; the original records nothing.
    let copy = '';
    await expectRecords(id, async () => {
      copy = eventIdIn((await submit(page, `${page}/duplicate`)).headers.location);
    }, []);
    expect(await recorded(copy)).toEqual(['event.created']);

    // Every status move (D16), by the creator or the approver.
    const approver = browserFor(t);
    await approver.signIn('approver@example.com');
    const move = async (
      who: typeof planner,
      eventId: string,
      name: string,
      note: Record<string, string> = {},
    ) => {
      const url = `/app/events/${eventId}/moves/${name}`;
      await who.get(url);
      const response = await who.post(url, note);
      expect(response.statusCode, response.body).toBe(303);
    };
    const moved = ['event.status_changed'] as ChangeType[];
    // A venue on the shortlist (D16's checklist, D21): shortlisting records nothing, sending one record per venue.
    await expectRecords(id, () => shortlistVenue(t.deps, plannerRequester(), id), []);
    await expectRecords(id, () => move(planner, id, 'request_approval'), moved);
    await expectRecords(id, () => move(planner, id, 'return_to_draft', { comment: 'Not yet' }), moved);
    await expectRecords(id, () => move(planner, id, 'request_approval'), moved);
    await expectRecords(id, () => move(approver, id, 'approve_and_send'), [...moved, 'venue_request.sent']);
    await expectRecords(id, () => move(planner, id, 'cancel', { reason: 'Venue closed' }), [
      ...moved,
      'venue_request.withdrawn',
    ]);
    await expectRecords(id, () => move(planner, id, 'reopen'), moved);
    await expectRecords(id, () => move(planner, id, 'proposals_received'), moved);
    await expectRecords(id, () => move(planner, id, 'mark_booked'), moved);
    await expectRecords(id, () => move(planner, id, 'mark_completed'), moved);
    await shortlistVenue(t.deps, plannerRequester(), copy);
    await expectRecords(copy, () => move(approver, copy, 'send_to_venues'), [...moved, 'venue_request.sent']);

    // The operator's `event status`: one record, and none for the status the event already has.
    const status = (to: string) =>
      runJson(['event', 'status', '--event', id, '--to', to], { DATABASE_URL: t.databaseUrl });
    await expectRecords(id, () => status('booked'), moved);
    await expectRecords(id, () => status('booked'), []);
    expect((await api.get(id)).json().status).toBe('booked');
  });
});
