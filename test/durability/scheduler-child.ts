/**
 * A scheduler instance that dies mid-run, for scheduler-crash.test.ts: it runs one real round of the
 * reminders at the instant SCHEDULER_NOW on DATABASE_URL, with one run at a time, and stops inside the
 * run until the test kills it. CRASH says where: `before-write` (claimed, nothing written) or
 * `after-write` (the reminder committed, the claim not yet released).
 */
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds } from '../../src/adapters/system.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createScheduler, type ScheduledTask } from '../../src/app/scheduler.js';
import { rfpReminders } from '../../src/app/tasks/rfp-reminders.js';
import { parseDatabaseUrl } from '../../src/config.js';

const now = new Date(process.env.SCHEDULER_NOW!);
const crash = process.env.CRASH as 'before-write' | 'after-write';
const store = await openStore(parseDatabaseUrl(process.env.DATABASE_URL));
const deps: AppDeps = { store, clock: { now: () => now }, ids: randomIds };
const reminders = rfpReminders({ rfpReminderDays: 2 })!;
const dying: ScheduledTask = {
  name: reminders.name,
  due: (...args) => reminders.due(...args),
  async run(runDeps, subject) {
    if (crash === 'after-write') await reminders.run(runDeps, subject);
    process.stdout.write(`${crash} ${subject.id}\n`);
    // The kill comes here: the claim is never released.
    return new Promise(() => undefined);
  },
};
const scheduler = createScheduler(deps, { tasks: [dying], intervalMs: 60_000, concurrency: 1 });
await scheduler.round();
