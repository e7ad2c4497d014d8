/**
 * The feed never skips a change (D17): writers create and update events in parallel while a reader
 * pages GET /v1/changes all along; afterwards every acknowledged change was read exactly once, in
 * increasing sequence. On PostgreSQL also with a transaction that took its number first and is held
 * open while later writers try. Runs on every backend (TEST_BACKEND); prints what it measured.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackend } from '../helpers/test-store.js';
import { type Client, clientFor } from './requests.js';

const WRITERS = 8;
const EVENTS_PER_WRITER = 6;
const UPDATES_PER_EVENT = 5;
const PAGE = 25;

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp({ poolSize: 10 });
  api = clientFor(t);
});
afterAll(() => t.close());

interface Change {
  id: string;
  sequence: number;
  eventId: string;
  revision: number;
}

/** A reader of the feed that checks, page by page, that no sequence is skipped or seen twice. */
function feedReader(startSequence = 0) {
  let cursor: string | undefined;
  let last = startSequence;
  const read: Change[] = [];
  return {
    read,
    get lastSequence() {
      return last;
    },
    /** Reads one page; resolves to whether there was more at that moment. */
    async page(): Promise<{ hasMore: boolean; count: number }> {
      const query =
        cursor === undefined ? `limit=${PAGE}` : `after=${encodeURIComponent(cursor)}&limit=${PAGE}`;
      const response = await api.raw({ method: 'GET', url: `/v1/changes?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as { data: Change[]; hasMore: boolean; nextCursor: string };
      for (const change of body.data) {
        // Sequences are consecutive: a gap here would be a change skipped (or not yet visible) for good.
        expect(change.sequence, `after ${last}`).toBe(last + 1);
        last = change.sequence;
        read.push(change);
      }
      cursor = body.nextCursor;
      return { hasMore: body.hasMore, count: body.data.length };
    },
    async toEnd() {
      while ((await this.page()).hasMore) {}
    },
  };
}

/** One writer: creates events and updates each of them; every acknowledged change is counted per event. */
async function writer(index: number, acknowledged: Map<string, number>) {
  for (let event = 0; event < EVENTS_PER_WRITER; event++) {
    const created = await api.create({ name: `Writer ${index} event ${event}` });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    acknowledged.set(id, 1);
    for (let update = 1; update <= UPDATES_PER_EVENT; update++) {
      const response = await api.patch(id, { numPeople: update });
      expect(response.statusCode, response.body).toBe(200);
      acknowledged.set(id, acknowledged.get(id)! + 1);
    }
  }
}

function expectReadOnce(read: Change[], acknowledged: Map<string, number>) {
  expect(new Set(read.map((change) => change.id)).size).toBe(read.length);
  const revisions = new Map<string, number[]>();
  for (const change of read)
    revisions.set(change.eventId, [...(revisions.get(change.eventId) ?? []), change.revision]);
  for (const [eventId, count] of acknowledged) {
    expect(revisions.get(eventId), eventId).toEqual(Array.from({ length: count }, (_, index) => index + 1));
  }
}

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

describe(`the change feed under concurrent writers on ${testBackend()}`, () => {
  it('reads every acknowledged change exactly once, in increasing sequence, while writers run in parallel', async () => {
    const acknowledged = new Map<string, number>();
    const reader = feedReader();
    let writing = true;
    let pagesWhileWriting = 0;
    const started = performance.now();
    const writers = Promise.all(
      Array.from({ length: WRITERS }, (_, index) => writer(index, acknowledged)),
    ).finally(() => {
      writing = false;
    });
    const reading = (async () => {
      while (writing) {
        const { count } = await reader.page();
        if (count > 0) pagesWhileWriting++;
        else await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await writers;
    const writtenMs = performance.now() - started;
    await reading;
    await reader.toEnd();
    const readMs = performance.now() - started;

    const total = [...acknowledged.values()].reduce((sum, count) => sum + count, 0);
    expect(total).toBe(WRITERS * EVENTS_PER_WRITER * (1 + UPDATES_PER_EVENT));
    expect(reader.read).toHaveLength(total);
    expectReadOnce(reader.read, acknowledged);
    expect(pagesWhileWriting).toBeGreaterThan(1);

    // Reading the whole log again from the start, as a new consumer would.
    const replayStarted = performance.now();
    const replay = feedReader();
    await replay.toEnd();
    const replayMs = performance.now() - replayStarted;
    expect(replay.read.map((change) => change.id)).toEqual(reader.read.map((change) => change.id));

    console.log(
      `[feed ${testBackend()}] ${WRITERS} writers, ${total} changes acknowledged, ${reader.read.length} read once each ` +
        `(${pagesWhileWriting} non-empty pages while writing); written ${perSecond(total, writtenMs)} changes/s, ` +
        `read alongside ${perSecond(total, readMs)} changes/s, replayed ${perSecond(total, replayMs)} changes/s (pages of ${PAGE})`,
    );
  });

  // PostgreSQL only (SQLite has one writer at a time): registered there alone, so nothing is skipped.
  (testBackend() === 'postgres' ? it : () => undefined)(
    'never skips a change whose transaction took its number first and commits last: later writers wait for it',
    async () => {
      const organizationId = t.demo.organizationId;
      const reader = feedReader();
      await reader.toEnd();
      const before = reader.lastSequence;

      const created = await api.create({ name: 'Held open' });
      const heldEvent = created.json().id as string;
      await reader.toEnd();

      // A second connection takes the next number the way every write does, and keeps its transaction open.
      const held = new pg.Client({ connectionString: t.databaseUrl! });
      await held.connect();
      try {
        await held.query('BEGIN');
        const numbered = await held.query<{ change_sequence: string }>(
          'UPDATE organizations SET change_sequence = change_sequence + 1 WHERE id = $1 RETURNING change_sequence',
          [organizationId],
        );
        const heldSequence = Number(numbered.rows[0]!.change_sequence);
        expect(heldSequence).toBe(before + 2);
        const heldChangeId = crypto.randomUUID();
        await held.query(
          `INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
             changed_fields, diff, data, snapshot)
           SELECT $1, $2, $3, $4, 2, 'event.updated', now(), '{"type":"operator"}', '[]', '[]', NULL, document
           FROM events WHERE organization_id = $1 AND id = $4`,
          [organizationId, heldSequence, heldChangeId, heldEvent],
        );

        // Later writers: they number their changes after the held one, so they wait for its commit.
        const acknowledged = new Map<string, number>();
        let finished = 0;
        const later = Array.from({ length: 4 }, async (_, index) => {
          const response = await api.create({ name: `Later ${index}` });
          expect(response.statusCode, response.body).toBe(201);
          acknowledged.set(response.json().id, 1);
          finished++;
        });
        const { rows } = await untilBlocked(held, 4);
        expect(rows).toBe(4);

        // While it is open, the reader sees nothing past what it has: no later change overtakes it.
        for (let poll = 0; poll < 5; poll++) {
          expect((await reader.page()).count).toBe(0);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(finished).toBe(0);

        await held.query('COMMIT');
        await Promise.all(later);
        await reader.toEnd();
        const after = reader.read.filter((change) => change.sequence >= heldSequence);
        expect(after[0]).toMatchObject({ id: heldChangeId, sequence: heldSequence, eventId: heldEvent });
        expect(after.map((change) => change.sequence)).toEqual([0, 1, 2, 3, 4].map((n) => heldSequence + n));
        expectReadOnce(
          after.filter((change) => change.eventId !== heldEvent),
          acknowledged,
        );
        console.log(
          `[feed postgres] held transaction took sequence ${heldSequence}; 4 later writers waited on the organization row and were read after it, none skipped`,
        );
      } finally {
        await held.query('ROLLBACK').catch(() => {});
        await held.end();
      }
    },
  );
});

/**
 * Resolves once `count` connections wait, directly or behind another waiter, on the held connection:
 * the first waits on its transaction, the next ones on the row's tuple lock that the first holds.
 */
async function untilBlocked(held: pg.Client, count: number, timeoutMs = 10_000) {
  const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const observer = new pg.Client({ connectionString: t.databaseUrl! });
  await observer.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await observer.query<{ pid: number; blockers: number[] }>(
        'SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0',
      );
      const behind = new Set([pid]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const row of rows) {
          if (!behind.has(row.pid) && row.blockers.some((blocker) => behind.has(blocker))) {
            behind.add(row.pid);
            grew = true;
          }
        }
      }
      const waiting = behind.size - 1;
      if (waiting >= count || Date.now() > deadline) return { rows: waiting };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await observer.end();
  }
}
