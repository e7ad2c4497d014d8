/** A person's notification switches (D24), kept per person by the identity repository, on every backend. */
import { beforeAll, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../src/domain/notifications.js';
import { BACKENDS, describeStore } from './backends.js';
import { newOrganization, newUser } from './fixtures.js';

for (const backend of BACKENDS) {
  describeStore(backend, 'notification switches', (store) => {
    let org: string;

    beforeAll(async () => {
      org = await newOrganization(store(), 'Acme');
    });

    it('has every kind on for a person who never switched one off', async () => {
      const userId = await newUser(store(), org);
      expect(await store().identity.switchedOffNotifications(org, userId)).toEqual([]);
    });

    it('keeps the kinds switched off, in the kinds’ own order, and replaces them as a whole', async () => {
      const userId = await newUser(store(), org);
      await store().identity.setSwitchedOffNotifications(org, userId, [
        'venue_turned_down',
        'approval_requested',
      ]);
      expect(await store().identity.switchedOffNotifications(org, userId)).toEqual([
        'approval_requested',
        'venue_turned_down',
      ]);
      await store().identity.setSwitchedOffNotifications(org, userId, [
        'proposal_received',
        'proposal_received',
      ]);
      expect(await store().identity.switchedOffNotifications(org, userId)).toEqual(['proposal_received']);
      await store().identity.setSwitchedOffNotifications(org, userId, NOTIFICATION_KINDS);
      expect(await store().identity.switchedOffNotifications(org, userId)).toEqual([...NOTIFICATION_KINDS]);
      await store().identity.setSwitchedOffNotifications(org, userId, []);
      expect(await store().identity.switchedOffNotifications(org, userId)).toEqual([]);
    });

    it('keeps each person’s switches apart, and each organization’s', async () => {
      const ana = await newUser(store(), org);
      const bea = await newUser(store(), org);
      const other = await newOrganization(store(), 'Globex');
      await store().identity.setSwitchedOffNotifications(org, ana, ['approval_answered']);
      expect(await store().identity.switchedOffNotifications(org, bea)).toEqual([]);
      expect(await store().identity.switchedOffNotifications(other, ana)).toEqual([]);
      await store().identity.setSwitchedOffNotifications(org, bea, ['proposal_received']);
      expect(await store().identity.switchedOffNotifications(org, ana)).toEqual(['approval_answered']);
    });
  });
}
