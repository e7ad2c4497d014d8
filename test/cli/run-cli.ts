/** Runs the real `eventplan` command (test/helpers/eventplan-command.ts), as an operator would. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { eventplanEntry } from '../helpers/eventplan-command.js';

/** Each test spawns the command several times (~0.5 s each, more on a busy machine). */
export const SPAWN_TIMEOUT_MS = 120_000;

export const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a command: this process's, without a DATABASE_URL unless one is given. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return { ...inherited, ...extra };
}

export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...eventplanEntry(), ...args], {
    cwd: REPOSITORY_ROOT,
    env: environment(env),
  });
}

/** `input`, if given, is what the command reads on stdin; stdin is closed either way. */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command with --json; asserts success, an empty stderr and exactly one JSON object on stdout. */
export async function runJson(args: string[], env: Record<string, string> = {}, input?: string) {
  const result = await runCli(['--json', ...args], env, input);
  expect(result.stderr, `stderr of eventplan ${args.join(' ')}`).toBe('');
  expect(result.code, `exit code of eventplan ${args.join(' ')}`).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  const parsed: unknown = JSON.parse(result.stdout);
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: a command's JSON, which each test checks field by field.
  return parsed as Record<string, any>;
}

/** Runs a command with --json that must fail: non-zero exit, nothing on stdout, a message on stderr. */
export async function runFailing(args: string[], env: Record<string, string> = {}, input?: string) {
  const result = await runCli(['--json', ...args], env, input);
  expect(result.code, `exit code of eventplan ${args.join(' ')}`).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().length).toBeGreaterThan(0);
  return result;
}

/** A temporary directory for database files, removed by `remove`. */
export function temporaryDirectory() {
  const path = mkdtempSync(join(tmpdir(), 'eventplan-cli-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The real HTTP app over the database a URL names, as `serve` would open it. */
export async function appOn(databaseUrl: string) {
  const store = await openStore(parseDatabaseUrl(databaseUrl));
  const rateLimiter = createMemoryRateLimiter({ limit: 1_000_000 });
  const app = await buildApp({ deps: { store, clock: systemClock, ids: randomIds }, rateLimiter });
  return {
    app,
    async close() {
      await app.close();
      await rateLimiter.close();
      await store.close();
    },
  };
}
