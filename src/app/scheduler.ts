/**
 * The scheduler: one loop for every time-driven job (D28's reminders, and whatever tasks are
 * registered in scheduled-tasks.ts). Every instance runs one; together they do each job once:
 *
 * - Each round asks every task for the subjects due now (its own query, which leaves out subjects
 *   under a live lease of the task) and claims them under a lease shared by every instance on the
 *   database (`store.schedule`): of two instances claiming one subject, one wins.
 * - Each claimed subject's work is one transaction through the write path, which judges again, on
 *   what is stored at that moment, whether the subject is still due. A subject answered or closed
 *   between the claim and the write is left alone; a subject another instance did meanwhile is found
 *   done. So the work happens once even when a lease ran out under a slow instance.
 * - The claim is released once the work is done or found not due. An instance killed between its
 *   claim and its write leaves the lease behind: once it has run out, another round (of any
 *   instance, or of this one restarted) claims the subject again and does the work. Killed after the
 *   write, it leaves a subject that is no longer due. Nothing is lost, nothing done twice.
 * - A run that fails (the database is down, …) keeps its lease: the subject is tried again once the
 *   lease has run out, which spaces the attempts.
 *
 * Time is `deps.clock`, so tests move it instead of waiting.
 */
import type { ScheduleLeases, TaskClaim, TaskSubject } from '../ports/schedule.js';
import { type ClaimLoop, createClaimLoop } from './claim-loop.js';
import type { AppDeps } from './deps.js';

/** What one run of a task made of its subject. */
export type TaskOutcome = 'done' | 'not_due';

/** One kind of time-driven work: a module of its own (src/app/tasks/), listed in scheduled-tasks.ts. */
export interface ScheduledTask {
  /** Stable and unique: the key of the task's leases. */
  readonly name: string;
  /**
   * At most `limit` subjects due at `now`, leaving out those under a live lease of this task (its query
   * joins `scheduled_leases` on `task = name`). Cheap when nothing is due: it runs every round.
   */
  due(deps: AppDeps, now: Date, limit: number): Promise<readonly TaskSubject[]>;
  /**
   * Does the work for one subject in one transaction through the write path, judging there whether it
   * is still due: `not_due` (nothing written) when it no longer is.
   */
  run(deps: AppDeps, subject: TaskSubject): Promise<TaskOutcome>;
}

/** What the tasks are configured with: config.ts reads each from the environment, once. */
export interface TaskSettings {
  /** RFP_REMINDER_DAYS: reminders this many days before a reply date (D28); 0 turns them off. */
  rfpReminderDays: number;
}

export const DEFAULT_TASK_SETTINGS: TaskSettings = { rfpReminderDays: 2 };

/** What the scheduler reports of each run (metrics, the log). */
export interface TaskRunReport {
  task: string;
  subject: TaskSubject;
  outcome: TaskOutcome | 'failed';
}

export interface SchedulerOptions {
  tasks: readonly ScheduledTask[];
  /** How long a round waits for the next when it found nothing more to do (SCHEDULER_INTERVAL_MS). */
  intervalMs: number;
  /** How long a claim lasts (default 5 minutes): far longer than one run's transaction. */
  leaseMs?: number;
  /** Runs in flight at once (default 4). */
  concurrency?: number;
  onRun?: (report: TaskRunReport) => void;
  /** Called when a round or a run fails; the scheduler keeps going. */
  onError?: (error: unknown) => void;
}

/** start, round (one round: claim and start runs), idle, stop: see claim-loop.ts. */
export type Scheduler = ClaimLoop;

export const DEFAULT_LEASE_MS = 5 * 60_000;
/** Leases left behind by a process that died after its work committed are removed this often. */
const PURGE_EVERY_MS = 60 * 60_000;

interface Claimed {
  task: ScheduledTask;
  claim: TaskClaim;
}

export function createScheduler(deps: AppDeps, options: SchedulerOptions): Scheduler {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const leases = (): ScheduleLeases => deps.store.schedule;
  let purgedAt = Number.NEGATIVE_INFINITY;

  async function claim(room: number): Promise<Claimed[]> {
    const now = deps.clock.now();
    const nowText = now.toISOString();
    if (now.getTime() - purgedAt >= PURGE_EVERY_MS) {
      purgedAt = now.getTime();
      await leases().purgeExpired(nowText);
    }
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const claimed: Claimed[] = [];
    for (const task of options.tasks) {
      const limit = room - claimed.length;
      if (limit <= 0) break;
      const due = await task.due(deps, now, limit);
      if (due.length === 0) continue;
      for (const taken of await leases().claim(task.name, due, nowText, leaseUntil)) {
        claimed.push({ task, claim: taken });
      }
    }
    return claimed;
  }

  async function attempt({ task, claim: taken }: Claimed): Promise<void> {
    let outcome: TaskOutcome;
    try {
      outcome = await task.run(deps, taken.subject);
    } catch (error) {
      // The lease stays: the subject is tried again once it has run out.
      options.onRun?.({ task: task.name, subject: taken.subject, outcome: 'failed' });
      throw error;
    }
    await leases().release(taken);
    options.onRun?.({ task: task.name, subject: taken.subject, outcome });
  }

  return createClaimLoop<Claimed>({
    concurrency: options.concurrency ?? 4,
    pollIntervalMs: options.intervalMs,
    claim,
    attempt,
    onError: options.onError,
  });
}
