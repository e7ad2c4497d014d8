/** Real `eventplan serve` processes (test/helpers/eventplan-command.ts), for tests of several instances on one database. */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventplanEntry } from '../helpers/eventplan-command.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Instance {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `eventplan serve` on a free port with `env` added, and resolves once it listens. */
export async function startInstance(env: Record<string, string>, timeoutMs = 30_000): Promise<Instance> {
  const child: ChildProcess = spawn(process.execPath, [...eventplanEntry(), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) return { url: match[1]!, output: () => output, stop };
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 25));
  }
  await stop();
  throw new Error(`eventplan serve did not start:\n${output}`);
}
