import type { Database, Statement } from 'better-sqlite3';

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes that arrive in the same event-loop turn run in one transaction, each inside
 * its own savepoint, so one fsync acknowledges them all and a failing write rolls back alone.
 * Every promise settles only after COMMIT has returned, so an acknowledged write is durable.
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

  constructor(private readonly db: Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT job');
    this.release = db.prepare('RELEASE job');
    this.rollbackTo = db.prepare('ROLLBACK TO job');
  }

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
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

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.begin.run();
      for (const job of batch) {
        this.savepoint.run();
        try {
          const value = job.work();
          this.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          this.rollbackTo.run();
          this.release.run();
          outcomes.push({ ok: false, error });
        }
      }
      this.commit.run();
    } catch (error) {
      if (this.db.inTransaction) this.rollback.run();
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
