/**
 * Who is told of an event's change by mail (D24): the people granted on the event, read before the
 * write with whether each is active and which notifications each switched off, and the change's
 * author in words. The mails themselves are composed in the domain (people-mail.ts) from what the
 * change made, and queued in its transaction (change-event.ts).
 */
import { type Actor, actorUserId } from '../domain/changes.js';
import type { PeopleAudience, Recipient } from '../domain/people-mail.js';
import type { AppDeps } from './deps.js';
import { mailSettings } from './mail.js';

/**
 * The people who may be told of a change of the event by `actor`: everyone granted on it, each with
 * their switches, only people of the event's own organization.
 */
export async function readAudience(
  deps: AppDeps,
  organizationId: string,
  eventId: string,
  actor: Actor,
): Promise<PeopleAudience> {
  const grantees = await deps.store.events.grantees(organizationId, eventId);
  const authorId = actorUserId(actor) ?? null;
  const [granted, author] = await Promise.all([
    Promise.all(
      grantees.map(async (grantee): Promise<Recipient | undefined> => {
        const [user, switchedOff] = await Promise.all([
          deps.store.identity.findUser(grantee.userId),
          deps.store.identity.switchedOffNotifications(organizationId, grantee.userId),
        ]);
        if (!user || user.organizationId !== organizationId) return undefined;
        return { userId: user.id, email: user.email, name: user.name, active: user.active, switchedOff };
      }),
    ),
    authorId === null ? undefined : deps.store.identity.findUser(authorId),
  ]);
  return {
    granted: granted.filter((person): person is Recipient => person !== undefined),
    actorUserId: authorId,
    actorName: author ? (author.name ?? author.email) : null,
    publicBaseUrl: mailSettings(deps).publicBaseUrl,
  };
}
