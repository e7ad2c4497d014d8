/** Runs `eventplan serve` as a child process, the way an operator runs it (test/helpers/eventplan-command.ts). */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { createDemo } from '../../src/app/organizations.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { eventplanEntry } from '../helpers/eventplan-command.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Every stdout line, parsed when it is JSON. */
  lines: Array<Record<string, unknown>>;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
}

/** Starts `eventplan <args>` (default `serve`) with `env` added to the environment. */
export function runEventplan(env: Record<string, string>, args: string[] = ['serve']): ServerProcess {
  const child = spawn(process.execPath, [...eventplanEntry(), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const lines: Array<Record<string, unknown>> = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk;
    partial += chunk;
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line));
      } catch {
        lines.push({ text: line });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk;
  });
  const exited = new Promise<Exit>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return { child, lines, stdout: () => out, stderr: () => err, exited };
}

/** Waits for the "listening" log line and returns the server's base URL. */
export async function listeningUrl(server: ServerProcess, timeoutMs = 20_000): Promise<string> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    for (const line of server.lines) {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(String(line.msg ?? ''));
      if (match) return match[1]!;
    }
    if (server.child.exitCode !== null) {
      throw new Error(`server exited early (${server.child.exitCode}): ${server.stderr()}${server.stdout()}`);
    }
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`server did not start: ${server.stderr()}${server.stdout()}`);
}

export interface PreparedDatabase {
  dir: string;
  databaseUrl: string;
  path: string;
  key: string;
  organizationId: string;
  remove(): void;
}

/** A migrated SQLite file holding a demo organization, so the server starts without printing a key. */
export async function prepareSqliteDatabase(): Promise<PreparedDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-proc-'));
  const path = join(dir, 'eventplan.db');
  const store = await openStore(parseDatabaseUrl(path));
  await store.migrate();
  const demo = await createDemo({ store, clock: systemClock, ids: randomIds });
  await store.close();
  return {
    dir,
    path,
    databaseUrl: path,
    key: demo.key,
    organizationId: demo.organizationId,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Resolves to the exit, or rejects when the process is still running after `ms`. */
export async function exitWithin(server: ServerProcess, ms: number): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      server.exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
