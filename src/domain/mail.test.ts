import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import {
  AUTOMATIC_MAIL_HEADERS,
  addressDomain,
  headerText,
  mailAddressProblem,
  mailbox,
  messageIdFor,
  newOutboxMail,
  outgoingMail,
  parseMailbox,
  SUBJECT_MAX,
  subjectLine,
} from './mail.js';

const BREAKS = ['\r\n', '\n', '\r', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029', '\u0000'];

describe('header text', () => {
  it('turns every kind of line break and control character into one space', () => {
    for (const lineBreak of BREAKS) {
      expect(headerText(`Offsite${lineBreak}Bcc: someone@evil.example`)).toBe(
        'Offsite Bcc: someone@evil.example',
      );
    }
    expect(headerText('  Board\r\n\r\n offsite\t2027 ')).toBe('Board offsite 2027');
  });

  it('keeps a subject on one line and cuts a very long one with an ellipsis', () => {
    expect(subjectLine('Offsite\r\nX-Injected: yes')).toBe('Offsite X-Injected: yes');
    const long = subjectLine('a'.repeat(SUBJECT_MAX + 50));
    expect(long).toHaveLength(SUBJECT_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('mail addresses', () => {
  it('accepts plain addresses, internationalized ones included', () => {
    for (const address of [
      'ana@example.com',
      'first.last+events@sub.example.co.uk',
      'eventplan@localhost',
      "o'brien@example.ie",
      'josé@exämple.de',
    ]) {
      expect(mailAddressProblem(address), address).toBeUndefined();
    }
  });

  it('refuses anything that could end a header or smuggle in another address', () => {
    for (const address of [
      'ana@example.com\r\nBcc: evil@example.com',
      'ana@example.com\n',
      'ana@exa\u2028mple.com',
      'ana@example.com, evil@example.com',
      'Ana <ana@example.com>',
      '"ana"@example.com',
      'ana example@example.com',
      'ana@@example.com',
      'ana@',
      '@example.com',
      'ana',
      '.ana@example.com',
      'a..na@example.com',
      'ana@example..com',
      'ana@-example.com',
      `${'a'.repeat(65)}@example.com`,
      `ana@${'a'.repeat(250)}.com`,
    ]) {
      expect(mailAddressProblem(address), JSON.stringify(address)).toBeDefined();
    }
  });

  it('refuses a recipient with a line break, naming the field, and keeps a name on one line', () => {
    expect(() => mailbox('to', 'ana@example.com\r\nBcc: evil@example.com')).toThrow(ValidationError);
    let refusal: unknown;
    try {
      mailbox('replyTo', 'planner@example.com\n');
    } catch (error) {
      refusal = error;
    }
    expect((refusal as ValidationError).problems).toEqual([
      expect.objectContaining({ field: 'replyTo', code: 'invalid_format' }),
    ]);
    expect(mailbox('replyTo', 'planner@example.com', 'Ana\r\nBcc: evil@example.com')).toEqual({
      address: 'planner@example.com',
      name: 'Ana Bcc: evil@example.com',
    });
    expect(mailbox('to', 'ana@example.com', ' \n ')).toEqual({ address: 'ana@example.com', name: null });
  });

  it('reads MAIL_FROM as a name with an address, a quoted name, or a bare address', () => {
    expect(parseMailbox('eventplan <eventplan@localhost>')).toEqual({
      name: 'eventplan',
      address: 'eventplan@localhost',
    });
    expect(parseMailbox('"Events, Inc. \\"HQ\\"" <events@example.com>')).toEqual({
      name: 'Events, Inc. "HQ"',
      address: 'events@example.com',
    });
    expect(parseMailbox('events@example.com')).toEqual({ name: null, address: 'events@example.com' });
    expect(parseMailbox('<events@example.com>')).toEqual({ name: null, address: 'events@example.com' });
    for (const bad of [
      '',
      'eventplan',
      'a <b>',
      'x <a@b.com',
      'x\n<a@b.com>',
      'a@b.com\r\nBcc: c@d.com',
      'x" <a@b.com>',
    ]) {
      expect(parseMailbox(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('names only the domain of a recipient, for logs', () => {
    expect(addressDomain('Ana.Lopez@Example.COM')).toBe('example.com');
  });
});

describe('outbox mails', () => {
  const from = { address: 'events@example.com', name: 'Events' };
  const composed = {
    to: { address: 'ana@example.com', name: 'Ana' },
    replyTo: { address: 'planner@example.com', name: 'Planner' },
    subject: 'Hello',
    text: 'Hi',
    html: '<p>Hi</p>',
  };

  it('gets a Message-ID from its id at the sender domain, ASCII only', () => {
    expect(messageIdFor('0b7f3c52', from)).toBe('<0b7f3c52@example.com>');
    expect(messageIdFor('0b7f3c52', { address: 'a@exämple.de', name: null })).toBe(
      '<0b7f3c52@eventplan.invalid>',
    );
  });

  it('starts pending and due at once', () => {
    const mail = newOutboxMail(composed, {
      organizationId: 'org',
      id: 'mail-1',
      now: '2027-01-01T00:00:00.000Z',
      from,
    });
    expect(mail).toMatchObject({
      messageId: '<mail-1@example.com>',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: '2027-01-01T00:00:00.000Z',
      sentAt: null,
    });
  });

  it('goes out with its Message-ID, From and Auto-Submitted, every header on one line', () => {
    const stored = {
      ...newOutboxMail(composed, {
        organizationId: 'org',
        id: 'mail-1',
        now: '2027-01-01T00:00:00.000Z',
        from,
      }),
      // As if written by hand into the store: the message is made single-line again.
      subject: 'Hello\r\nBcc: evil@example.com',
      replyTo: { address: 'planner@example.com', name: 'Planner\nX-Injected: 1' },
    };
    const message = outgoingMail(stored, from);
    expect(message).toMatchObject({
      from,
      to: composed.to,
      subject: 'Hello Bcc: evil@example.com',
      replyTo: { address: 'planner@example.com', name: 'Planner X-Injected: 1' },
      messageId: '<mail-1@example.com>',
      text: 'Hi',
      html: '<p>Hi</p>',
    });
    expect(message.headers).toEqual(AUTOMATIC_MAIL_HEADERS);
    expect(AUTOMATIC_MAIL_HEADERS['Auto-Submitted']).toBe('auto-generated');
  });
});
