/**
 * The scheduler's leases (app/scheduler.ts): a subject of a task (a request to remind, …) claimed by
 * one instance at a time, across every instance on the database, until its lease runs out.
 */

/** What a task works on: one thing of one organization, within one event. */
export interface TaskSubject {
  organizationId: string;
  eventId: string;
  /** The subject's id (a request's, …): unique within its organization and task. */
  id: string;
}

/** A subject claimed for one run of its task. */
export interface TaskClaim {
  task: string;
  subject: TaskSubject;
  /** Proves the claim when it is released: a claim whose lease ran out and was taken again keeps nothing. */
  leaseToken: string;
}

export interface ScheduleLeases {
  /**
   * Claims each of `subjects` for `task` until `leaseUntil`, unless another claim's lease on it is
   * still live at `now`; resolves to the claims made, in the order given. Atomic per subject across
   * instances: of two claims at once, one wins.
   */
  claim(
    task: string,
    subjects: readonly TaskSubject[],
    now: string,
    leaseUntil: string,
  ): Promise<TaskClaim[]>;
  /** Ends a claim (its work is done, or found not due); nothing when the lease was lost to another claim. */
  release(claim: TaskClaim): Promise<void>;
  /** Removes leases that ran out before `before` (left by a process that died); resolves to how many. */
  purgeExpired(before: string): Promise<number>;
}
