/**
 * @eventplan/client as an integrator gets it: built with the root's TypeScript, packed, installed from
 * the tarball into a temporary project with npm offline, imported from plain Node ESM and run against
 * a live server.
 *
 * Offline install: npm runs with --offline and an empty cache, so nothing can come from a registry. The
 * client's dependencies (openapi-fetch and what it needs) are packed from the root's node_modules, where
 * the root `npm ci` put them, and installed beside the client's tarball; npm then satisfies the
 * client's `openapi-fetch@^0.17.0` with that copy.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, webhookHeaders } from '../../src/app/webhook-signature.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLIENT = join(ROOT, 'clients', 'typescript');
const NPM_OFFLINE = ['--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];

interface PackedFile {
  path: string;
}

/** `npm pack` of a folder into `destination`; returns the tarball's path and the files it holds. */
async function pack(folder: string, destination: string, cache: string) {
  const { stdout } = await run(
    'npm',
    ['pack', folder, '--json', '--pack-destination', destination, `--cache=${cache}`, ...NPM_OFFLINE],
    {
      cwd: destination,
    },
  );
  const [packed] = JSON.parse(stdout) as { filename: string; files: PackedFile[] }[];
  return { tarball: join(destination, packed!.filename), files: packed!.files.map((file) => file.path) };
}

/** The names of a package's dependencies and theirs, as installed in the root's node_modules. */
function dependencyClosure(names: string[], seen = new Set<string>()): Set<string> {
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    dependencyClosure(Object.keys(manifest.dependencies ?? {}), seen);
  }
  return seen;
}

describe('the @eventplan/client tarball', () => {
  let t: TestApp;
  let baseUrl: string;
  let project: string;
  let files: string[];

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'eventplan-client-'));
    const cache = join(project, '.npm-cache'); // empty: proves nothing comes from an earlier download
    const [packed] = await Promise.all([
      run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', CLIENT]).then(() => pack(CLIENT, project, cache)),
      (async () => {
        t = await startTestApp();
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      })(),
    ]);
    files = packed.files;

    const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));
    const dependencies = await Promise.all(
      [...dependencyClosure(Object.keys(manifest.dependencies))].map(
        async (name) => (await pack(join(ROOT, 'node_modules', name), project, cache)).tarball,
      ),
    );
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'integrator', private: true, type: 'module' }),
    );
    await run('npm', ['install', `--cache=${cache}`, ...NPM_OFFLINE, packed.tarball, ...dependencies], {
      cwd: project,
    });
    copyFileSync(join(ROOT, 'test', 'client-package', 'integrator.mjs'), join(project, 'integrator.mjs'));
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('holds only the built code, its declarations, the README and package.json', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/schema.d.ts');
    expect(files).toContain('README.md');
    expect(files).toContain('package.json');
    expect(files.filter((file) => !/^dist\/[a-z-]+\.(js|d\.ts)$/.test(file)).sort()).toEqual([
      'README.md',
      'package.json',
    ]);
  });

  it('installed offline, works from plain Node ESM against a live server', async () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} });
    const headers = webhookHeaders(
      { current: secret, previous: null, previousExpiresAt: null },
      'test-1',
      body,
      new Date(),
    );

    const { stdout } = await run(process.execPath, ['integrator.mjs'], {
      cwd: project,
      env: {
        ...process.env,
        EVENTPLAN_URL: baseUrl,
        EVENTPLAN_API_KEY: t.key,
        WEBHOOK: JSON.stringify({ secret, headers, body }),
      },
    });
    const seen = JSON.parse(stdout);
    expect(seen.listed).toContain(seen.id);
    expect(seen.changeTypes).toContain(`event.created:${seen.id}`);
    expect(seen.payloadType).toBe('webhook.test');
    expect(seen.tampered).toBe('WebhookVerificationError:invalid_signature');
  });
});
