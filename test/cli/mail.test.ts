/** The operator's mail commands (D25): `mail list` and `user invite --send`, through the outbox. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { findInvite } from '../../src/app/people.js';
import { parseDatabaseUrl } from '../../src/config.js';
import type { Store } from '../../src/ports/store.js';
import { runCli, runFailing, runJson, SPAWN_TIMEOUT_MS, temporaryDirectory } from './run-cli.js';

const directory = temporaryDirectory();
const database = join(directory.path, 'mail.db');
const env = { DATABASE_URL: database, PUBLIC_BASE_URL: 'https://events.example.com' };
const INVITE_LINK = /https:\/\/events\.example\.com\/app\/invite\/([0-9A-Za-z]{43})/;

describe('eventplan mail commands', { timeout: SPAWN_TIMEOUT_MS }, () => {
  let store: Store;
  let userId: string;
  let approverId: string;

  beforeAll(async () => {
    const demo = await runJson(['demo'], env);
    userId = demo.userId;
    approverId = demo.approverId;
    store = await openStore(parseDatabaseUrl(database));
  });
  afterAll(async () => {
    await store?.close();
    directory.remove();
  });

  it('mail list prints { mails: [] } while the outbox is empty', async () => {
    expect(await runJson(['mail', 'list'], env)).toEqual({ mails: [] });
  });

  it('user invite --send queues the link by mail and prints { id, mailId, to, expiresAt }, never the link', async () => {
    const result = await runCli(['--json', 'user', 'invite', '--user', userId, '--send'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/invite\//);
    const sent = JSON.parse(result.stdout);
    expect(Object.keys(sent).sort()).toEqual(['expiresAt', 'id', 'mailId', 'to']);
    expect(sent.to).toBe('planner@example.com');
    const mail = await store.mail.find((await store.identity.findUser(userId))!.organizationId, sent.mailId);
    expect(mail).toMatchObject({
      status: 'pending',
      to: { address: 'planner@example.com', name: 'Planner' },
    });
    expect(mail!.subject).toBe('Choose your password for eventplan (Demo organization)');
    // The link in the mail is the live invite, under PUBLIC_BASE_URL.
    const token = INVITE_LINK.exec(mail!.text!)![1]!;
    expect(await findInvite({ store, clock: systemClock, ids: randomIds }, token)).toEqual({
      email: 'planner@example.com',
      name: 'Planner',
    });
    expect(mail!.html).toContain(`href="https://events.example.com/app/invite/${token}"`);
    // Without --json, a sentence that says it was queued; still no link.
    const readable = await runCli(['user', 'invite', '--user', userId, '--send'], env);
    expect(readable.stdout).toMatch(
      /^Invitation to planner@example\.com queued in the outbox as mail [0-9a-f-]{36}/,
    );
    expect(readable.stdout).not.toMatch(/invite\//);
  });

  it('mail list shows the newest mail first, with its text, and --to keeps one recipient’s', async () => {
    await runJson(['user', 'invite', '--user', approverId, '--send'], env);
    const all = (await runJson(['mail', 'list'], env)).mails;
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(all[0]).sort()).toEqual(['createdAt', 'id', 'sentAt', 'subject', 'text', 'to']);
    expect(all[0]).toMatchObject({ to: 'approver@example.com', sentAt: null });
    expect(all[0].text).toMatch(INVITE_LINK);
    const createdAt = all.map((mail: { createdAt: string }) => mail.createdAt);
    expect(createdAt).toEqual([...createdAt].sort().reverse());
    const planner = (await runJson(['mail', 'list', '--to', 'PLANNER@example.com'], env)).mails;
    expect(planner).toHaveLength(2);
    expect(planner.every((mail: { to: string }) => mail.to === 'planner@example.com')).toBe(true);
    expect((await runJson(['mail', 'list', '--to', 'nobody@example.com'], env)).mails).toEqual([]);
    expect((await runJson(['mail', 'list', '--limit', '1'], env)).mails).toHaveLength(1);
    // For a person at a terminal: each mail's text as it would arrive, link and all.
    const readable = await runCli(['mail', 'list', '--to', 'approver@example.com'], env);
    expect(readable.stdout).toMatch(/^To: {6}approver@example\.com\nSubject: Choose your password/);
    expect(readable.stdout).toMatch(INVITE_LINK);
  });

  it('refuses a bad --limit, a bad MAIL_FROM or an unknown user, and queues nothing', async () => {
    const before = (await runJson(['mail', 'list'], env)).mails.length;
    expect((await runFailing(['mail', 'list', '--limit', '0'], env)).stderr).toMatch(/limit/);
    const badFrom = await runFailing(['user', 'invite', '--user', userId, '--send'], {
      ...env,
      MAIL_FROM: 'nobody',
    });
    expect(badFrom.code).toBe(78);
    expect(badFrom.stderr).toMatch(/MAIL_FROM/);
    expect((await runFailing(['user', 'invite', '--user', 'no-such-user', '--send'], env)).stderr).toMatch(
      /No user with id no-such-user/,
    );
    expect((await runJson(['mail', 'list'], env)).mails).toHaveLength(before);
  });
});
