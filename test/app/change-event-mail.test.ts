/**
 * The one change step carries mail (D25): mails a domain change makes are queued in the outbox in the
 * event write's transaction, so they exist exactly when the change committed. On every backend.
 */
import { beforeAll, expect, it } from 'vitest';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { type ChangeOutcome, changeEvent, type EventChange, OPERATOR } from '../../src/app/change-event.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createEvent } from '../../src/app/events.js';
import { createDemo } from '../../src/app/organizations.js';
import { ConflictError, PreconditionFailedError } from '../../src/domain/errors.js';
import { composeMail } from '../../src/domain/mail-content.js';
import { BACKENDS, describeStore } from '../contract/backends.js';

/** A change that renames the event and tells a venue about it by mail; `refuse` makes it throw instead. */
const RENAME_AND_TELL: EventChange<{ name: string; refuse?: boolean }> = {
  apply(current, input, context): ChangeOutcome {
    if (input.refuse) throw new ConflictError('Refused by the change.');
    return {
      event: { ...current, details: { ...current.details, name: input.name, updatedAt: context.now } },
      mails: [
        composeMail({
          to: { address: 'venue@example.com', name: 'Hotel Central' },
          content: {
            subject: `Now called ${input.name}`,
            greeting: 'Hello,',
            paragraphs: ['The event was renamed.'],
          },
        }),
      ],
    };
  },
};

for (const backend of BACKENDS) {
  describeStore(backend, 'an event change that carries mail', (store) => {
    let deps: AppDeps;
    let organizationId: string;
    let eventId: string;
    const mailsTo = async (subject: string) =>
      (await store().mail.list({ to: 'venue@example.com', limit: 100 })).filter(
        (mail) => mail.subject === subject,
      );

    beforeAll(async () => {
      deps = {
        store: store(),
        clock: systemClock,
        ids: randomIds,
        mail: {
          from: { address: 'events@eventplan.example', name: null },
          publicBaseUrl: 'https://x.example',
        },
      };
      const demo = await createDemo(deps);
      organizationId = demo.organizationId;
      eventId = (
        await createEvent(
          deps,
          { organizationId, userId: demo.userId, keyId: demo.keyId },
          { name: 'Offsite' },
        )
      ).id;
    });

    it('queues the mails of a committed change, in its organization, pending and with their Message-ID', async () => {
      await changeEvent(deps, OPERATOR, eventId, RENAME_AND_TELL, { name: 'Summit' });
      const [mail] = await mailsTo('Now called Summit');
      expect(mail).toMatchObject({
        organizationId,
        status: 'pending',
        to: { address: 'venue@example.com', name: 'Hotel Central' },
        messageId: `<${mail!.id}@eventplan.example>`,
      });
      expect((await store().events.find(organizationId, eventId))?.details.name).toBe('Summit');
    });

    it('queues nothing when the change is refused or its precondition no longer holds', async () => {
      await expect(
        changeEvent(deps, OPERATOR, eventId, RENAME_AND_TELL, { name: 'Refused', refuse: true }),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(
        changeEvent(
          deps,
          OPERATOR,
          eventId,
          RENAME_AND_TELL,
          { name: 'Stale' },
          { ifMatch: '"not-the-etag"' },
        ),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(await mailsTo('Now called Refused')).toEqual([]);
      expect(await mailsTo('Now called Stale')).toEqual([]);
      expect((await store().events.find(organizationId, eventId))?.details.name).toBe('Summit');
    });
  });
}
