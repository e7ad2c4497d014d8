import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertEvent,
  newEvent,
  newOrganization,
  newUser,
  nextTime,
} from '../../../test/contract/fixtures.js';
import type { Store } from '../../ports/store.js';
import { ANCHOR_STEP } from './page-anchors.js';
import { openSqliteStore } from './sqlite-store.js';

describe('SQLite deep pages from page anchors', () => {
  let dir: string;
  let server: Store;
  let cli: Store;
  let org: string;
  let userId: string;
  /** Every event's [createdAt, id], as the list orders them: newest first. */
  const listed: Array<[string, string]> = [];

  const insert = async (store: Store, createdAt = nextTime()) => {
    const event = newEvent(org, userId, {}, createdAt);
    await insertEvent(store, event);
    listed.push([createdAt, event.details.id]);
    listed.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1));
  };

  const expectEveryDeepPageRight = async (store: Store) => {
    const total = listed.length;
    for (const offset of [ANCHOR_STEP, ANCHOR_STEP + 7, Math.floor(total / 2), total - ANCHOR_STEP - 20]) {
      const page = await store.events.list(org, { offset, limit: 20 });
      expect(page.total).toBe(total);
      const ids = page.items.map((item) => (JSON.parse(item) as { id: string }).id);
      expect(ids, `offset ${offset}`).toEqual(listed.slice(offset, offset + 20).map(([, id]) => id));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventplan-anchors-'));
    server = openSqliteStore({ path: join(dir, 'eventplan.db') });
    await server.migrate();
    cli = openSqliteStore({ path: join(dir, 'eventplan.db') });
    org = await newOrganization(server);
    userId = await newUser(server, org);
    const times = Array.from({ length: 3 * ANCHOR_STEP }, () => nextTime());
    await Promise.all(times.map((createdAt) => insert(server, createdAt)));
  });
  afterAll(async () => {
    await server.close();
    await cli.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads pages far from both ends as OFFSET would', async () => {
    await expectEveryDeepPageRight(server);
  });

  it('keeps them right after a newer event and after an older one', async () => {
    await insert(server);
    await expectEveryDeepPageRight(server);
    await insert(server, '2020-01-01T00:00:00.000Z');
    await expectEveryDeepPageRight(server);
  });

  it('keeps them right after another connection inserted an older event', async () => {
    await expectEveryDeepPageRight(server);
    await insert(cli, '2020-06-01T00:00:00.000Z');
    await expectEveryDeepPageRight(server);
  });
});
