/** The operator's commands for dashboard people (D15): set-password, invite, sign-out, and the demo's links. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAttemptCounter } from '../../src/adapters/memory/memory-attempt-counter.js';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { authenticateSession, findInvite, type PeopleDeps, signIn } from '../../src/app/people.js';
import { parseDatabaseUrl } from '../../src/config.js';
import type { Store } from '../../src/ports/store.js';
import { runFailing, runJson, SPAWN_TIMEOUT_MS, temporaryDirectory } from './run-cli.js';

const directory = temporaryDirectory();
const database = join(directory.path, 'people.db');
const env = { DATABASE_URL: database };
const keysOf = (value: Record<string, unknown>) => Object.keys(value).sort();
const tokenOf = (url: string) => url.split('/').pop()!;

describe('eventplan commands for dashboard people', { timeout: SPAWN_TIMEOUT_MS }, () => {
  let store: Store;
  let deps: PeopleDeps;
  let userId: string;
  let email: string;

  beforeAll(async () => {
    const demo = await runJson(['demo'], env);
    userId = demo.userId;
    email = 'planner@example.com';
    store = await openStore(parseDatabaseUrl(database));
    deps = {
      store,
      clock: systemClock,
      ids: randomIds,
      attempts: createMemoryAttemptCounter(),
      sessionPolicy: { idleMinutes: 720, maxDays: 7 },
    };
  });
  afterAll(async () => {
    await store?.close();
    directory.remove();
  });

  const signInWith = (password: string) =>
    signIn(deps, { email, password, clientAddress: '192.0.2.50', userAgent: null });

  it('demo prints single-use links for the planner and the approver, under http://HOST:PORT', async () => {
    const demo = await runJson(['demo'], { ...env, HOST: 'plan.internal', PORT: '8080' });
    expect(demo.inviteUrl).toMatch(/^http:\/\/plan\.internal:8080\/app\/invite\/[0-9A-Za-z]{43}$/);
    expect(demo.approverInviteUrl).toMatch(/^http:\/\/plan\.internal:8080\/app\/invite\/[0-9A-Za-z]{43}$/);
    expect(Date.parse(demo.inviteExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await findInvite(deps, tokenOf(demo.inviteUrl))).toEqual({
      email: 'planner@example.com',
      name: 'Planner',
    });
    expect(await findInvite(deps, tokenOf(demo.approverInviteUrl))).toEqual({
      email: 'approver@example.com',
      name: 'Approver',
    });
    const local = await runJson(['demo', '--base-url', 'https://plan.example.com/'], env);
    expect(local.inviteUrl).toMatch(/^https:\/\/plan\.example\.com\/app\/invite\//);
  });

  it('user set-password reads one line from stdin, strips its line ending, and prints { id }', async () => {
    const result = await runJson(
      ['user', 'set-password', '--user', userId],
      env,
      'a long planner password\n',
    );
    expect(result).toEqual({ id: userId });
    expect((await signInWith('a long planner password')).person.userId).toBe(userId);
    // Only the first line counts; a Windows line ending is stripped too.
    await runJson(['user', 'set-password', '--user', userId], env, 'second planner password\r\nignored\n');
    expect((await signInWith('second planner password')).person.userId).toBe(userId);
  });

  it('user set-password refuses a weak password, saying why, and changes nothing', async () => {
    const failed = await runFailing(['user', 'set-password', '--user', userId], env, 'password\n');
    expect(failed.stderr).toMatch(/password: is on a list of commonly used passwords/);
    const short = await runFailing(['user', 'set-password', '--user', userId], env, '');
    expect(short.stderr).toMatch(/password: must be at least 8 characters/);
    expect((await signInWith('second planner password')).person.userId).toBe(userId);
  });

  it('user invite prints { id, url, expiresAt }; a new invite voids the older link', async () => {
    const first = await runJson(['user', 'invite', '--user', userId], env);
    expect(keysOf(first)).toEqual(['expiresAt', 'id', 'url']);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/app\/invite\/[0-9A-Za-z]{43}$/);
    const second = await runJson(
      ['user', 'invite', '--user', userId, '--base-url', 'https://plan.example.com'],
      env,
    );
    expect(second.url).toMatch(/^https:\/\/plan\.example\.com\/app\/invite\/[0-9A-Za-z]{43}$/);
    expect(await findInvite(deps, tokenOf(first.url))).toBeUndefined();
    expect(await findInvite(deps, tokenOf(second.url))).toEqual({ email, name: 'Planner' });
    const refused = await runFailing(['user', 'invite', '--user', userId, '--base-url', 'ftp://x'], env);
    expect(refused.stderr).toMatch(/baseUrl/);
    await runFailing(['user', 'invite', '--user', crypto.randomUUID()], env);
  });

  it('user sign-out ends every session of the user and prints { id, sessionsEnded }', async () => {
    // Sign-ins of the tests above, left alone, would count too.
    const { organizationId } = (await store.identity.findUser(userId))!;
    await store.sessions.endAll(organizationId, userId);
    const one = await signInWith('second planner password');
    const two = await signInWith('second planner password');
    const result = await runJson(['user', 'sign-out', '--user', userId], env);
    expect(result).toEqual({ id: userId, sessionsEnded: 2 });
    expect(await authenticateSession(deps, one.token)).toBeUndefined();
    expect(await authenticateSession(deps, two.token)).toBeUndefined();
    expect(await runJson(['user', 'sign-out', '--user', userId], env)).toEqual({
      id: userId,
      sessionsEnded: 0,
    });
  });

  it('user deactivate ends the sessions too', async () => {
    const { token } = await signInWith('second planner password');
    await runJson(['user', 'deactivate', '--user', userId], env);
    expect(await authenticateSession(deps, token)).toBeUndefined();
    const refused = await runFailing(['user', 'invite', '--user', userId], env);
    expect(refused.stderr).toMatch(/deactivated/);
  });
});
