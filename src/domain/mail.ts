/**
 * Mail (D25): addresses, header safety, a mail as composed and as kept in the outbox, and the
 * message a transport sends. Plain data and pure functions.
 */
import { ValidationError } from './errors.js';

/** One mailbox: an address and, when known, the name shown with it. */
export interface MailAddress {
  address: string;
  name: string | null;
}

/** What the service sends mail as, and where the links in mails lead (MAIL_FROM, PUBLIC_BASE_URL). */
export interface MailSettings {
  from: MailAddress;
  /** `http(s)://host[:port][/path]` without a trailing slash; links are this plus a path. */
  publicBaseUrl: string;
}

export const DEFAULT_MAIL_FROM = 'eventplan <eventplan@localhost>';
export const DEFAULT_MAIL_RETRY_SCHEDULE = '10s,1m,5m,30m,2h,6h,24h';

/** Every mail says it was sent by a program, so vacation responders and the like leave it alone (RFC 3834). */
export const AUTOMATIC_MAIL_HEADERS: Readonly<Record<string, string>> = {
  'Auto-Submitted': 'auto-generated',
};

/** A mail ready for the outbox: every header value is a single line, every part is complete. */
export interface ComposedMail {
  to: MailAddress;
  replyTo: MailAddress | null;
  subject: string;
  text: string;
  html: string;
}

/** `pending`: waiting for its next attempt; `sent`: the SMTP server accepted it; `failed`: no attempt is left. */
export type MailStatus = 'pending' | 'sent' | 'failed';

/** One mail in the outbox. Once sent, its text and HTML are erased (they may carry links that grant access). */
export interface OutboxMail {
  organizationId: string;
  id: string;
  /** `<id@domain>`: the same on every attempt, so a receiver can drop a duplicate. */
  messageId: string;
  to: MailAddress;
  replyTo: MailAddress | null;
  subject: string;
  text: string | null;
  html: string | null;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  /** Why the last attempt failed (the SMTP server's answer or the connection's error), or null. */
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The message as a transport sends it, From and the automatic headers included. */
export interface OutgoingMail {
  from: MailAddress;
  to: MailAddress;
  replyTo: MailAddress | null;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Readonly<Record<string, string>>;
}

/** Line breaks of every kind and the other control characters: none of them may reach a header. */
const UNSAFE_IN_HEADER = /[\p{Cc}\u2028\u2029]+/gu;
const HAS_UNSAFE_IN_HEADER = /[\p{Cc}\u2028\u2029]/u;
/** The longest subject kept; longer ones are cut, with an ellipsis. */
export const SUBJECT_MAX = 250;

/** Text typed by people made fit for a header: every line break or control character becomes a space. */
export function headerText(value: string): string {
  return value.replace(UNSAFE_IN_HEADER, ' ').replace(/\s+/g, ' ').trim();
}

/** Characters that may not appear in an address as eventplan accepts it (quoting and comments are not supported). */
const NOT_IN_ADDRESS = /[\s\p{Cc}\p{Cf}\u2028\u2029<>()[\]\\,;:"@]/u;

/**
 * Why `address` cannot be a recipient or sender, or undefined when it can: one `local@domain` of at
 * most 254 characters, a local part of at most 64, a domain of dot-separated labels; nothing that
 * could end a header or smuggle another address in.
 */
export function mailAddressProblem(address: string): string | undefined {
  if (address.length > 254) return 'must be at most 254 characters';
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return 'must be one address of the form name@domain';
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64) return 'must have at most 64 characters before the @';
  if (NOT_IN_ADDRESS.test(local) || NOT_IN_ADDRESS.test(domain)) {
    return 'must be one plain address, without spaces, line breaks, quotes, brackets or commas';
  }
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return 'must not start or end with a dot before the @, or have two dots in a row';
  }
  if (domain.split('.').some((label) => label === '' || label.startsWith('-') || label.endsWith('-'))) {
    return 'must have a domain of dot-separated names after the @';
  }
  return undefined;
}

/**
 * A mailbox from people's data: the address refused when it is not one plain address (a problem on
 * `field`), the name kept on one line. Throws ValidationError.
 */
export function mailbox(field: string, address: string, name?: string | null): MailAddress {
  const problem = mailAddressProblem(address);
  if (problem) throw new ValidationError([{ field, code: 'invalid_format', message: problem }]);
  const cleanName = name === undefined || name === null ? '' : headerText(name);
  return { address, name: cleanName === '' ? null : cleanName };
}

/**
 * `Name <address>` or a bare address (MAIL_FROM), the name optionally in double quotes; undefined
 * when it is neither.
 */
export function parseMailbox(text: string): MailAddress | undefined {
  if (HAS_UNSAFE_IN_HEADER.test(text)) return undefined;
  const trimmed = text.trim();
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(trimmed);
  let address: string;
  let name: string | null = null;
  if (named) {
    address = named[2]!.trim();
    const raw = named[1]!.trim();
    const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw);
    name = (quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : raw).trim() || null;
    if (!quoted && name !== null && /["<>]/.test(name)) return undefined;
  } else {
    address = trimmed;
  }
  if (mailAddressProblem(address)) return undefined;
  return { address, name };
}

/** The domain of an address, lower-cased: what logs may name of a recipient. */
export function addressDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** A Message-ID for a mail (RFC 5322): the mail's id at the sender's domain, ASCII only. */
export function messageIdFor(mailId: string, from: MailAddress): string {
  const domain = addressDomain(from.address);
  return `<${mailId}@${/^[a-z0-9.-]+$/.test(domain) ? domain : 'eventplan.invalid'}>`;
}

/** A subject on one line and of bounded length. */
export function subjectLine(subject: string): string {
  const line = headerText(subject);
  return line.length <= SUBJECT_MAX ? line : `${line.slice(0, SUBJECT_MAX - 1).trimEnd()}…`;
}

/** A composed mail, as the outbox keeps it until its first attempt. */
export function newOutboxMail(
  mail: ComposedMail,
  context: { organizationId: string; id: string; now: string; from: MailAddress },
): OutboxMail {
  return {
    organizationId: context.organizationId,
    id: context.id,
    messageId: messageIdFor(context.id, context.from),
    to: mail.to,
    replyTo: mail.replyTo,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: context.now,
    lastAttemptAt: null,
    lastError: null,
    createdAt: context.now,
    sentAt: null,
  };
}

/**
 * The message for one attempt at a mail of the outbox, from `from`: the stored parts, the mail's own
 * Message-ID, and the automatic headers. Every header value is made single-line again here, so
 * nothing stored by an older version or written by hand can carry a line break into a header.
 */
export function outgoingMail(mail: OutboxMail, from: MailAddress): OutgoingMail {
  const single = (address: MailAddress): MailAddress => ({
    address: headerText(address.address),
    name: address.name === null ? null : headerText(address.name) || null,
  });
  return {
    from: single(from),
    to: single(mail.to),
    replyTo: mail.replyTo === null ? null : single(mail.replyTo),
    subject: subjectLine(mail.subject),
    text: mail.text ?? '',
    html: mail.html ?? '',
    messageId: headerText(mail.messageId),
    headers: AUTOMATIC_MAIL_HEADERS,
  };
}
