import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  exitWithin,
  listeningUrl,
  type PreparedDatabase,
  prepareSqliteDatabase,
  runEventplan,
  type ServerProcess,
  sleep,
} from './server-process.js';

/** A raw HTTP/1.1 exchange on one socket: write parts when told, read everything that comes back. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<void>((done) => socket.on('close', () => done()));
  socket.on('error', () => {});
  const connected = new Promise<void>((done) => socket.once('connect', () => done()));
  return { socket, connected, closed, received: () => received };
}

/** Resolves with the error code of a connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
  });
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('graceful shutdown of `eventplan serve`', () => {
  let server: ServerProcess | undefined;
  let database: PreparedDatabase | undefined;
  afterEach(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    database?.remove();
    server = undefined;
    database = undefined;
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal}: /readyz turns 503, in-flight requests finish, new connections are refused, the database closes, exit 0`, async () => {
      database = await prepareSqliteDatabase();
      server = runEventplan({ PORT: '0', DATABASE_URL: database.databaseUrl });
      const url = await listeningUrl(server);
      const port = portOf(url);
      expect((await get(`${url}/readyz`)).status).toBe(200);

      // Two creates in flight: headers and half of each body sent before the signal, the rest after.
      const inFlight = [0, 1].map((n) => {
        const body = JSON.stringify({ name: `in-flight ${n}`, otherNotes: 'x'.repeat(200) });
        const connection = rawConnection(port);
        const half = Math.floor(body.length / 2);
        return { n, body, half, connection };
      });
      for (const { body, half, connection } of inFlight) {
        await connection.connected;
        connection.socket.write(
          `POST /v1/events HTTP/1.1\r\nHost: test\r\nx-api-key: ${database.key}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
        );
      }
      // A probe whose request line has arrived, but not the end of its headers.
      const probe = rawConnection(port);
      await probe.connected;
      probe.socket.write('GET /readyz HTTP/1.1\r\nHost: test\r\n');
      await sleep(300);

      const signalledAt = Date.now();
      server.child.kill(signal);
      await sleep(500);

      expect(await tryConnect(port)).toBe('ECONNREFUSED');
      probe.socket.write('\r\n');
      await probe.closed;
      expect(probe.received()).toMatch(/^HTTP\/1\.1 503 /);
      expect(probe.received()).toContain('application/problem+json');
      expect(probe.received()).toContain('"code":"service_unavailable"');

      for (const { body, half, connection } of inFlight) connection.socket.write(body.slice(half));
      await Promise.all(inFlight.map(({ connection }) => connection.closed));
      const ids = inFlight.map(({ connection }) => {
        expect(connection.received()).toMatch(/^HTTP\/1\.1 201 /);
        return JSON.parse(connection.received().split('\r\n\r\n')[1]!).id as string;
      });

      const exit = await exitWithin(server, 10_000);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(server.lines.some((line) => line.msg === 'shut down cleanly')).toBe(true);
      // A cleanly closed SQLite database checkpoints and removes its write-ahead log.
      expect(existsSync(`${database.path}-wal`)).toBe(false);
      const db = new Database(database.path, { readonly: true });
      try {
        const names = ids.map(
          (id) => db.prepare('SELECT COUNT(*) FROM events WHERE id = ?').pluck().get(id) as number,
        );
        expect(names).toEqual([1, 1]);
      } finally {
        db.close();
      }
    }, 40_000);
  }

  it('exits by the hard deadline when a request never finishes, with exit code 1', async () => {
    database = await prepareSqliteDatabase();
    server = runEventplan({ PORT: '0', DATABASE_URL: database.databaseUrl, SHUTDOWN_TIMEOUT_MS: '1500' });
    const url = await listeningUrl(server);
    const stuck = rawConnection(portOf(url));
    await stuck.connected;
    stuck.socket.write(
      `POST /v1/events HTTP/1.1\r\nHost: test\r\nx-api-key: ${database.key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":`,
    );
    await sleep(200);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = await exitWithin(server, 8000);
    const took = Date.now() - signalledAt;
    expect(exit.code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(5000);
    expect(server.lines.some((line) => line.msg === 'shutdown deadline passed; exiting now')).toBe(true);
    stuck.socket.destroy();
  }, 30_000);
});
