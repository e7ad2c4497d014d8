/**
 * A mail's words as plain data, and the two parts made from them: plain text, and HTML in which
 * every value is escaped, so markup that people typed (an event's or a venue's name) shows as text.
 */
import { ValidationError } from './errors.js';
import { type ComposedMail, type MailAddress, mailbox, subjectLine } from './mail.js';

/** A labelled value shown in a short table, such as "Dates: 12–14 May 2027". */
export interface MailFact {
  label: string;
  value: string;
}

/** The one thing the mail asks its reader to do: open this link. */
export interface MailAction {
  label: string;
  url: string;
}

export interface MailContent {
  subject: string;
  /** The opening line, such as "Hello Ana,". */
  greeting: string;
  /** Paragraphs of plain text; a line break inside one is kept. */
  paragraphs: readonly string[];
  facts?: readonly MailFact[];
  action?: MailAction;
  /** Paragraphs after the action: how long the link works, what to do with an unexpected mail. */
  closing?: readonly string[];
  /** How to stop mails of this kind: a sentence and the page where the person switches them off. */
  optOut?: MailOptOut;
}

/** The line every notification ends with (D24): what to open to receive no more of them. */
export interface MailOptOut {
  text: string;
  url: string;
}

const FOOTER = 'This message was sent automatically by eventplan.';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe inside HTML, in an element or in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** An absolute http(s) link with nothing in it that could end an attribute or a line. */
function checkLink(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || /[\s"'<>]/.test(url)) {
    throw new ValidationError([
      { field: 'link', code: 'invalid_format', message: 'must be an absolute http:// or https:// URL' },
    ]);
  }
  return url;
}

/** Facts on one line each, whatever their values hold. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function renderText(content: MailContent): string {
  const blocks: string[] = [content.greeting, ...content.paragraphs];
  if (content.facts && content.facts.length > 0) {
    blocks.push(content.facts.map((fact) => `${oneLine(fact.label)}: ${oneLine(fact.value)}`).join('\n'));
  }
  if (content.action) blocks.push(`${content.action.label}:\n${content.action.url}`);
  blocks.push(...(content.closing ?? []));
  if (content.optOut) blocks.push(`${content.optOut.text}\n${content.optOut.url}`);
  return `${blocks.join('\n\n')}\n\n-- \n${FOOTER}\n`;
}

const paragraph = (text: string) => `<p>${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;

function renderHtml(content: MailContent, subject: string): string {
  const body: string[] = [paragraph(content.greeting), ...content.paragraphs.map(paragraph)];
  if (content.facts && content.facts.length > 0) {
    const rows = content.facts.map(
      (fact) =>
        `<tr><th scope="row" style="text-align:left;padding:2px 12px 2px 0;vertical-align:top">${escapeHtml(oneLine(fact.label))}</th><td style="padding:2px 0">${escapeHtml(oneLine(fact.value))}</td></tr>`,
    );
    body.push(`<table style="border-collapse:collapse;margin:0 0 16px">${rows.join('')}</table>`);
  }
  if (content.action) {
    const href = escapeHtml(content.action.url);
    body.push(
      `<p><a href="${href}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(content.action.label)}</a></p>`,
      `<p style="font-size:13px;color:#555555">If the button does not work, copy this address into your browser:<br><a href="${href}" style="color:#1f4e8c;word-break:break-all">${href}</a></p>`,
    );
  }
  body.push(...(content.closing ?? []).map(paragraph));
  if (content.optOut) {
    const href = escapeHtml(content.optOut.url);
    body.push(
      `<p style="font-size:13px;color:#555555">${escapeHtml(content.optOut.text)}<br><a href="${href}" style="color:#1f4e8c;word-break:break-all">${href}</a></p>`,
    );
  }
  body.push(`<p style="font-size:12px;color:#666666">${escapeHtml(FOOTER)}</p>`);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;max-width:600px;margin:0 auto;padding:16px">',
    ...body,
    '</body></html>',
    '',
  ].join('\n');
}

/**
 * A mail to `to` (with `replyTo`, when answers should reach a person) made from `content`: the
 * subject and the names on one line, a plain-text part and an HTML part. An address that is not one
 * plain address, or a link that is not an absolute http(s) URL, is refused with a ValidationError
 * naming `to`, `replyTo` or `link`: line breaks from input never reach a header.
 */
export function composeMail(input: {
  to: MailAddress;
  replyTo?: MailAddress | null;
  content: MailContent;
}): ComposedMail {
  const { content } = input;
  const to = mailbox('to', input.to.address, input.to.name);
  const replyTo = input.replyTo ? mailbox('replyTo', input.replyTo.address, input.replyTo.name) : null;
  if (content.action) checkLink(content.action.url);
  if (content.optOut) checkLink(content.optOut.url);
  const subject = subjectLine(content.subject);
  return {
    to,
    replyTo,
    subject,
    text: renderText(content),
    html: renderHtml(content, subject),
  };
}
