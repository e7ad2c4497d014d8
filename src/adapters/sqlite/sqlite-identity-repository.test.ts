import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newKey, newOrganization, newUser } from '../../../test/contract/fixtures.js';
import type { Store } from '../../ports/store.js';
import { openSqliteStore } from './sqlite-store.js';

describe('SQLite key credentials', () => {
  let dir: string;
  let server: Store;
  let cli: Store;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventplan-credentials-'));
    server = openSqliteStore({ path: join(dir, 'eventplan.db') });
    await server.migrate();
    // Another connection to the same file, as the CLI or a second server process has.
    cli = openSqliteStore({ path: join(dir, 'eventplan.db') });
  });
  afterEach(async () => {
    await server.close();
    await cli.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a revocation made through another connection at the next lookup', async () => {
    const org = await newOrganization(server);
    const userId = await newUser(server, org);
    await server.identity.insertKey(newKey(org, userId, 'ElsewhereKey0001'));
    expect((await server.identity.findCredentials('ElsewhereKey0001'))?.revoked).toBe(false);
    expect((await server.identity.findCredentials('ElsewhereKey0001'))?.revoked).toBe(false);
    await cli.identity.revokeKey('ElsewhereKey0001', new Date().toISOString());
    expect((await server.identity.findCredentials('ElsewhereKey0001'))?.revoked).toBe(true);
  });

  it('reports a deactivation made through another connection at the next lookup', async () => {
    const org = await newOrganization(server);
    const userId = await newUser(server, org);
    await server.identity.insertKey(newKey(org, userId, 'ElsewhereKey0002'));
    expect((await server.identity.findCredentials('ElsewhereKey0002'))?.userActive).toBe(true);
    await cli.identity.deactivateUser(userId);
    expect((await server.identity.findCredentials('ElsewhereKey0002'))?.userActive).toBe(false);
  });

  it('finds a key another connection issued after an unknown-id lookup', async () => {
    const org = await newOrganization(server);
    const userId = await newUser(server, org);
    expect(await server.identity.findCredentials('ElsewhereKey0003')).toBeUndefined();
    await cli.identity.insertKey(newKey(org, userId, 'ElsewhereKey0003'));
    expect((await server.identity.findCredentials('ElsewhereKey0003'))?.userId).toBe(userId);
  });

  it('reports a revocation, a deactivation and a reissue made through the same connection at the next lookup', async () => {
    const org = await newOrganization(server);
    const userId = await newUser(server, org);
    await server.identity.insertKey(newKey(org, userId, 'SameConnKey00001'));
    await server.identity.insertKey(newKey(org, userId, 'SameConnKey00002'));
    expect((await server.identity.findCredentials('SameConnKey00001'))?.revoked).toBe(false);
    // A write of anything else keeps what was read; a key's lastUsedAt moves nothing either.
    await server.identity.touchKey('SameConnKey00001', new Date().toISOString());
    expect((await server.identity.findCredentials('SameConnKey00001'))?.revoked).toBe(false);
    await server.identity.revokeKey('SameConnKey00001', new Date().toISOString());
    expect((await server.identity.findCredentials('SameConnKey00001'))?.revoked).toBe(true);
    expect((await server.identity.findCredentials('SameConnKey00002'))?.userActive).toBe(true);
    await server.identity.deactivateUser(userId);
    expect((await server.identity.findCredentials('SameConnKey00002'))?.userActive).toBe(false);
    expect(await server.identity.findCredentials('SameConnKey00003')).toBeUndefined();
    await server.identity.replaceKey('SameConnKey00002', newKey(org, userId, 'SameConnKey00003'));
    expect((await server.identity.findCredentials('SameConnKey00003'))?.userId).toBe(userId);
    expect((await server.identity.findCredentials('SameConnKey00002'))?.revoked).toBe(true);
  });
});
