/** The mail that carries a "Forgot password" link: a single-use link, valid one hour, to choose a new password. */
import { utcTime } from './invitation-mail.js';
import type { ComposedMail } from './mail.js';
import { composeMail } from './mail-content.js';

export interface PasswordReset {
  organizationName: string;
  person: { email: string; name: string | null };
  /** The single-use link where the person chooses a new password. */
  url: string;
  /** When the link stops working (ISO 8601). */
  expiresAt: string;
}

export function passwordResetMail(reset: PasswordReset): ComposedMail {
  const { person } = reset;
  return composeMail({
    to: { address: person.email, name: person.name },
    content: {
      subject: `Choose a new password for eventplan (${reset.organizationName})`,
      greeting: `Hello ${person.name ?? person.email},`,
      paragraphs: [
        `Someone asked for a new password for ${person.email} on ${reset.organizationName}'s planning dashboard. If it was you, choose a new one with the link below: every browser signed in with the old password will be signed out.`,
      ],
      action: { label: 'Choose a new password', url: reset.url },
      closing: [
        `The link works once, until ${utcTime(reset.expiresAt)}. A newer request replaces it.`,
        'If you did not ask, ignore this message: your password stays as it is.',
      ],
    },
  });
}
