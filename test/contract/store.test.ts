/** Store lifecycle and bulk transfer, run on every backend. */

import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { migrations as postgresMigrations } from '../../src/adapters/postgres/postgres-migrations.js';
import { migrations as sqliteMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { tallyStore } from '../../src/app/copy-data.js';
import { bootstrapIfEmpty } from '../../src/app/organizations.js';
import { ConflictError } from '../../src/domain/errors.js';
import { newOutboxMail } from '../../src/domain/mail.js';
import { composeMail } from '../../src/domain/mail-content.js';
import type {
  ChangeLogRecord,
  RecordBatch,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from '../../src/ports/data-transfer.js';
import type { Store } from '../../src/ports/store.js';
import { href } from '../../src/web/href.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';
import { BACKENDS, describeStore } from './backends.js';
import {
  insertEvent,
  newEvent,
  newGroup,
  newKey,
  newOrganization,
  newUser,
  nextTime,
  rewrite,
} from './fixtures.js';

/** Both backends share migration versions and names, so either list names what a new database applies. */
const ALL_MIGRATIONS = sqliteMigrations.map((migration) => migration.name);

it('has the same migrations, by version and name, on every backend', () => {
  const describeAll = (list: typeof sqliteMigrations) =>
    list.map(({ version, name }) => `${version} ${name}`);
  expect(describeAll(postgresMigrations)).toEqual(describeAll(sqliteMigrations));
});

async function exportAll(store: Store, batchSize?: number) {
  const batches: RecordBatch[] = [];
  for await (const batch of store.transfer.exportRecords(batchSize)) batches.push(batch);
  return batches;
}

/** The exported records of every kind, batches merged. */
async function recordsOf(store: Store) {
  const byKind: Record<string, unknown[]> = {};
  for (const batch of await exportAll(store)) {
    byKind[batch.kind] = [...(byKind[batch.kind] ?? []), ...batch.records];
  }
  return byKind;
}

/** Webhook times, fixed and in the future, so nothing else in the store is due with them. */
const at = (seconds: number) =>
  new Date(Date.parse('2027-01-01T00:00:00.000Z') + seconds * 1000).toISOString();

async function* replay(batches: RecordBatch[]) {
  yield* batches;
}

for (const backend of BACKENDS) {
  describeStore(backend, 'store', (store) => {
    const opened: TestStore[] = [];
    const scratch = async (options?: { migrate?: boolean }) => {
      const one = await openTestStore(backend, options);
      opened.push(one);
      return one.store;
    };
    afterAll(() => Promise.all(opened.map((one) => one.destroy())));

    it('creates the first-start demo organization once when several instances start together', async () => {
      const fresh = await scratch();
      const deps = { store: fresh, clock: systemClock, ids: randomIds };
      const demos = await Promise.all(
        Array.from({ length: 5 }, () => bootstrapIfEmpty(deps, { invitePage: href.invite })),
      );
      expect(demos.filter((demo) => demo !== undefined)).toHaveLength(1);
      expect(await fresh.identity.countOrganizations()).toBe(1);
    });

    it('applies each migration once and then reports nothing to apply', async () => {
      const fresh = await scratch({ migrate: false });
      await expect(fresh.ping()).rejects.toThrow(/not migrated/);
      expect(await fresh.migrate()).toEqual(ALL_MIGRATIONS);
      expect(await fresh.migrate()).toEqual([]);
      await expect(fresh.ping()).resolves.toBeUndefined();
    });

    it('exports every record and imports them into an empty store unchanged', async () => {
      const org = await newOrganization(store(), 'Exported');
      const planner = await newUser(store(), org);
      const approver = await newUser(store(), org);
      // A webhook endpoint from the start: it gets every change below.
      const endpoint = await store().webhooks.createEndpoint({
        id: randomUUID(),
        organizationId: org,
        url: 'https://hooks.example.com/moved',
        enabledEvents: ['event.created', 'event.updated'],
        status: 'enabled',
        disabledReason: null,
        secrets: { current: 'whsec_T2xkT2xkT2xkT2xk', previous: null, previousExpiresAt: null },
        failingSince: null,
        createdAt: at(0),
        updatedAt: at(0),
      });
      await newGroup(store(), org, [
        [planner, 'member'],
        [approver, 'approver'],
      ]);
      await store().identity.insertKey({
        ...newKey(org, planner, 'ExportedKey00001'),
        lastUsedAt: nextTime(),
      });
      await store().identity.deactivateUser(approver);
      const event = newEvent(org, planner, { notesForVenue: 'Line one\nline two' });
      await insertEvent(store(), event);
      const remembered = newEvent(org, planner, { name: 'Created with a key' });
      await insertEvent(store(), remembered, {
        key: 'export-key-0001',
        requestHash: 'request-digest',
        expiredBefore: '1970-01-01T00:00:00.000Z',
      });
      await store().events.update(org, event.details.id, (current) =>
        rewrite(current, {
          ...current,
          previousStatus: 'booked',
          details: { ...current.details, status: 'cancelled' },
        }),
      );

      const secret = await store().secrets.ensure('form-token-key', `secret-${randomUUID()}`);

      // Webhooks: a rotated secret, three deliveries (one failed for good, one waiting for its retry,
      // one claimed by an attempt still running at the export) and a test delivery due later.
      const rotated = {
        current: 'whsec_TmV3TmV3TmV3TmV3',
        previous: endpoint.secrets.current,
        previousExpiresAt: at(86_400),
      };
      await store().webhooks.updateEndpoint(org, endpoint.id, { secrets: rotated, updatedAt: at(1) });
      expect(await store().webhooks.enqueueChanges(at(2), 100)).toBe(3);
      await store().webhooks.insertDelivery({
        id: randomUUID(),
        organizationId: org,
        endpointId: endpoint.id,
        messageId: `test_${randomUUID()}`,
        type: 'webhook.test',
        sequence: null,
        payload: '{"type":"webhook.test"}',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: at(500),
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        lastResponseBody: null,
        createdAt: at(2),
      });
      const claims = await store().webhooks.claimDue(at(3), at(60), 10);
      expect(claims.map((claim) => claim.delivery.sequence).sort()).toEqual([1, 2, 3]);
      const [failed, waiting, running] = claims;
      const failing = { outcome: 'failing' as const, disableIfFailingSince: at(-3 * 86_400) };
      await store().webhooks.recordAttempt(failed!, {
        at: at(4),
        statusCode: 500,
        error: null,
        responseBody: 'Internal error\nplease retry',
        status: 'failed',
        nextAttemptAt: null,
        endpoint: failing,
      });
      await store().webhooks.recordAttempt(waiting!, {
        at: at(5),
        statusCode: null,
        error: 'connect ECONNREFUSED',
        responseBody: null,
        status: 'pending',
        nextAttemptAt: at(35),
        endpoint: failing,
      });

      // The outbox: a mail waiting, one being attempted (leased) at the export, and one sent.
      const mailAt = (seconds: number, to: string) =>
        newOutboxMail(
          composeMail({
            to: { address: to, name: 'Venue' },
            replyTo: { address: 'planner@example.com', name: null },
            content: { subject: `To ${to}`, greeting: 'Hello,', paragraphs: ['Line one\nline two'] },
          }),
          {
            organizationId: org,
            id: randomUUID(),
            now: at(seconds),
            from: { address: 'a@b.example', name: null },
          },
        );
      const [waitingMail, leasedMail, sentMail] = [
        mailAt(8, 'waiting@example.com'),
        mailAt(9, 'leased@example.com'),
        mailAt(7, 'sent@example.com'),
      ];
      await store().mail.enqueue([sentMail!]);
      const [sending] = await store().mail.claimDue(at(7), at(60), 10);
      await store().mail.recordAttempt(sending!, {
        at: at(7),
        status: 'sent',
        nextAttemptAt: null,
        error: null,
      });
      await store().mail.enqueue([leasedMail!]);
      await store().mail.claimDue(at(9), at(60), 10);
      await store().mail.enqueue([waitingMail!]);

      const source = await recordsOf(store());
      expect(source.mails).toHaveLength(3);
      expect(source.mails).toContainEqual({
        organizationId: org,
        id: sentMail!.id,
        messageId: sentMail!.messageId,
        recipient: 'sent@example.com',
        recipientName: 'Venue',
        replyTo: 'planner@example.com',
        replyToName: null,
        subject: 'To sent@example.com',
        textBody: null,
        htmlBody: null,
        status: 'sent',
        attempts: 1,
        nextAttemptAt: null,
        lastAttemptAt: at(7),
        lastError: null,
        createdAt: at(7),
        sentAt: at(7),
      });
      for (const mail of source.mails as object[]) {
        expect(Object.keys(mail)).not.toContain('lockedUntil');
        expect(Object.keys(mail)).not.toContain('leaseToken');
      }
      expect(source.organizations).toContainEqual(
        expect.objectContaining({ id: org, eventCount: 2, changeSequence: 3 }),
      );
      const changes = (source.changes as ChangeLogRecord[]).filter((change) => change.organizationId === org);
      expect(
        changes.map((change) => [change.sequence, change.eventId, change.revision, change.type]),
      ).toEqual([
        [1, event.details.id, 1, 'event.created'],
        [2, remembered.details.id, 1, 'event.created'],
        [3, event.details.id, 2, 'event.updated'],
      ]);
      expect(JSON.parse(changes[2]!.snapshot)).toEqual(
        await store()
          .events.find(org, event.details.id)
          .then((e) => e?.details),
      );
      expect(source.serverSecrets).toContainEqual(
        expect.objectContaining({ name: 'form-token-key', value: secret }),
      );
      const endpointRecord: WebhookEndpointRecord = {
        organizationId: org,
        id: endpoint.id,
        url: 'https://hooks.example.com/moved',
        enabledEvents: '["event.created","event.updated"]',
        status: 'enabled',
        disabledReason: null,
        secret: rotated.current,
        previousSecret: endpoint.secrets.current,
        previousSecretExpiresAt: at(86_400),
        cursor: 3,
        failingSince: at(4),
        createdAt: at(0),
        updatedAt: at(1),
      };
      expect(source.webhookEndpoints).toEqual([endpointRecord]);
      const deliveries = source.webhookDeliveries as WebhookDeliveryRecord[];
      expect(deliveries).toHaveLength(4);
      expect(deliveries).toContainEqual({
        organizationId: org,
        id: failed!.delivery.id,
        endpointId: endpoint.id,
        messageId: failed!.delivery.messageId,
        type: failed!.delivery.type,
        sequence: failed!.delivery.sequence,
        payload: failed!.delivery.payload,
        status: 'failed',
        attempts: 1,
        nextAttemptAt: null,
        lastAttemptAt: at(4),
        lastStatusCode: 500,
        lastError: null,
        lastResponseBody: 'Internal error\nplease retry',
        createdAt: at(2),
      });
      expect(deliveries).toContainEqual(
        expect.objectContaining({
          id: waiting!.delivery.id,
          status: 'pending',
          attempts: 1,
          nextAttemptAt: at(35),
          lastError: 'connect ECONNREFUSED',
          lastStatusCode: null,
        }),
      );
      // The running attempt's lease is not part of the record.
      expect(deliveries.find((delivery) => delivery.id === running!.delivery.id)).toEqual({
        ...running!.delivery,
        organizationId: org,
      });
      for (const delivery of deliveries) {
        expect(Object.keys(delivery)).not.toContain('lockedUntil');
        expect(Object.keys(delivery)).not.toContain('leaseToken');
      }
      expect(source.grants).toContainEqual({
        organizationId: org,
        eventId: event.details.id,
        userId: planner,
      });
      expect(source.events).toContainEqual(
        expect.objectContaining({
          previousStatus: 'booked',
          details: expect.objectContaining({ status: 'cancelled' }),
        }),
      );

      expect(source.idempotencyKeys).toContainEqual({
        organizationId: org,
        key: 'export-key-0001',
        requestHash: 'request-digest',
        eventId: remembered.details.id,
        grantedTo: 1,
        createdAt: remembered.details.createdAt,
      });

      const target = await scratch();
      // Small batches, so paging through every table is exercised.
      await target.transfer.importRecords(replay(await exportAll(store(), 2)));
      expect(await recordsOf(target)).toEqual(source);
      expect((await tallyStore(target)).digest()).toBe((await tallyStore(store())).digest());
      expect(await target.events.findDocument(org, event.details.id)).toEqual(
        await store().events.findDocument(org, event.details.id),
      );
      expect(await target.events.list(org, { offset: 0, limit: 10 })).toEqual(
        await store().events.list(org, { offset: 0, limit: 10 }),
      );
      expect(await target.events.changes(org, event.details.id, { limit: 10 })).toEqual(
        await store().events.changes(org, event.details.id, { limit: 10 }),
      );
      expect(await target.secrets.ensure('form-token-key', 'made after the move')).toBe(secret);
      // The counter moved too: the next change takes the next number, not one already used.
      await target.events.update(org, event.details.id, (current) =>
        rewrite(current, { ...current, details: { ...current.details, name: 'After the move' } }),
      );
      expect((await target.events.changes(org, event.details.id, { limit: 1 }))[0]).toMatchObject({
        sequence: 4,
        revision: 3,
      });
      // Webhooks: the endpoint and its deliveries read the same, and the target's dispatcher carries on.
      expect(await target.webhooks.findEndpoint(org, endpoint.id)).toEqual(
        await store().webhooks.findEndpoint(org, endpoint.id),
      );
      expect(await target.webhooks.listDeliveries(org, endpoint.id, 10)).toEqual(
        await store().webhooks.listDeliveries(org, endpoint.id, 10),
      );
      // The attempt running at the export is still leased on the source, and simply due on the target.
      expect(await store().webhooks.claimDue(at(6), at(60), 10)).toEqual([]);
      const resumed = await target.webhooks.claimDue(at(6), at(60), 10);
      expect(resumed.map((claim) => [claim.delivery, claim.url, claim.secrets])).toEqual([
        [running!.delivery, endpoint.url, rotated],
      ]);
      // The cursor came along: only the change made after the move (sequence 4) becomes a delivery.
      expect(await target.webhooks.enqueueChanges(at(7), 100)).toBe(1);
      const latest = await target.webhooks.listDeliveries(org, endpoint.id, 10);
      expect(latest.map((delivery) => delivery.sequence).sort()).toEqual([1, 2, 3, 4, null]);
      expect((await target.webhooks.findEndpoint(org, endpoint.id))?.cursor).toBe(4);
      // The failed attempts since the last success still count towards disabling: failingSince came along.
      expect((await target.webhooks.findEndpoint(org, endpoint.id))?.failingSince).toBe(at(4));
      // Mail: the same outbox, and the mail leased on the source is simply due on the target.
      for (const mail of [waitingMail!, leasedMail!, sentMail!]) {
        expect(await target.mail.find(org, mail.id)).toEqual(await store().mail.find(org, mail.id));
      }
      expect((await store().mail.claimDue(at(10), at(100), 10)).map((claim) => claim.mail.id)).toEqual([
        waitingMail!.id,
      ]);
      expect((await target.mail.claimDue(at(10), at(100), 10)).map((claim) => claim.mail.id).sort()).toEqual(
        [waitingMail!.id, leasedMail!.id].sort(),
      );
      const notBefore = remembered.details.createdAt;
      expect(await target.idempotency.find(org, 'export-key-0001', notBefore)).toEqual(
        await store().idempotency.find(org, 'export-key-0001', notBefore),
      );
    });

    it('refuses to import into a store that holds data, and writes nothing', async () => {
      const target = await scratch();
      const existing = await newOrganization(target, 'Already here');
      const batches = await exportAll(store());
      await expect(target.transfer.importRecords(replay(batches))).rejects.toBeInstanceOf(ConflictError);
      expect((await recordsOf(target)).organizations).toEqual([
        expect.objectContaining({ id: existing, name: 'Already here' }),
      ]);
    });

    it('imports all or nothing when a record fails part-way', async () => {
      const target = await scratch();
      const id = randomUUID();
      const organization = { id, name: 'Twice', createdAt: nextTime(), eventCount: 0, changeSequence: 0 };
      const batches: RecordBatch[] = [
        { kind: 'organizations', records: [organization] },
        { kind: 'organizations', records: [organization] },
      ];
      await expect(target.transfer.importRecords(replay(batches))).rejects.toThrow();
      expect(await target.identity.countOrganizations()).toBe(0);
    });
  });
}
