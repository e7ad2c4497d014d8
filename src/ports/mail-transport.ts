/** How mail leaves eventplan: one SMTP submission per attempt (D25). */
import type { OutgoingMail } from '../domain/mail.js';

export type MailSendOutcome =
  | { kind: 'sent' }
  | {
      kind: 'failed';
      /** What went wrong, as the SMTP server or the connection said it: kept with the mail. */
      error: string;
      /** A short code that names no person (`ECONNECTION`, `SMTP 421`, …): what logs may show. */
      reason: string;
    };

export interface MailTransport {
  /** Sends one message, giving up after `timeoutMs`. Never throws. */
  send(mail: OutgoingMail, timeoutMs: number): Promise<MailSendOutcome>;
  close(): Promise<void>;
}
