/** Store lifecycle and bulk transfer, run on every backend. */
import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { migrations as postgresMigrations } from '../../src/adapters/postgres/postgres-migrations.js';
import { migrations as sqliteMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { bootstrapIfEmpty } from '../../src/app/organizations.js';
import { ConflictError } from '../../src/domain/errors.js';
import type { RecordBatch } from '../../src/ports/data-transfer.js';
import type { Store } from '../../src/ports/store.js';
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
      const demos = await Promise.all(Array.from({ length: 5 }, () => bootstrapIfEmpty(deps)));
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

      const source = await recordsOf(store());
      expect(source.organizations).toContainEqual(expect.objectContaining({ id: org, eventCount: 2 }));
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
      expect(await target.events.findDocument(org, event.details.id)).toEqual(
        await store().events.findDocument(org, event.details.id),
      );
      expect(await target.events.list(org, { offset: 0, limit: 10 })).toEqual(
        await store().events.list(org, { offset: 0, limit: 10 }),
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
      const organization = { id, name: 'Twice', createdAt: nextTime(), eventCount: 0 };
      const batches: RecordBatch[] = [
        { kind: 'organizations', records: [organization] },
        { kind: 'organizations', records: [organization] },
      ];
      await expect(target.transfer.importRecords(replay(batches))).rejects.toThrow();
      expect(await target.identity.countOrganizations()).toBe(0);
    });
  });
}
