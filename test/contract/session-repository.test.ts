/** The session repository contract, run on every backend. */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { SessionRecord } from '../../src/ports/session-repository.js';
import { BACKENDS, describeStore } from './backends.js';
import { newOrganization, newUser } from './fixtures.js';

function newSession(
  organizationId: string,
  userId: string,
  overrides: Partial<SessionRecord> = {},
): SessionRecord {
  return {
    id: randomUUID(),
    tokenHash: randomUUID().replaceAll('-', '').repeat(2),
    organizationId,
    userId,
    createdAt: '2026-03-01T09:00:00.000Z',
    lastSeenAt: '2026-03-01T09:00:00.000Z',
    expiresAt: '2026-03-08T09:00:00.000Z',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    clientAddress: '192.0.2.7',
    ...overrides,
  };
}

const at = (time: string) => ({ now: time, idleSince: '2026-03-01T00:00:00.000Z' });

for (const backend of BACKENDS) {
  describeStore(backend, 'session repository', (store) => {
    let org: string;

    beforeAll(async () => {
      org = await newOrganization(store(), 'Acme');
    });

    it('finds a session by its token hash, with its person', async () => {
      const userId = await newUser(store(), org, `${randomUUID()}@example.com`);
      const session = newSession(org, userId, { userAgent: null, clientAddress: null });
      await store().sessions.insert(session);
      const user = await store().identity.findUser(userId);
      expect(await store().sessions.findByTokenHash(session.tokenHash)).toEqual({
        ...session,
        userActive: true,
        email: user!.email,
        name: null,
      });
      expect(await store().sessions.findByTokenHash('0'.repeat(64))).toBeUndefined();
      await store().identity.deactivateUser(userId);
      expect((await store().sessions.findByTokenHash(session.tokenHash))?.userActive).toBe(false);
    });

    it('moves lastSeenAt forwards only', async () => {
      const userId = await newUser(store(), org);
      const session = newSession(org, userId);
      await store().sessions.insert(session);
      await store().sessions.touch(org, session.id, '2026-03-01T10:00:00.000Z');
      await store().sessions.touch(org, session.id, '2026-03-01T09:30:00.000Z');
      expect((await store().sessions.findByTokenHash(session.tokenHash))?.lastSeenAt).toBe(
        '2026-03-01T10:00:00.000Z',
      );
    });

    it("lists a person's live sessions only, newest first", async () => {
      const userId = await newUser(store(), org);
      const older = newSession(org, userId, { createdAt: '2026-03-01T09:00:00.000Z' });
      const newer = newSession(org, userId, {
        createdAt: '2026-03-02T09:00:00.000Z',
        lastSeenAt: '2026-03-02T09:00:00.000Z',
      });
      const expired = newSession(org, userId, { expiresAt: '2026-03-02T12:00:00.000Z' });
      const idle = newSession(org, userId, { lastSeenAt: '2026-02-28T09:00:00.000Z' });
      const someoneElses = newSession(org, await newUser(store(), org));
      for (const session of [older, newer, expired, idle, someoneElses])
        await store().sessions.insert(session);
      const live = await store().sessions.listLive(org, userId, at('2026-03-03T09:00:00.000Z'));
      expect(live).toEqual([newer, older]);
      const otherOrg = await newOrganization(store());
      expect(await store().sessions.listLive(otherOrg, userId, at('2026-03-03T09:00:00.000Z'))).toEqual([]);
    });

    it("ends one session of its owner only, and then all of a person's", async () => {
      const userId = await newUser(store(), org);
      const intruder = await newUser(store(), org);
      const sessions = [newSession(org, userId), newSession(org, userId), newSession(org, userId)];
      for (const session of sessions) await store().sessions.insert(session);
      expect(await store().sessions.end(org, intruder, sessions[0]!.id)).toBe(false);
      expect(await store().sessions.end(org, userId, sessions[0]!.id)).toBe(true);
      expect(await store().sessions.end(org, userId, sessions[0]!.id)).toBe(false);
      expect(await store().sessions.findByTokenHash(sessions[0]!.tokenHash)).toBeUndefined();
      expect(await store().sessions.endAll(org, userId)).toBe(2);
      expect(await store().sessions.endAll(org, userId)).toBe(0);
      expect(await store().sessions.findByTokenHash(sessions[1]!.tokenHash)).toBeUndefined();
    });

    it('purges the sessions past their absolute end or idle too long', async () => {
      const userId = await newUser(store(), org);
      const live = newSession(org, userId, { lastSeenAt: '2026-03-05T08:00:00.000Z' });
      const expired = newSession(org, userId, {
        lastSeenAt: '2026-03-05T08:00:00.000Z',
        expiresAt: '2026-03-05T09:00:00.000Z',
      });
      const idle = newSession(org, userId, { lastSeenAt: '2026-03-04T20:00:00.000Z' });
      for (const session of [live, expired, idle]) await store().sessions.insert(session);
      const purged = await store().sessions.purgeExpired({
        now: '2026-03-05T09:00:00.000Z',
        idleSince: '2026-03-04T21:00:00.000Z',
      });
      expect(purged).toBeGreaterThanOrEqual(2);
      expect(await store().sessions.findByTokenHash(live.tokenHash)).toBeDefined();
      expect(await store().sessions.findByTokenHash(expired.tokenHash)).toBeUndefined();
      expect(await store().sessions.findByTokenHash(idle.tokenHash)).toBeUndefined();
    });
  });
}
