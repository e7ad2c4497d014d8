/**
 * The scheduler and its reminders (D28) on every backend, with a clock the tests move: one reminder
 * per reply date at the first round on or after 09:00 UTC, RFP_REMINDER_DAYS before it; none to a
 * request answered or closed meanwhile, even between the claim and the write; a subject claimed
 * elsewhere waits for its lease; each run in one transaction through the write path. And two instances
 * on one PostgreSQL database running their schedulers at the same moments send every reminder once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { randomIds } from '../../src/adapters/system.js';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { apiKeyRequester, changeEventStatus } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { scheduledTasks } from '../../src/app/scheduled-tasks.js';
import { createScheduler, type ScheduledTask, type TaskRunReport } from '../../src/app/scheduler.js';
import { RFP_REMINDERS, rfpReminders } from '../../src/app/tasks/rfp-reminders.js';
import {
  getVenueRequest,
  moveReplyDate,
  submitProposalFor,
  withdrawVenueRequest,
} from '../../src/app/venue-requests.js';
import type { Store } from '../../src/ports/store.js';
import { BACKENDS, describeStore } from '../contract/backends.js';
import { createTestSchema, type Scratch } from '../helpers/postgres.js';
import { reminderMails, remindersRecorded, sendWaitingRequests } from '../helpers/reminders.js';
import { describeWithService } from '../helpers/services.js';
import { DAY, MINUTE, testClock } from '../people/people-deps.js';

const BASE = 'https://plan.example.com';
const DUE = '2027-05-12';
/** 09:00 UTC two days before DUE: the reminder's moment with the default RFP_REMINDER_DAYS. */
const MOMENT = Date.parse('2027-05-10T09:00:00.000Z');

