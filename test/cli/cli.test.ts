import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations as sqliteMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { appOn, runCli, runFailing, runJson, SPAWN_TIMEOUT_MS, temporaryDirectory } from './run-cli.js';

const directory = temporaryDirectory();
afterAll(() => directory.remove());

const keysOf = (value: Record<string, unknown>) => Object.keys(value).sort();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('eventplan migrate', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('lists the migrations it applied: all on a new database, none the second time', async () => {
    const viaFlag = join(directory.path, 'flag.db');
    const viaEnvironment = join(directory.path, 'environment.db');
    // --database-url wins over DATABASE_URL.
    const first = await runJson(['migrate', '--database-url', viaFlag], { DATABASE_URL: viaEnvironment });
    expect(keysOf(first)).toEqual(['applied']);
    expect(first.applied).toEqual(sqliteMigrations.map((migration) => migration.name));
    expect(await runJson(['migrate', '--database-url', viaFlag])).toEqual({ applied: [] });

    // DATABASE_URL alone, here as a file: URL.
    const fromEnvironment = await runJson(['migrate'], { DATABASE_URL: `file:${viaEnvironment}` });
    expect(fromEnvironment).toEqual({ applied: sqliteMigrations.map((migration) => migration.name) });
    expect(await runJson(['migrate'], { DATABASE_URL: viaEnvironment })).toEqual({ applied: [] });
  });
});

