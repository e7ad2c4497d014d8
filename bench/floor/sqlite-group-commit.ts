/**
 * Group commit on SQLite: the writes that arrive in one event-loop turn run in one transaction and
 * share one COMMIT, so one fsync (WAL, synchronous=FULL) makes them all durable; each is answered only
 * after that COMMIT returned.
 *
 * A write refuses (a Refusal: not found, invalid, …) before it writes anything, so no savepoint is
 * needed per write. The organizations' counters (the change sequence, numbered in commit order, and
 * the event count) are read once per transaction and written once at its end. Should a statement
 * fail otherwise, the transaction rolls back and each of its writes runs again alone.
 */
import type { Database, Statement } from 'better-sqlite3';
import { Refusal } from './refusal.js';

/** The organizations' counters inside one transaction. */
export interface Batch {
  /** The next change sequence of the organization. */
  nextSequence(organizationId: string): number;
  /** Counts one event created in the organization. */
  eventCreated(organizationId: string): void;
}

export type Done<T> = (error: unknown, value?: T) => void;

interface Job {
  work: (batch: Batch) => unknown;
  done: Done<unknown>;
}

interface Counters {
  sequence: number;
  created: number;
}

export function createGroupCommit(db: Database) {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const readSequence = db.prepare('SELECT change_sequence FROM organizations WHERE id = ?').pluck();
  const writeCounters: Statement = db.prepare(
    'UPDATE organizations SET change_sequence = ?, event_count = event_count + ? WHERE id = ?',
  );
  let pending: Job[] = [];

  function transaction(jobs: Job[]) {
    const counters = new Map<string, Counters>();
    const countersOf = (organizationId: string) => {
      let found = counters.get(organizationId);
      if (!found) {
        found = { sequence: readSequence.get(organizationId) as number, created: 0 };
        counters.set(organizationId, found);
      }
      return found;
    };
    const batch: Batch = {
      nextSequence: (organizationId) => ++countersOf(organizationId).sequence,
      eventCreated: (organizationId) => {
        countersOf(organizationId).created++;
      },
    };
    const outcomes: Array<{ refusal?: unknown; value?: unknown }> = [];
    try {
      begin.run();
      for (const job of jobs) {
        try {
          outcomes.push({ value: job.work(batch) });
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          outcomes.push({ refusal: error });
        }
      }
      for (const [organizationId, { sequence, created }] of counters)
        writeCounters.run(sequence, created, organizationId);
      commit.run();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      if (jobs.length === 1) jobs[0]!.done(error);
      else for (const job of jobs) transaction([job]);
      return;
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.refusal) job.done(outcome.refusal);
      else job.done(undefined, outcome.value);
    });
  }

  function flush() {
    const jobs = pending;
    pending = [];
    transaction(jobs);
  }

  return {
    /** Runs `work` in the next group's transaction; `done` is called after its COMMIT (or failure). */
    run<T>(work: (batch: Batch) => T, done: Done<T>) {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ work, done: done as Done<unknown> });
    },
    /** Runs whatever is queued now (before closing). */
    drain() {
      if (pending.length > 0) flush();
    },
  };
}
