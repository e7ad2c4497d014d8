/**
 * Webhook deliveries end to end (D18) on every backend: the real app, the real dispatcher and
 * transport, and a receiver on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_NETWORKS=1). Signatures are checked
 * with the `standardwebhooks` package, as an integrator would.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeTransport } from '../../src/adapters/webhook/safe-transport.js';
import { changeEventStatus } from '../../src/app/events.js';
import { createDispatcher, type Dispatcher } from '../../src/app/webhook-dispatcher.js';
import { RESPONSE_BODY_LIMIT } from '../../src/domain/webhooks.js';
import type { WebhookTransport } from '../../src/ports/webhook-transport.js';
import { BACKENDS } from '../contract/backends.js';
import { describeWithService } from '../helpers/services.js';
import { json, startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Client, clientFor, createEvent } from '../http/requests.js';
import { type Receiver, startReceiver } from './receiver.js';

const SCHEDULE = [100, 200];

for (const backend of BACKENDS) {
  const suite = (name: string, body: () => void) =>
    backend === 'postgres' ? describeWithService('postgres', name, body) : describe(name, body);
  suite(`webhook deliveries on ${backend}`, () => {
    let t: TestApp;
    let client: Client;
    let receiver: Receiver;
    let transport: WebhookTransport;
    let dispatcher: Dispatcher;
    const outcomes: string[] = [];
    let offsetMs = 0;

    const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `/v1${url}`,
        headers: {
          'x-api-key': t.key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const newEndpoint = async (
      enabledEvents = ['event.created', 'event.updated', 'event.status_changed'],
    ) => {
      const response = await api('POST', '/webhook-endpoints', { url: receiver.url, enabledEvents });
      expect(response.statusCode, response.body).toBe(201);
      return json(response) as { id: string; secret: string };
    };
    const deliveriesOf = async (id: string) =>
      json(await api('GET', `/webhook-endpoints/${id}/deliveries`)).data;

    beforeAll(async () => {
      t = await startTestApp({ backend, allowPrivateNetworks: true });
      // The dispatcher reads time through the app's clock, so a test can move it forward.
      t.deps.clock = { now: () => new Date(Date.now() + offsetMs) };
      client = clientFor(t);
      transport = createSafeTransport({
        timeoutMs: 2000,
        allowPrivateNetworks: true,
        responseBodyLimit: RESPONSE_BODY_LIMIT,
      });
    });
    afterAll(async () => {
      await transport.close();
      await t.close();
    });
    beforeEach(async () => {
      offsetMs = 0;
      outcomes.length = 0;
      receiver = await startReceiver();
      // Earlier tests' endpoints would receive this test's changes too.
      for (const endpoint of await t.deps.store.webhooks.listEndpoints(t.demo.organizationId))
        await t.deps.store.webhooks.deleteEndpoint(t.demo.organizationId, endpoint.id);
      dispatcher = createDispatcher(t.deps, {
        transport,
        retrySchedule: SCHEDULE,
        timeoutMs: 2000,
        pollIntervalMs: 20,
        onAttempt: (outcome) => outcomes.push(outcome),
      });
      dispatcher.start();
    });
    afterEach(async () => {
      await dispatcher.stop();
      await receiver.close();
    });

    it('delivers each change with a signature that standardwebhooks verifies', async () => {
      const endpoint = await newEndpoint();
      const eventId = await createEvent(client, { name: 'Board offsite' });
      await client.patch(eventId, { name: 'Board offsite 2027' });
      const [created, updated] = await receiver.waitFor(2);
      const verifier = new Webhook(endpoint.secret);
      const bodies = [created!, updated!].map((request) => {
        expect(verifier.verify(request.body, request.headers as Record<string, string>)).toBeTruthy();
        return { id: request.headers['webhook-id'], body: JSON.parse(request.body) };
      });
      const types = bodies.map(({ body }) => body.type).sort();
      expect(types).toEqual(['event.created', 'event.updated']);
      const update = bodies.find(({ body }) => body.type === 'event.updated')!;
      expect(update.body.data).toMatchObject({ eventId, revision: 2, changedFields: ['name'] });
      expect(update.id).toBe(update.body.data.id);
      expect(typeof update.body.data.sequence).toBe('number');
      await dispatcher.idle();
      expect(
        (await deliveriesOf(endpoint.id)).map((delivery: { status: string }) => delivery.status),
      ).toEqual(['succeeded', 'succeeded']);
    });

    it('delivers the steps of a request for proposals with their request, venue and revision (D21)', async () => {
      await newEndpoint(['venue_request.sent', 'proposal.submitted']);
      const eventId = await createEvent(client, { name: 'Sourced' });
      await changeEventStatus(t.deps, eventId, 'wait_for_proposals');
      const venue = json(
        await api('POST', '/venues', {
          name: 'Hooked Hotel',
          email: 'hooked@venues.example',
          city: 'Lisbon',
        }),
      );
      const request = json(await api('POST', `/events/${eventId}/venue-requests`, { venueId: venue.id }));
      await api('POST', `/events/${eventId}/venue-requests/${request.id}/proposals`, {
        validUntil: '2090-01-01',
        meetingRoomRental: 100,
      });
      const delivered = (await receiver.waitFor(2)).map((received) => JSON.parse(received.body));
      const byType = Object.fromEntries(delivered.map((body) => [body.type, body.data]));
      expect(byType['venue_request.sent']).toMatchObject({
        eventId,
        changedFields: [],
        requestId: request.id,
        venueId: venue.id,
        actor: { type: 'api_key' },
      });
      expect(byType['proposal.submitted']).toMatchObject({ requestId: request.id, proposalRevision: 1 });
    });

    it('retries on the schedule with the same webhook-id, and keeps the failed answers', async () => {
      receiver.answer({ status: 500, body: 'try later' }, 503, 200);
      const endpoint = await newEndpoint(['event.created']);
      await createEvent(client);
      const attempts = await receiver.waitFor(3);
      expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size).toBe(1);
      const gaps = [attempts[1]!.at - attempts[0]!.at, attempts[2]!.at - attempts[1]!.at];
      // Each gap is the schedule's delay, give or take the 10% jitter and one polling interval.
      expect(gaps[0]).toBeGreaterThanOrEqual(SCHEDULE[0]! * 0.9 - 5);
      expect(gaps[0]).toBeLessThan(SCHEDULE[0]! * 1.1 + 400);
      expect(gaps[1]).toBeGreaterThanOrEqual(SCHEDULE[1]! * 0.9 - 5);
      expect(gaps[1]).toBeLessThan(SCHEDULE[1]! * 1.1 + 400);
      await dispatcher.idle();
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 200 });
      expect(outcomes).toEqual(['failed', 'failed', 'succeeded']);
    });

    it('gives up when the schedule is spent, keeping the last answer', async () => {
      receiver.answer({ status: 500, body: 'x'.repeat(100_000) });
      const endpoint = await newEndpoint(['event.created']);
      await createEvent(client);
      await receiver.waitFor(3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await dispatcher.idle();
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 3,
        lastStatusCode: 500,
        nextAttemptAt: null,
      });
      expect(delivery.lastResponseBody).toHaveLength(RESPONSE_BODY_LIMIT);
      expect(receiver.received).toHaveLength(3);
    });

    it('disables an endpoint that answers 410 Gone, and shows why', async () => {
      receiver.answer(410);
      const endpoint = await newEndpoint(['event.created']);
      await createEvent(client);
      await receiver.waitFor(1);
      await dispatcher.idle();
      const read = json(await api('GET', `/webhook-endpoints/${endpoint.id}`));
      expect(read).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('410') });
      await createEvent(client);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).toHaveLength(1);
    });

    it('signs with both secrets for a day after a rotation, and both verify', async () => {
      const endpoint = await newEndpoint(['event.created']);
      const rotated = json(await api('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`));
      await createEvent(client);
      const [request] = await receiver.waitFor(1);
      const signatures = String(request!.headers['webhook-signature']).split(' ');
      expect(signatures).toHaveLength(2);
      for (const secret of [endpoint.secret, rotated.secret]) {
        expect(
          new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>),
        ).toBeTruthy();
      }
      // A day later only the new secret signs.
      offsetMs = 24 * 3600_000 + 1000;
      await api('POST', `/webhook-endpoints/${endpoint.id}/test`);
      const [, later] = await receiver.waitFor(2);
      expect(String(later!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    });

    it('disables an endpoint that has failed for 3 days', async () => {
      receiver.answer(500);
      const endpoint = await newEndpoint(['event.created']);
      await createEvent(client);
      await receiver.waitFor(1);
      await dispatcher.idle();
      expect(json(await api('GET', `/webhook-endpoints/${endpoint.id}`)).failingSince).not.toBeNull();
      offsetMs = 3 * 24 * 3600_000 + 1000;
      await receiver.waitFor(2);
      await dispatcher.idle();
      const read = json(await api('GET', `/webhook-endpoints/${endpoint.id}`));
      expect(read).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('3 days') });
    });

    it('sends a test delivery and a manual retry with the same webhook-id', async () => {
      const endpoint = await newEndpoint(['event.status_changed']);
      const test = json(await api('POST', `/webhook-endpoints/${endpoint.id}/test`));
      const [first] = await receiver.waitFor(1);
      expect(JSON.parse(first!.body)).toMatchObject({
        type: 'webhook.test',
        data: { endpointId: endpoint.id },
      });
      await dispatcher.idle();
      const retried = await api('POST', `/webhook-endpoints/${endpoint.id}/deliveries/${test.id}/retry`);
      expect(retried.statusCode).toBe(202);
      const [, second] = await receiver.waitFor(2);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    });
  });
}