describe('eventplan operator commands', { timeout: SPAWN_TIMEOUT_MS }, () => {
  const database = join(directory.path, 'operations.db');
  const env = { DATABASE_URL: database };
  let http: Awaited<ReturnType<typeof appOn>>;

  beforeAll(async () => {
    await runJson(['migrate'], env);
    http = await appOn(database);
  });
  afterAll(() => http.close());

  const call = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    http.app.inject({
      method,
      url,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  it('sets up an organization, its people, groups and keys, each printing exactly its D12 object', async () => {
    const org = await runJson(['org', 'create', '--name', 'Acme Events'], env);
    expect(keysOf(org)).toEqual(['id']);
    expect(org.id).toMatch(UUID);

    const planner = await runJson(
      ['user', 'create', '--org', org.id, '--email', 'ann@acme.example', '--name', 'Ann'],
      env,
    );
    expect(keysOf(planner)).toEqual(['id']);
    const approver = await runJson(['user', 'create', '--org', org.id, '--email', 'bo@acme.example'], env);
    expect(approver.id).not.toBe(planner.id);

    const group = await runJson(['group', 'create', '--org', org.id, '--name', 'Planning'], env);
    expect(keysOf(group)).toEqual(['id']);
    expect(await runJson(['group', 'add-member', '--group', group.id, '--user', planner.id], env)).toEqual({
      groupId: group.id,
      userId: planner.id,
      role: 'member',
    });
    expect(
      await runJson(['group', 'add-member', '--group', group.id, '--user', approver.id, '--approver'], env),
    ).toEqual({ groupId: group.id, userId: approver.id, role: 'approver' });

    // The issued key works against the HTTP app on the same database.
    const issued = await runJson(['key', 'issue', '--user', planner.id], env);
    expect(keysOf(issued)).toEqual(['key', 'keyId']);
    expect(issued.key).toMatch(new RegExp(`^evp_${issued.keyId}_[0-9A-Za-z]{32,}$`));
    expect((await call(issued.key, 'GET', '/v1/events')).statusCode).toBe(200);
    const created = await call(issued.key, 'POST', '/v1/events', { name: 'Offsite' });
    expect(created.statusCode).toBe(201);
    expect(created.json().grantedTo).toBe(2);

    expect(
      await runJson(['group', 'remove-member', '--group', group.id, '--user', approver.id], env),
    ).toEqual({
      groupId: group.id,
      userId: approver.id,
    });
    expect((await call(issued.key, 'POST', '/v1/events', { name: 'Alone' })).json().grantedTo).toBe(1);

    const listed = await runJson(['key', 'list', '--org', org.id], env);
    expect(keysOf(listed)).toEqual(['keys']);
    expect(listed.keys).toHaveLength(1);
    expect(keysOf(listed.keys[0])).toEqual(['createdAt', 'keyId', 'lastUsedAt', 'revokedAt', 'userId']);
    expect(listed.keys[0]).toMatchObject({ keyId: issued.keyId, userId: planner.id, revokedAt: null });
    expect(listed.keys[0]).not.toHaveProperty('key');
    expect(JSON.stringify(listed)).not.toContain(issued.key);

    // Reissue: the new key works, the old one no longer does.
    const reissued = await runJson(['key', 'reissue', '--key', issued.keyId], env);
    expect(keysOf(reissued)).toEqual(['key', 'keyId']);
    expect(reissued.keyId).not.toBe(issued.keyId);
    expect((await call(reissued.key, 'GET', '/v1/events')).statusCode).toBe(200);
    expect((await call(issued.key, 'GET', '/v1/events')).statusCode).toBe(401);

    // Revoke: the key stops working, and key list shows when.
    expect(await runJson(['key', 'revoke', '--key', reissued.keyId], env)).toEqual({ keyId: reissued.keyId });
    expect((await call(reissued.key, 'GET', '/v1/events')).statusCode).toBe(401);
    const afterRevoke = await runJson(['key', 'list', '--org', org.id], env);
    expect(afterRevoke.keys).toHaveLength(2);
    for (const key of afterRevoke.keys) {
      expect(new Date(key.revokedAt).toISOString()).toBe(key.revokedAt);
    }

    // Deactivating the user stops every key of theirs, and no new key is issued to them.
    const another = await runJson(['key', 'issue', '--user', planner.id], env);
    expect((await call(another.key, 'GET', '/v1/events')).statusCode).toBe(200);
    expect(await runJson(['user', 'deactivate', '--user', planner.id], env)).toEqual({ id: planner.id });
    expect((await call(another.key, 'GET', '/v1/events')).statusCode).toBe(401);
    const refused = await runFailing(['key', 'issue', '--user', planner.id], env);
    expect(refused.stderr).toContain('deactivated');
  });

  it('moves an event to cancelled and reopens it to the status it had before', async () => {
    const demo = await runJson(['demo'], env);
    const created = await call(demo.key, 'POST', '/v1/events', { name: 'Status tour' });
    const id = created.json().id;

    expect(await runJson(['event', 'status', '--event', id, '--to', 'wait_for_proposals'], env)).toEqual({
      id,
      status: 'wait_for_proposals',
    });
    expect(await runJson(['event', 'status', '--event', id, '--to', 'cancelled'], env)).toEqual({
      id,
      status: 'cancelled',
    });
    const refused = await call(demo.key, 'PATCH', `/v1/events/${id}`, { numPeople: 3 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('event_cancelled');

    expect(await runJson(['event', 'status', '--event', id, '--to', 'reopen'], env)).toEqual({
      id,
      status: 'wait_for_proposals',
    });
    expect((await call(demo.key, 'PATCH', `/v1/events/${id}`, { numPeople: 3 })).statusCode).toBe(200);
    // Only a cancelled event can be reopened.
    await runFailing(['event', 'status', '--event', id, '--to', 'reopen'], env);
  });

  it('creates a demo organization whose key works and whose planner has an approver', async () => {
    const demo = await runJson(['demo'], env);
    expect(keysOf(demo)).toEqual([
      'approverId',
      'approverInviteUrl',
      'groupId',
      'inviteExpiresAt',
      'inviteUrl',
      'key',
      'keyId',
      'organizationId',
      'userId',
      'venueIds',
    ]);
    // A few venues in the directory, ready to shortlist (D20).
    expect(demo.venueIds).toHaveLength(3);
    const venues = await call(demo.key, 'GET', '/v1/venues');
    expect(
      venues
        .json()
        .data.map((venue: { id: string }) => venue.id)
        .sort(),
    ).toEqual([...demo.venueIds].sort());
    // The planner and the approver each get an invite to choose a dashboard password (D15).
    expect(demo.inviteUrl).not.toBe(demo.approverInviteUrl);
    expect(Date.parse(demo.inviteExpiresAt)).toBeGreaterThan(Date.now());
    for (const field of ['organizationId', 'userId', 'groupId', 'approverId'])
      expect(demo[field]).toMatch(UUID);
    const created = await call(demo.key, 'POST', '/v1/events', { name: 'Demo event' });
    expect(created.statusCode).toBe(201);
    expect(created.json().grantedTo).toBe(2);
    const listed = await runJson(['key', 'list', '--org', demo.organizationId], env);
    expect(listed.keys.map((key: { keyId: string }) => key.keyId)).toEqual([demo.keyId]);
    expect(listed.keys[0].userId).toBe(demo.userId);
  });

  it('prints errors on stderr only, with a non-zero exit', async () => {
    const demo = await runJson(['demo'], env);
    const failures = await Promise.all([
      runFailing(['key', 'revoke', '--key', 'no-such-key'], env),
      runFailing(['key', 'issue', '--user', randomUUID()], env),
      runFailing(['key', 'list', '--org', randomUUID()], env),
      runFailing(['user', 'create', '--org', demo.organizationId, '--email', 'planner@example.com'], env),
      runFailing(['org', 'create'], env),
      runFailing(['event', 'status', '--event', 'not-a-uuid', '--to', 'cancelled'], env),
      runFailing(['event', 'status', '--event', randomUUID(), '--to', 'archived'], env),
      runFailing(['group', 'remove-member', '--group', demo.groupId, '--user', randomUUID()], env),
      runFailing(['no-such-command'], env),
      runFailing(['migrate'], { DATABASE_URL: 'mysql://localhost/eventplan' }),
      runFailing(['serve'], { ...env, PORT: 'eighty' }),
      runFailing(['migrate'], { ...env, DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }),
      runFailing(['key', 'list', '--org', demo.organizationId], { ...env, DATABASE_POOL_SIZE: '0' }),
    ]);
    expect(failures[0]!.stderr).toContain('no-such-key');
    expect(failures[9]!.stderr).toContain('DATABASE_URL');
    expect(failures[10]!.stderr).toContain('PORT');
    // Every command checks the database settings as serve does (exit 78: configuration error).
    expect(failures[11]!.stderr).toContain('DATABASE_STATEMENT_TIMEOUT_MS');
    expect(failures[12]!.stderr).toContain('DATABASE_POOL_SIZE');
    expect([failures[11]!.code, failures[12]!.code]).toEqual([78, 78]);
  });

  it('prints plain text without --json', async () => {
    const result = await runCli(['org', 'create', '--name', 'Plain'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^id: [0-9a-f-]{36}\n$/);
  });
});
