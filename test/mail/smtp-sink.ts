/**
 * A real SMTP server inside the test process (smtp-server, from the nodemailer project) that keeps
 * every message it accepts, parsed with mailparser as a mail client would, and that can be told to
 * refuse (4xx, 5xx) or to stop listening.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO, as the server saw them. */
  envelope: { from: string; to: string[] };
  /** The message as it arrived, headers and body. */
  raw: string;
  /** The header section alone, as it arrived (folded lines and all). */
  head: string;
  parsed: ParsedMail;
  /** When the server accepted it (Date.now()). */
  at: number;
}

/** A message the server refused, with the code it answered. */
export interface RefusedMail {
  messageId: string;
  code: number;
  at: number;
}

export interface SmtpSink {
  /** smtp://user:password@127.0.0.1:port, for SMTP_URL. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves once `count` messages have been accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /**
   * Answers the next messages' DATA with these SMTP codes (e.g. 421, 451, 550), one per message, then
   * accepts again.
   */
  refuseNext(...codes: number[]): void;
  /** Decides every message from now on: an SMTP code to refuse it with, or undefined to accept it. */
  answerWith(decide: (message: { messageId: string; raw: string }) => number | undefined): void;
  /** Every message refused so far. */
  refused: RefusedMail[];
  close(): Promise<void>;
}

export const SMTP_USER = 'mailer';
/** Percent-encoded in the URL: the transport must decode it. */
export const SMTP_PASSWORD = 'p@ss:word/1';

/**
 * With `secure`, TLS from the first byte (smtps://) with smtp-server's built-in test certificate, which
 * the URL tells the client to accept (`tls.rejectUnauthorized=false`).
 */
export async function startSmtpSink(options: { port?: number; secure?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const refusals: number[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const refused: RefusedMail[] = [];
  let decide: (message: { messageId: string; raw: string }) => number | undefined = () => refusals.shift();
  const sink = { refused } as SmtpSink;
  const server = new SMTPServer({
    secure: options.secure ?? false,
    // Plain SMTP on the loopback: no STARTTLS (it would need a trusted certificate), so login in clear.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^message-id:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '';
        const code = decide({ messageId, raw });
        if (code !== undefined) {
          refused.push({ messageId, code, at: Date.now() });
          callback(Object.assign(new Error(`Refused for the test (${code})`), { responseCode: code }));
          return;
        }
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
        };
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              envelope,
              raw,
              head: raw.slice(0, raw.indexOf('\r\n\r\n')),
              parsed,
              at: Date.now(),
            });
            for (const waiter of [...waiters]) {
              if (received.length >= waiter.count) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve();
              }
            }
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(sink, {
    url: options.secure
      ? `smtps://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}?tls.rejectUnauthorized=false`
      : `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    port,
    received,
    async waitFor(count: number, timeoutMs = 15_000) {
      if (received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`only ${received.length} of ${count} mails arrived`)),
            timeoutMs,
          );
          waiters.push({
            count,
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          });
        });
      }
      return received.slice(0, count);
    },
    refuseNext(...codes: number[]) {
      refusals.push(...codes);
    },
    answerWith(next: typeof decide) {
      decide = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
