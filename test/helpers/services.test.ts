/**
 * The browser suites without a browser: they skip and say why, and with EVENTPLAN_REQUIRE_SERVICES=1
 * (CI) they fail instead. Runs two of them (a dashboard suite and the /docs one) in a child Vitest with
 * `CHROMIUM` naming a program that does not exist.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITES = ['test/browser/visibility.test.ts', 'test/openapi/docs-ui.test.ts'];

interface Run {
  code: number;
  output: string;
}

function runSuites(env: Record<string, string>): Promise<Run> {
  // Not CI's reporter (it would overwrite the run's own report), and on the SQLite project only.
  const { CI: _ci, EVENTPLAN_REQUIRE_SERVICES: _required, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'sqlite', ...SUITES],
      { cwd: ROOT, env: { ...inherited, CHROMIUM: '/nonexistent/chromium', ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe('the browser suites when Chromium is missing', () => {
  it('skip, and the run passes', async () => {
    const run = await runSuites({});
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/2 skipped/);
    expect(run.output).not.toMatch(/failed/);
  }, 60_000);

  it('fail with EVENTPLAN_REQUIRE_SERVICES=1, naming the missing browser', async () => {
    const run = await runSuites({ EVENTPLAN_REQUIRE_SERVICES: '1' });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/2 failed/);
    expect(run.output).toContain('no browser at /nonexistent/chromium');
  }, 60_000);
});
