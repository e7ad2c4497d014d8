/** The mail that invites a person to the planning dashboard (D15's invite, sent by `user invite --send`). */
import type { ComposedMail } from './mail.js';
import { composeMail } from './mail-content.js';

export interface Invitation {
  organizationName: string;
  person: { email: string; name: string | null };
  /** The single-use link where the person chooses a password. */
  url: string;
  /** When the link stops working (ISO 8601). */
  expiresAt: string;
}

/** `2027-05-12T09:30:00.000Z` → `12 May 2027, 09:30 UTC`. */
export function utcTime(iso: string): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const [date = '', time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${Number(day)} ${months[Number(month) - 1]} ${year}, ${time.slice(0, 5)} UTC`;
}

export function invitationMail(invitation: Invitation): ComposedMail {
  const { person } = invitation;
  return composeMail({
    to: { address: person.email, name: person.name },
    content: {
      subject: `Choose your password for eventplan (${invitation.organizationName})`,
      greeting: `Hello ${person.name ?? person.email},`,
      paragraphs: [
        `${invitation.organizationName} plans its events with eventplan and has invited you to its planning dashboard. Choose a password to sign in with ${person.email}.`,
      ],
      action: { label: 'Choose your password', url: invitation.url },
      closing: [
        `The link works once, until ${utcTime(invitation.expiresAt)}. A newer invitation replaces it.`,
        'If you did not expect this invitation, ignore this message: nothing happens without the link.',
      ],
    },
  });
}