for (const backend of BACKENDS) {
  describeStore(backend, 'the scheduler’s reminders', (store) => {
    const clock = testClock('2027-05-01T10:00:00.000Z');
    let deps: AppDeps;
    let principal: Principal;
    const reminders = rfpReminders({ rfpReminderDays: 2 })!;
    /** Moves the clock to `at` (ms), forwards only. */
    const at = (time: number) => clock.advance(time - clock.now().getTime());

    beforeAll(async () => {
      deps = {
        store: store(),
        clock,
        ids: randomIds,
        mail: { from: { address: 'eventplan@plan.example.com', name: 'eventplan' }, publicBaseUrl: BASE },
      };
      const demo = await createDemo(deps);
      principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
    });

    /** One scheduler round over `tasks`, waited for to its last run; resolves to what each run made. */
    async function round(tasks: readonly ScheduledTask[] = [reminders]) {
      const reports: TaskRunReport[] = [];
      const scheduler = createScheduler(deps, { tasks, intervalMs: 1000, onRun: (r) => reports.push(r) });
      await scheduler.round();
      await scheduler.idle();
      return reports;
    }

    /** Every round from now to MOMENT + 3 days leaves exactly what one round at the moment left. */
    it('reminds each waiting request once, at the first round on or after 09:00 UTC two days before its reply date', async () => {
      at(Date.parse('2027-05-02T10:00:00.000Z'));
      const waiting = await sendWaitingRequests(deps, principal, { count: 3, responseDueDate: DUE });
      const { eventId } = waiting[0]!;
      at(MOMENT - 1);
      expect(await round()).toEqual([]);
      expect((await remindersRecorded(store(), principal.organizationId, eventId)).size).toBe(0);

      at(MOMENT + 30_000);
      const reports = await round();
      expect(reports.map((report) => [report.task, report.outcome])).toEqual([
        [RFP_REMINDERS, 'done'],
        [RFP_REMINDERS, 'done'],
        [RFP_REMINDERS, 'done'],
      ]);
      for (let hour = 1; hour < 72; hour += 7) {
        at(MOMENT + hour * 60 * MINUTE);
        expect(await round()).toEqual([]);
      }
      const recorded = await remindersRecorded(store(), principal.organizationId, eventId);
      expect([...recorded.values()]).toEqual([1, 1, 1]);
      for (const request of waiting) {
        const mails = await reminderMails(store(), request.venueEmail);
        expect(mails).toHaveLength(1);
        expect(mails[0]!.subject).toBe('Reminder: proposal due 12 May 2027: Summit 1 (Demo organization)');
        expect(mails[0]!.text).toContain('due by 12 May 2027');
        const read = await getVenueRequest(deps, apiKeyRequester(principal), eventId, request.requestId);
        expect(read).toMatchObject({ status: 'sent', remindedAt: new Date(MOMENT + 30_000).toISOString() });
        expect(read).not.toHaveProperty('reminderSettledAt');
      }
      const changes = await store().events.changes(principal.organizationId, eventId, { limit: 1 });
      expect(changes[0]).toMatchObject({
        type: 'venue_request.reminded',
        actor: { type: 'system' },
        changedFields: [],
        data: { requestId: expect.any(String), venueId: expect.any(String), responseDueDate: DUE },
      });
    });

    it('never reminds a request the venue answered, or one whose event no longer asks venues', async () => {
      at(Date.parse('2027-05-03T10:00:00.000Z'));
      const [proposed, turnedDown] = await sendWaitingRequests(deps, principal, {
        count: 2,
        responseDueDate: '2027-05-13',
      });
      await submitProposalFor(deps, apiKeyRequester(principal), proposed!.eventId, proposed!.requestId, {
        validUntil: '2027-06-01',
        meetingRoomRental: 500,
      });
      await withdrawVenueRequest(
        deps,
        apiKeyRequester(principal),
        turnedDown!.eventId,
        turnedDown!.requestId,
      );
      const [booked] = await sendWaitingRequests(deps, principal, {
        count: 1,
        responseDueDate: '2027-05-13',
      });
      await changeEventStatus(deps, booked!.eventId, 'booked');
      at(Date.parse('2027-05-11T09:05:00.000Z'));
      expect(await round()).toEqual([]);
      for (const request of [proposed!, turnedDown!, booked!]) {
        expect(await reminderMails(store(), request.venueEmail)).toEqual([]);
      }
    });

    it('leaves alone a request closed between the claim and the write: nothing written, the claim released', async () => {
      at(Date.parse('2027-05-04T10:00:00.000Z'));
      const [request] = await sendWaitingRequests(deps, principal, {
        count: 1,
        responseDueDate: '2027-05-14',
      });
      const before = await store().events.changes(principal.organizationId, request!.eventId, { limit: 100 });
      // The planner withdraws the request after the round claimed it, before its write.
      const closing: ScheduledTask = {
        name: reminders.name,
        due: (...args) => reminders.due(...args),
        async run(runDeps, subject) {
          await withdrawVenueRequest(runDeps, apiKeyRequester(principal), subject.eventId, subject.id);
          return reminders.run(runDeps, subject);
        },
      };
      at(Date.parse('2027-05-12T09:00:00.000Z'));
      expect((await round([closing])).map((report) => report.outcome)).toEqual(['not_due']);
      const after = await store().events.changes(principal.organizationId, request!.eventId, { limit: 100 });
      expect(after.map((change) => change.type)).toEqual([
        'venue_request.withdrawn',
        ...before.map((change) => change.type),
      ]);
      expect(await reminderMails(store(), request!.venueEmail)).toEqual([]);
      // Released: a later round finds nothing (the request is withdrawn), and claims nothing again.
      expect(await round()).toEqual([]);
    });

    it('gives no reminder to a request sent after its reminder’s moment, and settles it', async () => {
      at(Date.parse('2027-05-14T15:00:00.000Z'));
      const [late] = await sendWaitingRequests(deps, principal, { count: 1, responseDueDate: '2027-05-15' });
      at(Date.parse('2027-05-14T15:01:00.000Z'));
      expect((await round()).map((report) => report.outcome)).toEqual(['done']);
      expect(await reminderMails(store(), late!.venueEmail)).toEqual([]);
      expect((await remindersRecorded(store(), principal.organizationId, late!.eventId)).size).toBe(0);
      const read = await getVenueRequest(deps, apiKeyRequester(principal), late!.eventId, late!.requestId);
      expect(read.remindedAt).toBeNull();
      expect(await round()).toEqual([]);
    });

    it('skips a request another instance holds until the lease runs out, then reminds it once', async () => {
      at(Date.parse('2027-05-15T10:00:00.000Z'));
      const [held] = await sendWaitingRequests(deps, principal, { count: 1, responseDueDate: '2027-05-19' });
      at(Date.parse('2027-05-17T09:00:00.000Z'));
      const now = clock.now();
      const subjects = await reminders.due(deps, now, 10);
      expect(subjects.map((subject) => subject.id)).toEqual([held!.requestId]);
      // Another instance claims it for five minutes, then dies before its write.
      const [claim] = await store().schedule.claim(
        RFP_REMINDERS,
        subjects,
        now.toISOString(),
        new Date(now.getTime() + 5 * MINUTE).toISOString(),
      );
      expect(claim).toBeDefined();
      expect(
        await store().schedule.claim(RFP_REMINDERS, subjects, now.toISOString(), now.toISOString()),
      ).toEqual([]);
      clock.advance(4 * MINUTE);
      expect(await round()).toEqual([]);
      clock.advance(1 * MINUTE);
      expect((await round()).map((report) => report.outcome)).toEqual(['done']);
      // The dead instance's claim is gone: releasing it changes nothing.
      await store().schedule.release(claim!);
      expect(await round()).toEqual([]);
      expect(await reminderMails(store(), held!.venueEmail)).toHaveLength(1);
    });

    it('writes one reminder when two runs of the same request meet in the write', async () => {
      at(Date.parse('2027-05-18T10:00:00.000Z'));
      const [request] = await sendWaitingRequests(deps, principal, {
        count: 1,
        responseDueDate: '2027-05-22',
      });
      at(Date.parse('2027-05-20T09:00:00.000Z'));
      const subject = {
        organizationId: principal.organizationId,
        eventId: request!.eventId,
        id: request!.requestId,
      };
      const outcomes = await Promise.all([reminders.run(deps, subject), reminders.run(deps, subject)]);
      expect(outcomes.sort()).toEqual(['done', 'not_due']);
      expect(await reminderMails(store(), request!.venueEmail)).toHaveLength(1);
      expect([
        ...(await remindersRecorded(store(), principal.organizationId, request!.eventId)).values(),
      ]).toEqual([1]);
    });

    it('runs no reminder task with RFP_REMINDER_DAYS 0, and one a day earlier with 3', async () => {
      expect(scheduledTasks({ rfpReminderDays: 0 })).toEqual([]);
      at(Date.parse('2027-05-21T10:00:00.000Z'));
      const [request] = await sendWaitingRequests(deps, principal, {
        count: 1,
        responseDueDate: '2027-05-28',
      });
      const threeDays = scheduledTasks({ rfpReminderDays: 3 });
      at(Date.parse('2027-05-25T08:59:00.000Z'));
      expect(await round(threeDays)).toEqual([]);
      clock.advance(DAY / 24 / 60);
      expect((await round(threeDays)).map((report) => report.outcome)).toEqual(['done']);
      expect(await reminderMails(store(), request!.venueEmail)).toHaveLength(1);
    });

    describe('the reminder mail', () => {
      it('shows what was typed as text and keeps line breaks out of its headers', async () => {
        at(Date.parse('2027-05-22T10:00:00.000Z'));
        const [request] = await sendWaitingRequests(deps, principal, {
          count: 1,
          responseDueDate: '2027-05-30',
          eventName: 'Offsite <b>2027</b>\r\nBcc: evil@example.com',
          venueName: 'Hotel <script>x</script>',
        });
        at(Date.parse('2027-05-28T09:00:00.000Z'));
        await round();
        const [mail] = await reminderMails(store(), request!.venueEmail);
        expect(mail!.subject).not.toMatch(/[\r\n]/);
        expect(mail!.to.name).toBe('Hotel <script>x</script>');
        expect(mail!.html).not.toContain('<script>');
        expect(mail!.html).toContain('Hotel &lt;script&gt;x&lt;/script&gt;');
        expect(mail!.replyTo?.address).toBe('planner@example.com');
      });
    });

    describe('a reply date moved (D28)', () => {
      it('tells the venue, re-arms the reminder for the new date, and judges overdue and late on it', async () => {
        const planner = apiKeyRequester(principal);
        at(Date.parse('2027-06-01T10:00:00.000Z'));
        const [request] = await sendWaitingRequests(deps, principal, {
          count: 1,
          responseDueDate: '2027-06-05',
        });
        const { eventId, requestId, venueEmail } = request!;
        at(Date.parse('2027-06-03T09:00:00.000Z'));
        expect((await round()).map((report) => report.outcome)).toEqual(['done']);

        at(Date.parse('2027-06-03T10:00:00.000Z'));
        const moved = await moveReplyDate(deps, planner, eventId, requestId, {
          responseDueDate: '2027-06-10',
        });
        expect(moved).toMatchObject({ responseDueDate: '2027-06-10', remindedAt: null, overdue: false });
        const [told] = (await store().mail.list({ to: venueEmail, limit: 20 })).filter((mail) =>
          mail.subject.startsWith('New reply date'),
        );
        expect(told!.subject).toBe('New reply date 10 Jun 2027: Summit 1 (Demo organization)');
        expect(told!.text).toContain('from 5 Jun 2027 to 10 Jun 2027');
        expect(told!.text).toMatch(/\/rfp\/\w{32}/);
        const [record] = await store().events.changes(principal.organizationId, eventId, { limit: 1 });
        expect(record).toMatchObject({
          type: 'venue_request.due_date_changed',
          actor: { type: 'api_key' },
          data: { requestId, responseDueDate: '2027-06-10', previousResponseDueDate: '2027-06-05' },
        });
        // The same date again writes nothing.
        await moveReplyDate(deps, planner, eventId, requestId, { responseDueDate: '2027-06-10' });
        expect(
          (await store().events.changes(principal.organizationId, eventId, { limit: 1 }))[0]!.sequence,
        ).toBe(record!.sequence);

        clock.advance(MINUTE);
        expect(await round()).toEqual([]);
        at(Date.parse('2027-06-08T09:00:00.000Z'));
        expect((await round()).map((report) => report.outcome)).toEqual(['done']);
        const reminded = await reminderMails(store(), venueEmail);
        expect(reminded.map((mail) => mail.subject).sort()).toEqual([
          'Reminder: proposal due 10 Jun 2027: Summit 1 (Demo organization)',
          'Reminder: proposal due 5 Jun 2027: Summit 1 (Demo organization)',
        ]);

        // 10 June has ended everywhere on Earth at 12:00 UTC on the 11th.
        at(Date.parse('2027-06-11T11:59:00.000Z'));
        expect((await getVenueRequest(deps, planner, eventId, requestId)).overdue).toBe(false);
        at(Date.parse('2027-06-11T12:00:00.000Z'));
        expect((await getVenueRequest(deps, planner, eventId, requestId)).overdue).toBe(true);
        const proposal = await submitProposalFor(deps, planner, eventId, requestId, {
          validUntil: '2027-07-01',
          meetingRoomRental: 500,
        });
        expect(proposal).toMatchObject({ late: true, requestVersion: 1 });
        const answered = await getVenueRequest(deps, planner, eventId, requestId);
        expect(answered).toMatchObject({ status: 'proposed', overdue: false, proposal: { late: true } });

        await expect(
          moveReplyDate(deps, planner, eventId, requestId, { responseDueDate: '2027-06-10' }),
        ).rejects.toMatchObject({ code: 'validation_failed' });
        await withdrawVenueRequest(deps, planner, eventId, requestId);
        await expect(
          moveReplyDate(deps, planner, eventId, requestId, { responseDueDate: '2027-06-20' }),
        ).rejects.toMatchObject({ code: 'request_closed' });
      });
    });
  });
}

