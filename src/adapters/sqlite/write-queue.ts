import type { Database, Statement } from 'better-sqlite3';

/** Called by a checked job right before its first write. */
export type Writing = () => void;

interface Job {
  work: (writing: Writing) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Whether the job reads or writes the organizations' counters only through `counters`. */
  counted: boolean;
  /** Whether the job runs inside a savepoint of its own; a checked job does not (`runChecked`). */
  guarded: boolean;
}

/** A checked job failed after it began writing: the group runs again, every job in a savepoint. */
class WroteBeforeFailing extends Error {}

/** An organization's counters inside one transaction, as read from its row plus what jobs added. */
interface Counter {
  organizationId: string;
  /** The change sequence as read from the row. */
  stored: number;
  sequence: number;
  created: number;
  /** The values before the running job touched them, to restore if its savepoint rolls back. */
  savedSequence: number;
  savedCreated: number;
  touchedBy: number;
}

/** The organizations' counters (D17's change sequence, the event count) for the running job. */
export interface OrganizationCounters {
  /** The organization's next change sequence, in commit order. */
  nextSequence(organizationId: string): number;
  /** Counts one more event of the organization. */
  eventCreated(organizationId: string): void;
}

/**
 * Group commit: writes that arrive in the same event-loop turn run in one transaction, each inside
 * its own savepoint, so one fsync acknowledges them all and a failing write rolls back alone.
 * Every promise settles only after COMMIT has returned, so an acknowledged write is durable.
 *
 * A checked job (`runChecked`) needs no savepoint: it refuses, if at all, before its first write, and
 * says when that comes. Should it fail after that (a failing statement), the transaction is rolled
 * back and the group runs again with every job in a savepoint, so the failing one rolls back alone.
 *
 * The organizations' counters are read once per transaction and written once before its COMMIT, not
 * once per write: jobs started with `runCounted` or `runChecked` take them from `counters`. A job started with `run`
 * may read or write the organizations' rows itself, so the counters are written before it and read
 * again after it.
 */
export class WriteQueue {
  private pending: Job[] = [];
  private scheduled = false;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackTo: Statement;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  // Prepared on first use: the queue exists before the migrations have made the organizations table.
  private readSequence?: Statement;
  private writeCounter?: Statement;
  private readonly counterOf = new Map<string, Counter>();
  private jobNumber = 0;

  readonly counters: OrganizationCounters = {
    nextSequence: (organizationId) => ++this.touch(organizationId).sequence,
    eventCreated: (organizationId) => {
      this.touch(organizationId).created++;
    },
  };

  constructor(private readonly db: Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT job');
    this.release = db.prepare('RELEASE job');
    this.rollbackTo = db.prepare('ROLLBACK TO job');
  }

  /** Runs `work` in the next group commit; it may read and write anything. */
  run<T>(work: () => T): Promise<T> {
    return this.enqueue(work, false, true);
  }

  /** Runs `work` in the next group commit; it uses the organizations' counters only through `counters`. */
  runCounted<T>(work: () => T): Promise<T> {
    return this.enqueue(work, true, true);
  }

  /**
   * Like `runCounted`, without a savepoint: `work` throws only before it calls `writing`, which it
   * calls right before its first write.
   */
  runChecked<T>(work: (writing: Writing) => T): Promise<T> {
    return this.enqueue(work, true, false);
  }

  private enqueue<T>(work: (writing: Writing) => T, counted: boolean, guarded: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject, counted, guarded });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes waiting for the next commit. */
  get depth(): number {
    return this.pending.length;
  }

  /** Runs everything still queued now; used before closing the database. */
  drain(): void {
    if (this.pending.length > 0) this.flush();
  }

  private touch(organizationId: string): Counter {
    let counter = this.counterOf.get(organizationId);
    if (!counter) {
      this.readSequence ??= this.db.prepare('SELECT change_sequence FROM organizations WHERE id = ?').pluck();
      const sequence = this.readSequence.get(organizationId) as number | undefined;
      if (sequence === undefined) throw new Error(`no organization ${organizationId}`);
      counter = {
        organizationId,
        stored: sequence,
        sequence,
        created: 0,
        savedSequence: sequence,
        savedCreated: 0,
        touchedBy: this.jobNumber,
      };
      this.counterOf.set(organizationId, counter);
    } else if (counter.touchedBy !== this.jobNumber) {
      counter.savedSequence = counter.sequence;
      counter.savedCreated = counter.created;
      counter.touchedBy = this.jobNumber;
    }
    return counter;
  }

  /** Puts back what the job that just rolled back took from the counters. */
  private restoreCounters(): void {
    for (const counter of this.counterOf.values()) {
      if (counter.touchedBy !== this.jobNumber) continue;
      counter.sequence = counter.savedSequence;
      counter.created = counter.savedCreated;
    }
  }

  /** Writes the counters the jobs so far moved, and forgets them. */
  private writeCounters(): void {
    for (const counter of this.counterOf.values()) {
      if (counter.sequence === counter.stored && counter.created === 0) continue;
      this.writeCounter ??= this.db.prepare(
        'UPDATE organizations SET change_sequence = ?, event_count = event_count + ? WHERE id = ?',
      );
      this.writeCounter.run(counter.sequence, counter.created, counter.organizationId);
    }
    this.counterOf.clear();
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    this.commitGroup(batch, false);
  }

  /** Runs `batch` in one transaction; with `guardAll`, every job in a savepoint of its own. */
  private commitGroup(batch: Job[], guardAll: boolean): void {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.begin.run();
      for (const job of batch) {
        this.jobNumber++;
        if (!job.counted) this.writeCounters();
        const guarded = guardAll || job.guarded;
        if (guarded) this.savepoint.run();
        let wrote = false;
        try {
          const value = job.work(() => {
            wrote = true;
          });
          if (guarded) this.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          if (guarded) {
            this.rollbackTo.run();
            this.release.run();
          } else if (wrote) {
            throw new WroteBeforeFailing();
          }
          this.restoreCounters();
          outcomes.push({ ok: false, error });
        }
        // The job may have written an organization's row itself: the counters are read afresh after it.
        if (!job.counted) this.writeCounters();
      }
      this.writeCounters();
      this.commit.run();
    } catch (error) {
      this.counterOf.clear();
      if (this.db.inTransaction) this.rollback.run();
      if (error instanceof WroteBeforeFailing) {
        this.commitGroup(batch, true);
        return;
      }
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
