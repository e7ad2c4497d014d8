import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertEvent, newEvent, newOrganization, newUser } from '../../../test/contract/fixtures.js';
import { etagOf } from '../../app/etag.js';
import { openSqliteStore } from './sqlite-store.js';

describe('SQLite migration 5 (event ETags)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'eventplan-migration-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tags the events stored before it exactly as app/etag.ts defines the tag', async () => {
    const path = join(dir, 'eventplan.db');
    const store = openSqliteStore({ path });
    await store.migrate();
    const org = await newOrganization(store);
    const event = newEvent(org, await newUser(store, org), { notesForVenue: 'Quiet rooms, please — ☕ 🎉' });
    await insertEvent(store, event);
    await store.close();
    // Back to the schema of version 4, the event without a tag.
    const raw = new Database(path);
    raw.exec('ALTER TABLE events DROP COLUMN etag; DELETE FROM schema_migrations WHERE version = 5');
    raw.close();

    const migrated = openSqliteStore({ path });
    expect(await migrated.migrate()).toEqual(['005_event_etags']);
    const text = JSON.stringify(event.details);
    expect(await migrated.events.findDocument(org, event.details.id)).toEqual({
      body: Buffer.from(text),
      etag: etagOf(text),
    });
    await migrated.close();
  });
});
