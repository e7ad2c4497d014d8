import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { WriteQueue } from './write-queue.js';

describe('write queue: organization counters once per transaction', () => {
  let db: Database.Database;
  let queue: WriteQueue;
  const row = (id: string) =>
    db
      .prepare('SELECT change_sequence AS sequence, event_count AS events FROM organizations WHERE id = ?')
      .get(id);

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(`CREATE TABLE organizations (id TEXT PRIMARY KEY, change_sequence INTEGER NOT NULL, event_count INTEGER NOT NULL);
      CREATE TABLE notes (sequence INTEGER NOT NULL);
      INSERT INTO organizations VALUES ('a', 10, 3), ('b', 0, 0);`);
    queue = new WriteQueue(db);
  });

  it('numbers the writes of one commit in order and writes each organization once', async () => {
    const take = (org: string, created: boolean) =>
      queue.runCounted(() => {
        if (created) queue.counters.eventCreated(org);
        return queue.counters.nextSequence(org);
      });
    const taken = await Promise.all([take('a', true), take('b', false), take('a', false), take('a', true)]);
    expect(taken).toEqual([11, 1, 12, 13]);
    expect(row('a')).toEqual({ sequence: 13, events: 5 });
    expect(row('b')).toEqual({ sequence: 1, events: 0 });
    // The next commit goes on from what was written.
    expect(await take('a', false)).toBe(14);
  });

  it('gives back what a refused write took, and nothing it wrote stays', async () => {
    const results = await Promise.allSettled([
      queue.runCounted(() => queue.counters.nextSequence('a')),
      queue.runCounted(() => {
        const sequence = queue.counters.nextSequence('a');
        queue.counters.eventCreated('a');
        db.prepare('INSERT INTO notes VALUES (?)').run(sequence);
        throw new Error('refused');
      }),
      queue.runCounted(() => queue.counters.nextSequence('a')),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'refused'))).toEqual([11, 'refused', 12]);
    expect(row('a')).toEqual({ sequence: 12, events: 3 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
  });

  it('lets a plain write in the same commit read and change the organization row itself', async () => {
    const results = await Promise.all([
      queue.runCounted(() => queue.counters.nextSequence('a')),
      queue.run(() => {
        const read = db.prepare("SELECT change_sequence FROM organizations WHERE id = 'a'").pluck().get();
        db.prepare("UPDATE organizations SET change_sequence = change_sequence + 100 WHERE id = 'a'").run();
        return read;
      }),
      queue.runCounted(() => queue.counters.nextSequence('a')),
    ]);
    expect(results).toEqual([11, 11, 112]);
    expect(row('a')).toEqual({ sequence: 112, events: 3 });
  });

  it('refuses a write for an organization that does not exist, alone', async () => {
    const results = await Promise.allSettled([
      queue.runCounted(() => queue.counters.nextSequence('nobody')),
      queue.runCounted(() => queue.counters.nextSequence('b')),
    ]);
    expect(results[0]!.status).toBe('rejected');
    expect(results[1]).toEqual({ status: 'fulfilled', value: 1 });
  });

  it('runs checked writes without a savepoint and gives back what one refused before writing took', async () => {
    const note = (sequence: number) => db.prepare('INSERT INTO notes VALUES (?)').run(sequence);
    const results = await Promise.allSettled([
      queue.runChecked((writing) => {
        writing();
        note(queue.counters.nextSequence('a'));
        return 'first';
      }),
      queue.runChecked(() => {
        throw new Error('refused before writing');
      }),
      queue.runChecked((writing) => {
        writing();
        note(queue.counters.nextSequence('a'));
        return 'third';
      }),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'refused'))).toEqual([
      'first',
      'refused',
      'third',
    ]);
    expect(row('a')).toEqual({ sequence: 12, events: 3 });
    expect(db.prepare('SELECT sequence FROM notes ORDER BY sequence').pluck().all()).toEqual([11, 12]);
  });

  it('runs the group again, each write in a savepoint, when a checked write fails after writing', async () => {
    let attempts = 0;
    const results = await Promise.allSettled([
      queue.runChecked((writing) => {
        writing();
        const sequence = queue.counters.nextSequence('a');
        db.prepare('INSERT INTO notes VALUES (?)').run(sequence);
        return sequence;
      }),
      queue.runChecked((writing) => {
        attempts++;
        writing();
        db.prepare('INSERT INTO notes VALUES (?)').run(queue.counters.nextSequence('a'));
        throw new Error('a statement failed');
      }),
      queue.runChecked((writing) => {
        writing();
        const sequence = queue.counters.nextSequence('a');
        db.prepare('INSERT INTO notes VALUES (?)').run(sequence);
        return sequence;
      }),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([11, 'failed', 12]);
    expect(attempts).toBe(2);
    expect(row('a')).toEqual({ sequence: 12, events: 3 });
    expect(db.prepare('SELECT sequence FROM notes ORDER BY sequence').pluck().all()).toEqual([11, 12]);
  });
});
