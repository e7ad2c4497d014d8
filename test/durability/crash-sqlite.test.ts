import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PreparedDatabase, prepareSqliteDatabase } from '../ops/server-process.js';
import { runCrashCycles } from './crash-harness.js';

describe('crash durability on SQLite', () => {
  let database: PreparedDatabase;
  beforeAll(async () => {
    database = await prepareSqliteDatabase();
  });
  afterAll(() => database.remove());

  it('keeps every acknowledged write through 20 SIGKILLs at random moments, none half-applied, integrity ok', async () => {
    const report = await runCrashCycles({
      databaseUrl: database.databaseUrl,
      key: database.key,
      cycles: 20,
      writers: 6,
      async checkStorage(eventIds) {
        // Opened as the server would open it after the crash: SQLite recovers the write-ahead log first.
        const db = new Database(database.path);
        try {
          const problems: string[] = [];
          const integrity = db.pragma('integrity_check', { simple: true });
          if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
          const foreignKeys = db.pragma('foreign_key_check') as unknown[];
          if (foreignKeys.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys)}`);
          const grants = db.prepare('SELECT COUNT(*) FROM event_grants WHERE event_id = ?').pluck();
          for (const id of eventIds) {
            const count = grants.get(id) as number;
            if (count !== 2) problems.push(`event ${id} has ${count} grants, not 2 (creator and approver)`);
          }
          return problems;
        } finally {
          db.close();
        }
      },
    });
    console.info(`crash durability (SQLite): ${JSON.stringify(report)}`);
    expect(report.kills).toBe(20);
    expect(report.acknowledgedWrites).toBeGreaterThan(200);
  }, 240_000);
});
