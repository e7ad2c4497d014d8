/** The mail outbox contract (D25), run on every backend: mails stored with their change, claimed, recorded. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/domain/errors.js';
import { newOutboxMail, type OutboxMail } from '../../src/domain/mail.js';
import { composeMail } from '../../src/domain/mail-content.js';
import type { StoredEvent } from '../../src/domain/types.js';
import { IdempotencyKeyTakenError } from '../../src/ports/idempotency-repository.js';
import type { MailAttempt } from '../../src/ports/mail-outbox.js';
import { BACKENDS, describeStore } from './backends.js';
import {
  createWrite,
  insertEvent,
  newEvent,
  newOrganization,
  newUser,
  nextTime,
  rewrite,
} from './fixtures.js';

const from = { address: 'eventplan@example.com', name: 'eventplan' };

/** A mail as a use case would queue it, created at `createdAt` and due then. */
function newMail(organizationId: string, to: string, createdAt = nextTime()): OutboxMail {
  return newOutboxMail(
    composeMail({
      to: { address: to, name: 'Someone' },
      replyTo: { address: 'planner@example.com', name: 'Planner' },
      content: {
        subject: `Mail to ${to}`,
        greeting: 'Hello,',
        paragraphs: ['Something happened.'],
        action: { label: 'Open', url: 'https://eventplan.example.com/rfp/secret-token' },
      },
    }),
    { organizationId, id: randomUUID(), now: createdAt, from },
  );
}

const later = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

