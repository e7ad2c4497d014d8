import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { composeMail, escapeHtml, type MailContent } from './mail-content.js';

const content: MailContent = {
  subject: 'Request for proposal: <b>Board</b> offsite',
  greeting: 'Hello <script>alert(1)</script>,',
  paragraphs: ['Acme & Co "plans" an event.\nSecond line.'],
  facts: [{ label: 'Event', value: '<img src=x onerror=alert(1)>\nsecond line' }],
  action: { label: 'Open the request', url: 'https://events.example.com/rfp/abc?x=1&y=2' },
  closing: ["If this is not for you, ignore it; it's fine."],
};
const to = { address: 'venue@example.com', name: 'Hotel <Central>' };

describe('composing a mail', () => {
  it('escapes every value in the HTML part, so markup people typed is text', () => {
    const { html } = composeMail({ to, content });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(html).toContain('Acme &amp; Co &quot;plans&quot; an event.<br>Second line.');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; second line');
    expect(html).toContain('<title>Request for proposal: &lt;b&gt;Board&lt;/b&gt; offsite</title>');
    expect(html).toContain('href="https://events.example.com/rfp/abc?x=1&amp;y=2"');
    expect(html).toContain('it&#39;s fine');
  });

  it('writes a plain-text part with the same words, the link in full and the facts on one line each', () => {
    const { text } = composeMail({ to, content });
    expect(text).toBe(
      [
        'Hello <script>alert(1)</script>,',
        '',
        'Acme & Co "plans" an event.\nSecond line.',
        '',
        'Event: <img src=x onerror=alert(1)> second line',
        '',
        'Open the request:\nhttps://events.example.com/rfp/abc?x=1&y=2',
        '',
        "If this is not for you, ignore it; it's fine.",
        '',
        '-- ',
        'This message was sent automatically by eventplan.',
        '',
      ].join('\n'),
    );
  });

  it('keeps the subject and the names on one line', () => {
    const mail = composeMail({
      to: { address: 'venue@example.com', name: 'Hotel\r\nBcc: evil@example.com' },
      replyTo: { address: 'planner@example.com', name: 'Ana\nBcc: evil@example.com' },
      content: { ...content, subject: 'Offsite\r\nBcc: evil@example.com' },
    });
    expect(mail.subject).toBe('Offsite Bcc: evil@example.com');
    expect(mail.to.name).toBe('Hotel Bcc: evil@example.com');
    expect(mail.replyTo!.name).toBe('Ana Bcc: evil@example.com');
  });

  it('refuses a recipient or reply-to address with a line break, naming the field', () => {
    const refused = (input: Parameters<typeof composeMail>[0]) => {
      try {
        composeMail(input);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).problems.map((problem) => problem.field);
      }
      return [];
    };
    expect(
      refused({ to: { address: 'venue@example.com\r\nBcc: evil@example.com', name: null }, content }),
    ).toEqual(['to']);
    expect(
      refused({ to, replyTo: { address: 'planner@example.com\nCc: evil@example.com', name: null }, content }),
    ).toEqual(['replyTo']);
  });

  it('refuses a link that is not an absolute http(s) URL', () => {
    for (const url of [
      'javascript:alert(1)',
      '/rfp/abc',
      'https://example.com/a"onclick="x',
      'https://exa mple.com',
    ]) {
      expect(() => composeMail({ to, content: { ...content, action: { label: 'Open', url } } }), url).toThrow(
        ValidationError,
      );
    }
  });

  it('escapes the five characters HTML gives meaning to', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
