import { describe, expect, it } from 'vitest';
import { passwordResetMail } from './password-reset-mail.js';

describe('the password reset mail', () => {
  const reset = {
    organizationName: 'Acme <Events>',
    person: { email: 'ana@example.com', name: 'Ana' },
    url: 'https://events.example.com/app/reset-password?token=abc123',
    expiresAt: '2027-05-12T09:30:00.000Z',
  };

  it('goes to the person with the single-use link, when it expires, and what to do if they did not ask', () => {
    const mail = passwordResetMail(reset);
    expect(mail.to).toEqual({ address: 'ana@example.com', name: 'Ana' });
    expect(mail.subject).toBe('Choose a new password for eventplan (Acme <Events>)');
    expect(mail.text).toContain(
      'Choose a new password:\nhttps://events.example.com/app/reset-password?token=abc123',
    );
    expect(mail.text).toContain('The link works once, until 12 May 2027, 09:30 UTC.');
    expect(mail.text).toContain('your password stays as it is');
    expect(mail.html).toContain('href="https://events.example.com/app/reset-password?token=abc123"');
    expect(mail.html).toContain('Acme &lt;Events&gt;');
  });
});
