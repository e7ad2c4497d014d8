/**
 * The mail transport over SMTP, with nodemailer: `smtp://` (STARTTLS when the server offers it) or
 * `smtps://` (TLS from the start), credentials in the URL. Connections are pooled and reused.
 */
import nodemailer from 'nodemailer';
import type { MailAddress } from '../../domain/mail.js';
import type { MailTransport } from '../../ports/mail-transport.js';

export interface SmtpTransportOptions {
  /** SMTP_URL, as checked by config.ts. */
  url: string;
  /** Connections open at once: the dispatcher's attempts in flight. */
  maxConnections: number;
}

/** Time allowed to open a connection and to get the server's greeting, and the longest silence after. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

const mailbox = (address: MailAddress) => ({ name: address.name ?? '', address: address.address });

interface SmtpError {
  code?: string;
  responseCode?: number;
  message?: string;
}

export function createSmtpTransport(options: SmtpTransportOptions): MailTransport {
  const transporter = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.maxConnections,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // Mail is made from text only: never read a file or fetch a URL to build a message.
    disableFileAccess: true,
    disableUrlAccess: true,
    // Nodemailer's own log would carry addresses and message parts.
    logger: false,
    debug: false,
  });
  return {
    async send(mail, timeoutMs) {
      try {
        const info = await transporter.sendMail({
          from: mailbox(mail.from),
          to: mailbox(mail.to),
          ...(mail.replyTo === null ? {} : { replyTo: mailbox(mail.replyTo) }),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { ...mail.headers },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (info.rejected.length > 0) {
          return { kind: 'failed', error: `recipient refused: ${info.response}`, reason: 'EENVELOPE' };
        }
        return { kind: 'sent' };
      } catch (error) {
        const { code, responseCode, message } = (error ?? {}) as SmtpError;
        const reason = [code ?? 'ERROR', responseCode === undefined ? '' : `SMTP ${responseCode}`]
          .filter(Boolean)
          .join(' ');
        return { kind: 'failed', error: String(message ?? error).slice(0, 1000), reason };
      }
    },
    async close() {
      transporter.close();
    },
  };
}