for (const backend of BACKENDS) {
  describeStore(backend, 'mail outbox', (store) => {
    let org: string;
    let planner: string;

    beforeAll(async () => {
      org = await newOrganization(store());
      planner = await newUser(store(), org);
    });

    const withMails = (current: StoredEvent, mails: OutboxMail[], name: string) => ({
      ...rewrite(current, { ...current, details: { ...current.details, name, updatedAt: nextTime() } }),
      mails,
    });

    describe('written with the change it tells of', () => {
      it('stores the mails of an event create and of an update with them', async () => {
        const event = newEvent(org, planner);
        const created = newMail(org, 'created@example.com');
        await store().events.insert({ ...createWrite(event), mails: [created] });
        const updated = [newMail(org, 'a@example.com'), newMail(org, 'b@example.com')];
        await store().events.update(org, event.details.id, (current) =>
          withMails(current, updated, 'Renamed'),
        );
        for (const mail of [created, ...updated]) {
          expect(await store().mail.find(org, mail.id)).toEqual(mail);
        }
      });

      it('stores none when the create is refused (its idempotency key is taken)', async () => {
        const key = { key: randomUUID(), requestHash: 'hash', expiredBefore: '2000-01-01T00:00:00.000Z' };
        await insertEvent(store(), newEvent(org, planner), key);
        const refused = newEvent(org, planner);
        const mail = newMail(org, 'refused@example.com');
        await expect(
          store().events.insert({ ...createWrite(refused), mails: [mail] }, key),
        ).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
        expect(await store().events.find(org, refused.details.id)).toBeUndefined();
        expect(await store().mail.find(org, mail.id)).toBeUndefined();
      });

      it('stores none when the update is refused or writes nothing', async () => {
        const event = newEvent(org, planner);
        await insertEvent(store(), event);
        const mail = newMail(org, 'refused@example.com');
        const refusal = new ConflictError('no');
        await expect(
          store().events.update(org, event.details.id, (current) => {
            withMails(current, [mail], 'Never written');
            throw refusal;
          }),
        ).rejects.toBe(refusal);
        await store().events.update(org, event.details.id, () => undefined);
        expect(await store().mail.find(org, mail.id)).toBeUndefined();
        expect((await store().events.find(org, event.details.id))?.details.name).toBe(event.details.name);
      });

      it('stores exactly the mails of the writes that committed when many race for one event', async () => {
        const event = newEvent(org, planner);
        await insertEvent(store(), event);
        // Each attempt makes new mails; a write that lost its race and tried again must leave only its last.
        const attempted: OutboxMail[] = [];
        await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            store().events.update(org, event.details.id, (current) => {
              const mail = newMail(org, `race-${index}@example.com`);
              attempted.push(mail);
              return withMails(current, [mail], `${current.details.name}.`);
            }),
          ),
        );
        const stored = (await Promise.all(attempted.map((mail) => store().mail.find(org, mail.id)))).filter(
          (mail) => mail !== undefined,
        );
        expect(stored).toHaveLength(20);
        expect(new Set(stored.map((mail) => mail.to.address)).size).toBe(20);
        const changes = await store().events.changes(org, event.details.id, { limit: 100 });
        expect(changes).toHaveLength(21);
      });
    });

    describe('queued on its own', () => {
      it('stores every mail of one enqueue, reachable only through its organization', async () => {
        const mails = [newMail(org, 'one@example.com'), newMail(org, 'two@example.com')];
        await store().mail.enqueue(mails);
        expect(await store().mail.find(org, mails[0]!.id)).toEqual(mails[0]);
        expect(await store().mail.find(org, mails[1]!.id)).toEqual(mails[1]);
        const other = await newOrganization(store());
        expect(await store().mail.find(other, mails[0]!.id)).toBeUndefined();
      });

      it('lists newest first, by recipient compared case-insensitively, at most the limit', async () => {
        const to = `List.${randomUUID()}@Example.com`;
        const older = newMail(org, to, nextTime());
        const newer = newMail(org, to.toLowerCase(), nextTime());
        await store().mail.enqueue([older, newer, newMail(org, 'someone-else@example.com', nextTime())]);
        const listed = await store().mail.list({ to: to.toUpperCase(), limit: 10 });
        expect(listed.map((mail) => mail.id)).toEqual([newer.id, older.id]);
        expect(await store().mail.list({ to, limit: 1 })).toEqual([newer]);
        const all = await store().mail.list({ limit: 1000 });
        expect(all.map((mail) => mail.createdAt)).toEqual(
          [...all.map((mail) => mail.createdAt)].sort().reverse(),
        );
      });
    });

    describe('claimed and sent', () => {
      // Far in the future, so that only this block's mails are due.
      const start = '2090-01-01T00:00:00.000Z';
      let mail: OutboxMail;
      const attempt = (at: string, status: MailAttempt['status'], nextAttemptAt: string | null) => ({
        at,
        status,
        nextAttemptAt,
        error: status === 'sent' ? null : '421 4.7.0 Try again later',
      });

      beforeAll(async () => {
        // Everything queued by the tests above is settled first, so the claims below see only this mail.
        for (;;) {
          const claims = await store().mail.claimDue(later(start, -1), later(start, -1), 100);
          if (claims.length === 0) break;
          for (const claim of claims) await store().mail.recordAttempt(claim, attempt(start, 'failed', null));
        }
        mail = newMail(org, 'claimed@example.com', start);
        await store().mail.enqueue([mail]);
      });

      it('claims a due mail once until its lease runs out, and records only with the live claim', async () => {
        expect(await store().mail.claimDue(later(start, -1), later(start, 60), 10)).toEqual([]);
        const [claim] = await store().mail.claimDue(start, later(start, 60), 10);
        expect(claim?.mail).toEqual(mail);
        expect(await store().mail.claimDue(later(start, 1), later(start, 60), 10)).toEqual([]);
        // The lease ran out (its instance died mid-attempt): another claim takes it, and the first is void.
        const [again] = await store().mail.claimDue(later(start, 61), later(start, 120), 10);
        expect(again?.mail.id).toBe(mail.id);
        const retry = attempt(later(start, 62), 'pending', later(start, 100));
        expect(await store().mail.recordAttempt(claim!, retry)).toBe(false);
        expect(await store().mail.recordAttempt(again!, retry)).toBe(true);
        expect(await store().mail.find(org, mail.id)).toMatchObject({
          status: 'pending',
          attempts: 1,
          nextAttemptAt: later(start, 100),
          lastAttemptAt: later(start, 62),
          lastError: '421 4.7.0 Try again later',
          text: mail.text,
          sentAt: null,
        });
      });

      it('counts the pending mails and the oldest of them', async () => {
        const stats = await store().mail.stats();
        expect(stats.pending).toBeGreaterThanOrEqual(1);
        expect(stats.oldestPendingAt! <= start).toBe(true);
      });

      it('waits for the next attempt time, hands back a released claim, and erases text and HTML once sent', async () => {
        expect(await store().mail.claimDue(later(start, 99), later(start, 200), 10)).toEqual([]);
        const [claim] = await store().mail.claimDue(later(start, 100), later(start, 200), 10);
        await store().mail.release(claim!);
        const [again] = await store().mail.claimDue(later(start, 101), later(start, 200), 10);
        expect(again?.mail.id).toBe(mail.id);
        expect(await store().mail.recordAttempt(again!, attempt(later(start, 102), 'sent', null))).toBe(true);
        const sent = await store().mail.find(org, mail.id);
        expect(sent).toMatchObject({
          status: 'sent',
          attempts: 2,
          sentAt: later(start, 102),
          text: null,
          html: null,
          subject: mail.subject,
          to: mail.to,
          messageId: mail.messageId,
        });
        expect(await store().mail.claimDue(later(start, 1000), later(start, 2000), 10)).toEqual([]);
      });

      it('never claims a failed mail again', async () => {
        const failed = newMail(org, 'failed@example.com', later(start, 300));
        await store().mail.enqueue([failed]);
        const [claim] = await store().mail.claimDue(later(start, 300), later(start, 400), 10);
        expect(claim?.mail.id).toBe(failed.id);
        await store().mail.recordAttempt(claim!, attempt(later(start, 301), 'failed', null));
        expect(await store().mail.claimDue(later(start, 10_000), later(start, 20_000), 10)).toEqual([]);
        expect(await store().mail.find(org, failed.id)).toMatchObject({
          status: 'failed',
          text: failed.text,
        });
      });
    });
  });
}
