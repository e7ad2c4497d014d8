import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listeningUrl,
  type PreparedDatabase,
  prepareSqliteDatabase,
  runEventplan,
  type ServerProcess,
  sleep,
} from './server-process.js';

interface Outcome {
  /** Milliseconds from connecting until the server closed the socket. */
  closedAfterMs: number;
  received: string;
}

/** Connects, calls `drive` with a writer, and reports when the server cut the connection. */
function converse(
  port: number,
  drive: (write: (text: string) => boolean) => Promise<void>,
): Promise<Outcome> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let open = true;
    const started = Date.now();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      open = false;
      done({ closedAfterMs: Date.now() - started, received });
    });
    socket.once('connect', () => {
      void drive((text) => {
        if (!open) return false;
        socket.write(text);
        return true;
      });
    });
  });
}

/** Writes `text` one byte at a time, `gapMs` apart, while the socket stays open. */
async function trickle(write: (text: string) => boolean, text: string, gapMs: number) {
  for (const byte of text) {
    if (!write(byte)) return;
    await sleep(gapMs);
  }
}

describe('server timeouts of `eventplan serve`', () => {
  let database: PreparedDatabase;
  let server: ServerProcess;
  let port: number;

  beforeAll(async () => {
    database = await prepareSqliteDatabase();
    server = runEventplan({
      PORT: '0',
      DATABASE_URL: database.databaseUrl,
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
      HTTP_CONNECTION_TIMEOUT_MS: '3000',
    });
    port = Number(new URL(await listeningUrl(server)).port);
  });
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    database.remove();
  });

  it('cuts off slow clients by the headers, request and keep-alive deadlines, and keeps answering others', async () => {
    const headersByteByByte = converse(port, (write) =>
      trickle(
        write,
        'GET /healthz HTTP/1.1\r\nHost: test\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n',
        100,
      ),
    );
    const silent = converse(port, async () => {});
    const bodyByteByByte = converse(port, async (write) => {
      write(
        `PATCH /v1/events/00000000-0000-4000-8000-000000000001 HTTP/1.1\r\nHost: test\r\nx-api-key: ${database.key}\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n`,
      );
      await trickle(write, `{"otherNotes":"${'z'.repeat(380)}"}`, 50);
    });
    const idleKeepAlive = converse(port, async (write) => {
      write('GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n');
    });

    // Meanwhile a well-behaved client is served as usual.
    await sleep(300);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(healthy.status).toBe(200);

    const [headers, quiet, body, keepAlive] = await Promise.all([
      headersByteByByte,
      silent,
      bodyByteByByte,
      idleKeepAlive,
    ]);

    // Headers deadline 1 s, checked every second: cut between 1 and about 2 s, long before the 8 s the trickle needs.
    expect(headers.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(headers.closedAfterMs).toBeLessThan(3500);
    expect(headers.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(headers.received).toContain('application/problem+json');
    expect(headers.received).toContain('"code":"request_timeout"');
    expect(quiet.closedAfterMs).toBeLessThan(3500);
    // Request deadline 2 s: the body would need 20 s.
    expect(body.closedAfterMs).toBeGreaterThanOrEqual(1900);
    expect(body.closedAfterMs).toBeLessThan(4500);
    expect(body.received).toMatch(/^HTTP\/1\.1 408 /);
    // Keep-alive 500 ms: answered, then closed once idle.
    expect(keepAlive.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(keepAlive.closedAfterMs).toBeLessThan(2500);

    const after = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(after.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 30_000);

  it('answers bytes that are not HTTP with a 400 problem and closes the connection', async () => {
    const garbage = await converse(port, async (write) => {
      write('HELLO THERE\r\n\r\n');
    });
    expect(garbage.received).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage.received).toContain('"code":"bad_request"');
    expect(garbage.closedAfterMs).toBeLessThan(2000);
  });
});
