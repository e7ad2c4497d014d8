/**
 * A scheduler killed with SIGKILL between its claim and its write (D28) neither loses nor repeats a
 * reminder: the claim's lease holds the request until it runs out, then another round reminds it,
 * once. Killed after the write, before the claim is released, the request stays reminded once. A real
 * child process, on every backend.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIds } from '../../src/adapters/system.js';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { createDemo } from '../../src/app/organizations.js';
import { createScheduler, DEFAULT_LEASE_MS } from '../../src/app/scheduler.js';
import { rfpReminders } from '../../src/app/tasks/rfp-reminders.js';
import { reminderMails, remindersRecorded, sendWaitingRequests } from '../helpers/reminders.js';
import { describeWithService } from '../helpers/services.js';
import { ALL_BACKENDS, type Backend, openTestStore, type TestStore } from '../helpers/test-store.js';
import { ROOT } from '../ops/server-process.js';
import { MINUTE, testClock } from '../people/people-deps.js';

const CHILD = join(ROOT, 'test/durability/scheduler-child.ts');
const NOW = Date.parse('2027-05-10T09:30:00.000Z');

/** Runs the dying scheduler until it says it is inside its run, then kills it; resolves to the subject's id. */
async function killMidRun(databaseUrl: string, crash: 'before-write' | 'after-write'): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SCHEDULER_NOW: new Date(NOW).toISOString(),
      CRASH: crash,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child never reached its run: ${err}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = new RegExp(`^${crash} (\\S+)$`, 'm').exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', () => reject(new Error(`the child ended before its run: ${err}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return line;
}

function suite(backend: Backend) {
  let opened: TestStore;
  let deps: AppDeps;
  let principal: Principal;
  const clock = testClock('2027-05-01T10:00:00.000Z');

  beforeAll(async () => {
    opened = await openTestStore(backend);
    deps = { store: opened.store, clock, ids: randomIds };
    const demo = await createDemo(deps);
    principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
  });
  afterAll(() => opened?.destroy());

  /** Rounds of this process's scheduler at `time`, until one finds nothing to do. */
  async function roundsAt(time: number) {
    clock.advance(time - clock.now().getTime());
    const scheduler = createScheduler(deps, {
      tasks: [rfpReminders({ rfpReminderDays: 2 })!],
      intervalMs: 1000,
    });
    let runs = 0;
    for (;;) {
      const started = await scheduler.round();
      await scheduler.idle();
      if (started === 0) return runs;
      runs += started;
    }
  }

  for (const crash of ['before-write', 'after-write'] as const) {
    it(`reminds every request exactly once after a SIGKILL ${crash === 'before-write' ? 'between the claim and the write' : 'between the write and the release'}`, async () => {
      clock.advance(
        Date.parse(crash === 'before-write' ? '2027-05-01T10:00:00Z' : '2027-05-01T11:00:00Z') -
          clock.now().getTime(),
      );
      const waiting = await sendWaitingRequests(deps, principal, {
        count: 3,
        responseDueDate: crash === 'before-write' ? '2027-05-12' : '2027-05-11',
      });
      const killedOn = await killMidRun(opened.url, crash);
      expect(waiting.map((request) => request.requestId)).toContain(killedOn);
      const remindedNow = async () =>
        remindersRecorded(opened.store, principal.organizationId, waiting[0]!.eventId);

      // While the dead instance's lease lasts, the other requests are reminded and its subject is not touched.
      await roundsAt(NOW + MINUTE);
      const during = await remindedNow();
      expect(during.get(killedOn) ?? 0).toBe(crash === 'before-write' ? 0 : 1);
      expect([...during.values()].every((count) => count === 1)).toBe(true);
      expect(during.size).toBe(3 - (crash === 'before-write' ? 1 : 0));

      // Once it has run out, another round does what the dead one did not, and nothing twice.
      await roundsAt(NOW + DEFAULT_LEASE_MS + MINUTE);
      await roundsAt(NOW + DEFAULT_LEASE_MS + 10 * MINUTE);
      const after = await remindedNow();
      expect(after.size).toBe(3);
      expect([...after.values()]).toEqual([1, 1, 1]);
      for (const request of waiting)
        expect(await reminderMails(opened.store, request.venueEmail)).toHaveLength(1);
    }, 60_000);
  }
}

for (const backend of ALL_BACKENDS) {
  const title = `a scheduler killed mid-run on ${backend}`;
  if (backend === 'postgres') describeWithService('postgres', title, () => suite(backend));
  else describe(title, () => suite(backend));
}
