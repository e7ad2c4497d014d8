import { describe, expect, it } from 'vitest';
import { invitationMail, utcTime } from './invitation-mail.js';

describe('the invitation mail', () => {
  const invitation = {
    organizationName: 'Acme <Events>',
    person: { email: 'ana@example.com', name: 'Ana' },
    url: 'https://events.example.com/app/invite/abc123',
    expiresAt: '2027-05-12T09:30:00.000Z',
  };

  it('goes to the person with the link, when it expires, and what to do if unexpected', () => {
    const mail = invitationMail(invitation);
    expect(mail.to).toEqual({ address: 'ana@example.com', name: 'Ana' });
    expect(mail.replyTo).toBeNull();
    expect(mail.subject).toBe('Choose your password for eventplan (Acme <Events>)');
    expect(mail.text).toContain('Hello Ana,');
    expect(mail.text).toContain('Choose your password:\nhttps://events.example.com/app/invite/abc123');
    expect(mail.text).toContain('until 12 May 2027, 09:30 UTC');
    expect(mail.text).toContain('ignore this message');
    expect(mail.html).toContain('href="https://events.example.com/app/invite/abc123"');
    expect(mail.html).toContain('Acme &lt;Events&gt; plans its events');
  });

  it('greets a person without a name by their address', () => {
    expect(invitationMail({ ...invitation, person: { email: 'ana@example.com', name: null } }).text).toMatch(
      /^Hello ana@example\.com,/,
    );
  });

  it('writes times in UTC, day first', () => {
    expect(utcTime('2027-01-03T17:05:59.123Z')).toBe('3 Jan 2027, 17:05 UTC');
  });
});