// Registered in the postgres project only, so it runs once.
const onPostgres =
  process.env.TEST_BACKEND === 'postgres'
    ? (name: string, body: () => void) => describeWithService('postgres', name, body)
    : () => undefined;
onPostgres('two schedulers on one PostgreSQL database', () => {
  let schema: Scratch;
  const stores: Store[] = [];
  const clock = testClock('2027-05-01T10:00:00.000Z');
  let principal: Principal;

  beforeAll(async () => {
    schema = await createTestSchema();
    for (let i = 0; i < 2; i++) stores.push(openPostgresStore({ url: schema.url, poolSize: 4 }));
    await stores[0]!.migrate();
    const demo = await createDemo({ store: stores[0]!, clock, ids: randomIds });
    principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await schema?.drop();
  });

  it('sends each reminder once between them, both taking part, every claim released', async () => {
    const deps: AppDeps[] = stores.map((store) => ({ store, clock, ids: randomIds }));
    const waiting = await sendWaitingRequests(deps[0]!, principal, {
      count: 120,
      responseDueDate: '2027-05-12',
    });
    clock.advance(Date.parse('2027-05-10T09:00:00.000Z') - clock.now().getTime());
    const runsBy: TaskRunReport[][] = [[], []];
    const schedulers = deps.map((instance, index) =>
      createScheduler(instance, {
        tasks: [rfpReminders({ rfpReminderDays: 2 })!],
        intervalMs: 5,
        concurrency: 4,
        onRun: (report) => runsBy[index]!.push(report),
      }),
    );
    for (const scheduler of schedulers) scheduler.start();
    const done = () => runsBy[0]!.length + runsBy[1]!.length;
    for (let i = 0; i < 1500 && done() < waiting.length; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // A few more rounds on both, with nothing left to do.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const scheduler of schedulers) await scheduler.stop();

    const events = [...new Set(waiting.map((request) => request.eventId))];
    const counts: number[] = [];
    for (const eventId of events) {
      counts.push(...(await remindersRecorded(stores[0]!, principal.organizationId, eventId)).values());
    }
    expect(counts).toHaveLength(waiting.length);
    expect(counts.every((count) => count === 1)).toBe(true);
    for (const request of waiting.slice(0, 10)) {
      expect(await reminderMails(stores[1]!, request.venueEmail)).toHaveLength(1);
    }
    const mails = await stores[0]!.mail.list({ limit: 1000 });
    expect(mails.filter((mail) => mail.subject.startsWith('Reminder:'))).toHaveLength(waiting.length);
    // Both instances reminded some; any run found "not due" was one the other had just done.
    const doneBy = runsBy.map((runs) => runs.filter((run) => run.outcome === 'done').length);
    expect(doneBy.every((count) => count > 0)).toBe(true);
    expect(doneBy[0]! + doneBy[1]!).toBe(waiting.length);
    expect(runsBy.flat().some((run) => run.outcome === 'failed')).toBe(false);
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT COUNT(*)::int AS leases FROM scheduled_leases');
      expect(rows[0].leases).toBe(0);
    } finally {
      await client.end();
    }
  }, 120_000);
});
