/** The webhook repository contract (D18), run on every backend. */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { createEvent, updateEvent } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import type { WebhookEndpoint } from '../../src/domain/webhooks.js';
import type { Store } from '../../src/ports/store.js';
import { BACKENDS, describeStore } from './backends.js';

const at = (seconds: number) =>
  new Date(Date.parse('2027-01-01T00:00:00.000Z') + seconds * 1000).toISOString();

for (const backend of BACKENDS) {
  describeStore(backend, 'webhook repository', (store) => {
    let principal: { organizationId: string; userId: string; keyId: string };
    const deps = () => ({ store: store(), clock: systemClock, ids: randomIds });

    beforeAll(async () => {
      const demo = await createDemo(deps());
      principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
    });

    const newEndpoint = (s: Store, enabledEvents: WebhookEndpoint['enabledEvents']) =>
      s.webhooks.createEndpoint({
        id: randomUUID(),
        organizationId: principal.organizationId,
        url: 'https://hooks.example.com/x',
        enabledEvents,
        status: 'enabled',
        disabledReason: null,
        secrets: { current: 'whsec_AAAA', previous: null, previousExpiresAt: null },
        failingSince: null,
        createdAt: at(0),
        updatedAt: at(0),
      });

    it('delivers only the changes committed after the endpoint was created, each once, of its types', async () => {
      const before = await createEvent(deps(), principal, { name: 'Before' });
      const endpoint = await newEndpoint(store(), ['event.updated']);
      await updateEvent(deps(), principal, before.id, { name: 'Before, renamed' });
      await createEvent(deps(), principal, { name: 'After' });
      await store().webhooks.enqueueChanges(at(1), 100);
      await store().webhooks.enqueueChanges(at(2), 100);
      const deliveries = await store().webhooks.listDeliveries(principal.organizationId, endpoint.id, 10);
      expect(deliveries.map((delivery) => delivery.type)).toEqual(['event.updated']);
      expect(JSON.parse(deliveries[0]!.payload)).toMatchObject({
        type: 'event.updated',
        data: { eventId: before.id, revision: 2 },
      });
      const moved = await store().webhooks.findEndpoint(principal.organizationId, endpoint.id);
      expect(moved!.cursor).toBeGreaterThan(endpoint.cursor);
      await store().webhooks.deleteEndpoint(principal.organizationId, endpoint.id);
    });

    it('claims a due delivery once until its lease runs out, and records only with the claim', async () => {
      const endpoint = await newEndpoint(store(), ['event.created']);
      await createEvent(deps(), principal, { name: 'Claimed' });
      await store().webhooks.enqueueChanges(at(0), 100);
      const [claim] = await store().webhooks.claimDue(at(1), at(60), 10);
      expect(claim?.delivery.endpointId).toBe(endpoint.id);
      expect(await store().webhooks.claimDue(at(2), at(60), 10)).toEqual([]);
      // The lease ran out (its instance died): someone else may claim it, and the first claim is void.
      const [again] = await store().webhooks.claimDue(at(61), at(120), 10);
      expect(again?.delivery.id).toBe(claim!.delivery.id);
      const attempt = {
        at: at(62),
        statusCode: 500,
        error: null,
        responseBody: 'no',
        status: 'pending' as const,
        nextAttemptAt: at(70),
        endpoint: { outcome: 'failing' as const, disableIfFailingSince: at(-3 * 86400) },
      };
      expect(await store().webhooks.recordAttempt(claim!, attempt)).toBe(false);
      expect(await store().webhooks.recordAttempt(again!, attempt)).toBe(true);
      const recorded = await store().webhooks.findDelivery(
        principal.organizationId,
        endpoint.id,
        claim!.delivery.id,
      );
      expect(recorded).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: 500,
        nextAttemptAt: at(70),
      });
      expect((await store().webhooks.findEndpoint(principal.organizationId, endpoint.id))!.failingSince).toBe(
        at(62),
      );
      expect(await store().webhooks.claimDue(at(69), at(200), 10)).toEqual([]);
      expect(await store().webhooks.queueStats()).toMatchObject({ pending: 1 });
      // A disabled endpoint's deliveries are not claimed.
      await store().webhooks.updateEndpoint(principal.organizationId, endpoint.id, {
        status: 'disabled',
        updatedAt: at(71),
      });
      expect(await store().webhooks.claimDue(at(72), at(200), 10)).toEqual([]);
      expect(await store().webhooks.queueStats()).toMatchObject({ pending: 0, oldestPendingAt: null });
      await store().webhooks.deleteEndpoint(principal.organizationId, endpoint.id);
    });

    it('keeps endpoints apart by organization', async () => {
      const endpoint = await newEndpoint(store(), ['event.created']);
      const other = await createDemo(deps());
      expect(await store().webhooks.findEndpoint(other.organizationId, endpoint.id)).toBeUndefined();
      expect(
        await store().webhooks.updateEndpoint(other.organizationId, endpoint.id, {
          status: 'disabled',
          updatedAt: at(1),
        }),
      ).toBeUndefined();
      expect(await store().webhooks.deleteEndpoint(other.organizationId, endpoint.id)).toBe(false);
      expect(await store().webhooks.listEndpoints(other.organizationId)).toEqual([]);
    });
  });
}
