/**
 * Mail as the use cases see it (D25): a composed mail made ready for the outbox, queued on its own or
 * carried by an event's write (`EventWrite.mails`), and the outbox as the operator lists it.
 */
import {
  type ComposedMail,
  DEFAULT_MAIL_FROM,
  type MailSettings,
  newOutboxMail,
  type OutboxMail,
  parseMailbox,
} from '../domain/mail.js';
import type { AppDeps } from './deps.js';

/** Where `serve` is reached when PUBLIC_BASE_URL is unset and nothing else is known (D1's defaults). */
export const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:3000';

const DEFAULTS: MailSettings = {
  from: parseMailbox(DEFAULT_MAIL_FROM)!,
  publicBaseUrl: DEFAULT_PUBLIC_BASE_URL,
};

export function mailSettings(deps: AppDeps): MailSettings {
  return deps.mail ?? DEFAULTS;
}

/** A composed mail as the outbox keeps it: a fresh id, its Message-ID, pending and due now. */
export function prepareMail(deps: AppDeps, organizationId: string, mail: ComposedMail): OutboxMail {
  return newOutboxMail(mail, {
    organizationId,
    id: deps.ids.uuid(),
    now: deps.clock.now().toISOString(),
    from: mailSettings(deps).from,
  });
}

/** Queues mails that no event's change carries (an invitation), in a transaction of their own. */
export async function queueMails(deps: AppDeps, mails: readonly OutboxMail[]): Promise<void> {
  await deps.store.mail.enqueue(mails);
}

/** Most mails `mail list` prints at once, newest first. */
export const MAIL_LIST_LIMIT = 100;

/**
 * The outbox as the operator reads it (`eventplan mail list`), newest first: with the embedded
 * default and no SMTP_URL, this is where a newcomer finds the links that mails would carry.
 */
export async function listMails(
  deps: AppDeps,
  query: { to?: string; limit?: number },
): Promise<{
  mails: Array<{
    id: string;
    to: string;
    subject: string;
    text: string | null;
    createdAt: string;
    sentAt: string | null;
  }>;
}> {
  const mails = await deps.store.mail.list({
    to: query.to?.trim() || undefined,
    limit: query.limit ?? MAIL_LIST_LIMIT,
  });
  return {
    mails: mails.map((mail) => ({
      id: mail.id,
      to: mail.to.address,
      subject: mail.subject,
      text: mail.text,
      createdAt: mail.createdAt,
      sentAt: mail.sentAt,
    })),
  };
}
