/** A webhook receiver on 127.0.0.1 for the tests: records every request, answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request was complete. */
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status (and body) of the next answers; the last one repeats. */
  answer(...statuses: Array<number | { status: number; body?: string; delayMs?: number }>): void;
  /** Answers each request with the status `choose` gives for it (instead of the list of `answer`). */
  answerWith(choose: (request: Received) => number): void;
  /** Resolves when `count` requests have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answers: Array<{ status: number; body?: string; delayMs?: number }> = [{ status: 204 }];
  const waiters: Array<() => void> = [];
  let chooser: ((request: Received) => number) | undefined;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { headers: request.headers, body, at: performance.now() };
      received.push(entry);
      const answer = chooser
        ? { status: chooser(entry) }
        : answers.length > 1
          ? answers.shift()!
          : answers[0]!;
      setTimeout(() => {
        response.statusCode = answer.status;
        response.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(...statuses) {
      answers = statuses.map((status) => (typeof status === 'number' ? { status } : status));
    },
    answerWith(choose) {
      chooser = choose;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`received ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
