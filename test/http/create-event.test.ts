import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/app/api-keys.js';
import {
  addGroupMember,
  createDemo,
  createGroup,
  createUser,
  deactivateUser,
} from '../../src/app/organizations.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type Client,
  clientFor,
  createEvent,
  expectProblem,
  fieldsOf,
  fullEventBody,
  problemAt,
  session,
} from './requests.js';

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  api = clientFor(t);
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function total(client: Client = api): Promise<number> {
  return (await client.list()).json().total;
}

describe('POST /v1/events', () => {
  it('answers 201 with exactly { id, grantedTo } and a Location that reads the event back', async () => {
    const response = await api.create({ name: 'Sales kickoff' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['grantedTo', 'id']);
    expect(body.id).toMatch(UUID);
    expect(Number.isInteger(body.grantedTo)).toBe(true);
    expect(response.headers.location).toBe(`/v1/events/${body.id}`);
    const read = await api.raw({ method: 'GET', url: response.headers.location as string });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      id: body.id,
      name: 'Sales kickoff',
      status: 'draft',
      currency: 'USD',
    });
  });

  it('stores every writable field, derives location and eventDates, and gives sessions ids', async () => {
    const id = await createEvent(api, fullEventBody());
    const event = (await api.get(id)).json();
    expect(event).toMatchObject({
      name: 'Regional summit',
      location: 'Lisbon, Portugal; Austin, TX, USA',
      eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-03' }],
      formattedLocations: [
        { city: 'Lisbon', country: 'Portugal', formatted_address: 'Lisbon, Portugal' },
        { city: 'Austin', state: 'TX', country: 'USA', formatted_address: 'Austin, TX, USA' },
      ],
      numPeople: 120,
      budgetBreakdown: { venue: 25000, fb: 8000.5 },
      decisionFactors: ['Price', 'Other'],
    });
    expect(event.agenda).toHaveLength(1);
    expect(event.agenda[0].id).toMatch(UUID);
    expect(event.agenda[0]).toMatchObject({
      title: 'Opening plenary',
      dates: ['2026-05-01'],
      capacity: 120,
      avRequirements: [],
      notes: '',
    });
  });

  it('turns eventDates on create into the initial meetingRoomDates', async () => {
    const id = await createEvent(api, { eventDates: [{ startDate: '2026-09-01', endDate: '2026-09-02' }] });
    const event = (await api.get(id)).json();
    expect(event.meetingRoomDates).toEqual([{ startDate: '2026-09-01', endDate: '2026-09-02' }]);
    expect(event.eventDates).toEqual([{ startDate: '2026-09-01', endDate: '2026-09-02' }]);
  });

  it('counts the creator and the approvers of each of their groups, each person once', async () => {
    const { organizationId } = t.demo;
    const creator = await createUser(t.deps, { organizationId, email: 'creator@example.com' });
    const sharedApprover = await createUser(t.deps, { organizationId, email: 'shared@example.com' });
    const secondApprover = await createUser(t.deps, { organizationId, email: 'second@example.com' });
    const bystander = await createUser(t.deps, { organizationId, email: 'bystander@example.com' });
    const groupA = await createGroup(t.deps, { organizationId, name: 'A' });
    const groupB = await createGroup(t.deps, { organizationId, name: 'B' });
    const unrelated = await createGroup(t.deps, { organizationId, name: 'Unrelated' });
    await addGroupMember(t.deps, { groupId: groupA.id, userId: creator.id, role: 'member' });
    await addGroupMember(t.deps, { groupId: groupA.id, userId: sharedApprover.id, role: 'approver' });
    await addGroupMember(t.deps, { groupId: groupA.id, userId: bystander.id, role: 'member' });
    // The creator is an approver of B: still counted once.
    await addGroupMember(t.deps, { groupId: groupB.id, userId: creator.id, role: 'approver' });
    await addGroupMember(t.deps, { groupId: groupB.id, userId: sharedApprover.id, role: 'approver' });
    await addGroupMember(t.deps, { groupId: groupB.id, userId: secondApprover.id, role: 'approver' });
    await addGroupMember(t.deps, { groupId: unrelated.id, userId: bystander.id, role: 'approver' });
    const { key } = await issueKey(t.deps, creator.id);

    const response = await clientFor(t, key).create({ name: 'Board offsite' });
    expect(response.statusCode).toBe(201);
    expect(response.json().grantedTo).toBe(3);
  });

  it('counts the demo planner and their approver as 2', async () => {
    expect((await api.create({ name: 'Two people' })).json().grantedTo).toBe(2);
  });

  it('answers 201 with grantedTo 0 when the creator is in no group, and the event exists', async () => {
    const loner = await createUser(t.deps, {
      organizationId: t.demo.organizationId,
      email: 'loner@example.com',
    });
    const client = clientFor(t, (await issueKey(t.deps, loner.id)).key);
    const response = await client.create({ name: 'Invisible' });
    expect(response.statusCode).toBe(201);
    expect(response.json().grantedTo).toBe(0);
    const read = await client.get(response.json().id);
    expect(read.statusCode).toBe(200);
    expect(read.json().name).toBe('Invisible');
  });

  it('does not count an approver whose account is deactivated', async () => {
    const { organizationId } = t.demo;
    const planner = await createUser(t.deps, { organizationId, email: 'planner2@example.com' });
    const gone = await createUser(t.deps, { organizationId, email: 'gone@example.com' });
    const group = await createGroup(t.deps, { organizationId, name: 'With a leaver' });
    await addGroupMember(t.deps, { groupId: group.id, userId: planner.id, role: 'member' });
    await addGroupMember(t.deps, { groupId: group.id, userId: gone.id, role: 'approver' });
    await deactivateUser(t.deps, gone.id);
    const client = clientFor(t, (await issueKey(t.deps, planner.id)).key);
    expect((await client.create({ name: 'After the leaver' })).json().grantedTo).toBe(1);
  });

  it('ignores organizationId: the event belongs to the key’s organization', async () => {
    const other = await createDemo(t.deps);
    const otherClient = clientFor(t, other.key);
    const before = await total(otherClient);
    const response = await api.create({ name: 'Mine', organizationId: other.organizationId });
    expect(response.statusCode).toBe(201);
    const id = response.json().id;
    expect((await api.get(id)).statusCode).toBe(200);
    expectProblem(await otherClient.get(id), 404, 'not_found');
    expect(await total(otherClient)).toBe(before);
  });

  it('refuses a body without a name with 400 naming name, and writes nothing', async () => {
    const before = await total();
    const response = await api.create({ numPeople: 5 });
    expect(problemAt(response, 'name').code).toBe('required');
    expect(await total()).toBe(before);
  });

  it('lists every problem of a create at once and writes nothing', async () => {
    const before = await total();
    const response = await api.create({
      name: 'x'.repeat(101),
      numPeople: -1,
      budgetBreakdown: { venue: 10, catering: 5 },
      accommodations: { '2026-05-02': { Kingsize: 2 } },
      formattedLocations: [{ state: 'TX' }],
      currency: 'XXXX',
      agenda: [session('Talk', ['2026-05-01'], { startTime: '25:00' })],
      colour: 'blue',
    });
    const fields = fieldsOf(response);
    for (const field of [
      'name',
      'numPeople',
      'budgetBreakdown.catering',
      'accommodations.2026-05-02.Kingsize',
      'formattedLocations[0].city',
      'currency',
      'agenda[0].startTime',
      'colour',
    ]) {
      expect(fields).toContain(field);
    }
    expect(await total()).toBe(before);
  });

  it('refuses eventDates and meetingRoomDates together with 400', async () => {
    const response = await api.create({
      name: 'Both',
      eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-01' }],
      meetingRoomDates: [{ startDate: '2026-05-01', endDate: '2026-05-01' }],
    });
    expect(fieldsOf(response).length).toBeGreaterThan(0);
  });

  it('refuses a session outside the meeting-room dates with 400 on that session', async () => {
    const response = await api.create({
      name: 'Misplaced',
      eventDates: [{ startDate: '2026-05-01', endDate: '2026-05-01' }],
      agenda: [session('Day two', ['2026-05-02'])],
    });
    expect(problemAt(response, 'agenda[0].dates').code).toBe('outside_meeting_room_dates');
  });

  it.each([
    'id',
    'status',
    'location',
    'createdAt',
    'updatedAt',
  ])('refuses the service-set field %s with 400 naming it', async (field) => {
    const response = await api.create({ name: 'Sneaky', [field]: 'x' });
    expect(problemAt(response, field).code).toBe('read_only');
  });

  it('accepts a currency and refuses one that is not ISO 4217', async () => {
    const id = await createEvent(api, { currency: 'EUR' });
    expect((await api.get(id)).json().currency).toBe('EUR');
    expect(problemAt(await api.create({ name: 'Bad money', currency: 'EURO' }), 'currency').code).toBe(
      'invalid_value',
    );
  });

  it('takes currency null on create as the default, USD', async () => {
    const id = await createEvent(api, { currency: null });
    expect((await api.get(id)).json().currency).toBe('USD');
  });

  it('refuses application/merge-patch+json on create with 415', async () => {
    const response = await api.raw({
      method: 'POST',
      url: '/v1/events',
      headers: { 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ name: 'Patchy' }),
    });
    expectProblem(response, 415, 'unsupported_media_type');
  });
});
