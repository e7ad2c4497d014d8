/**
 * Every task the scheduler runs (scheduler.ts). Adding one is writing its module in tasks/ (a function
 * from these settings to a ScheduledTask, or undefined when it is switched off) and adding that
 * function to SCHEDULED_TASKS; a setting it needs is read once in config.ts, into `TaskSettings`.
 */
import type { ScheduledTask, TaskSettings } from './scheduler.js';
import { rfpReminders } from './tasks/rfp-reminders.js';

export const SCHEDULED_TASKS: ReadonlyArray<(settings: TaskSettings) => ScheduledTask | undefined> = [
  rfpReminders,
];

/** The tasks switched on by `settings`, in the order of SCHEDULED_TASKS. */
export function scheduledTasks(settings: TaskSettings): ScheduledTask[] {
  return SCHEDULED_TASKS.flatMap((task) => task(settings) ?? []);
}
