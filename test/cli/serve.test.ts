import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SPAWN_TIMEOUT_MS, spawnCli, temporaryDirectory } from './run-cli.js';

const directory = temporaryDirectory();
const running = new Set<ChildProcessWithoutNullStreams>();

afterAll(() => {
  // Only if a test failed half-way: stop what this file started.
  for (const child of running) child.kill('SIGKILL');
  directory.remove();
});

/** One line of stdout: a log line, or the one-time line with the demo key. */
type LogLine = { msg?: string; key?: unknown; [field: string]: unknown };

interface Server {
  child: ChildProcessWithoutNullStreams;
  address: string;
  /** Every stdout line so far, each parsed as JSON. */
  lines: Array<LogLine>;
  /** Resolves with the first stdout line, already seen or still to come, that matches. */
  waitForLine(matches: (line: LogLine) => boolean): Promise<LogLine>;
  exited: Promise<number | null>;
}

/** Starts `eventplan serve` on a free port and resolves once it listens. */
async function serve(databaseUrl: string): Promise<Server> {
  const child = spawnCli(['serve'], {
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '50',
  });
  running.add(child);
  const lines: Array<LogLine> = [];
  const waiters: Array<{ matches: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let stderr = '';
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const text of complete) {
      // Every line on stdout is a JSON line: logs and the one-time key alike.
      const line = JSON.parse(text);
      lines.push(line);
      for (const waiter of waiters.filter((entry) => entry.matches(line))) waiter.resolve(line);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const waitForLine = (matches: (line: LogLine) => boolean) =>
    new Promise<LogLine>((resolve, reject) => {
      const seen = lines.find(matches);
      if (seen) return resolve(seen);
      waiters.push({ matches, resolve });
      exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
  const listening = await waitForLine((line) => /listening at http:\/\//.test(line.msg ?? ''));
  const address = /listening at (http:\/\/\S+)/.exec(listening.msg ?? '')![1]!;
  return { child, address, lines, waitForLine, exited };
}

const hasKey = (line: LogLine) => typeof line.key === 'string';
const hasInvite = (line: LogLine) => typeof line.inviteUrl === 'string';

describe('eventplan serve', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('creates a demo key on an empty database, serves it, and exits 0 on SIGTERM', async () => {
    const databaseUrl = join(directory.path, 'served.db');
    const first = await serve(databaseUrl);
    const keyLine = await first.waitForLine(hasKey);
    const key = String(keyLine.key);
    const { organizationId } = keyLine;
    expect(key).toMatch(/^evp_[0-9A-Za-z]{16}_[0-9A-Za-z]{32,}$/);
    expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);
    // Beside the key, the way into the dashboard: single-use links under the address it listens at.
    const inviteLine = await first.waitForLine(hasInvite);
    for (const url of [inviteLine.inviteUrl, inviteLine.approverInviteUrl]) {
      expect(String(url).startsWith(`${first.address}/app/invite/`)).toBe(true);
      expect(String(url)).toMatch(/\/app\/invite\/[0-9A-Za-z]{43}$/);
    }
    expect(inviteLine.inviteUrl).not.toBe(inviteLine.approverInviteUrl);
    expect(Date.parse(String(inviteLine.inviteExpiresAt))).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // The scheduler runs beside the dispatchers, with the reminders of D28 switched on by default.
    const scheduler = await first.waitForLine((line) => line.msg === 'scheduler started');
    expect(scheduler).toMatchObject({ tasks: ['rfp_reminders'], intervalMs: 60_000 });
    const response = await fetch(`${first.address}/v1/events`, { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: [], page: 1, limit: 20, total: 0 });
    expect(response.headers.get('ratelimit-limit')).toBe('50');
    expect((await fetch(`${first.address}/v1/events`)).status).toBe(401);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.lines.filter(hasKey)).toHaveLength(1);
    expect(first.lines.filter(hasInvite)).toHaveLength(1);
    // The key never reaches a log line, only the one-time line that announces it.
    const logged = first.lines.filter((line) => line !== keyLine);
    expect(JSON.stringify(logged)).not.toContain(key);

    // A second start on the same database keeps the organization and prints no new key.
    const second = await serve(databaseUrl);
    const again = await fetch(`${second.address}/v1/events`, { headers: { 'x-api-key': key } });
    expect(again.status).toBe(200);
    // A key line would have come before the log line of this request.
    await second.waitForLine((line) => line.msg === 'request completed');
    expect(second.lines.filter(hasKey)).toEqual([]);
    expect(second.lines.filter(hasInvite)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
