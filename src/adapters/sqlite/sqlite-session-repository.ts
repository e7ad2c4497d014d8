import type { Database } from 'better-sqlite3';
import type { SessionRecord, SessionRepository, SessionWithUser } from '../../ports/session-repository.js';
import type { WriteQueue } from './write-queue.js';

interface SessionRow {
  organization_id: string;
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
  client_address: string | null;
}

const SESSION_COLUMNS =
  's.organization_id, s.id, s.user_id, s.token_hash, s.created_at, s.last_seen_at, s.expires_at, s.user_agent, s.client_address';

const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  tokenHash: row.token_hash,
  organizationId: row.organization_id,
  userId: row.user_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  userAgent: row.user_agent,
  clientAddress: row.client_address,
});

export function createSqliteSessionRepository(db: Database, queue: WriteQueue): SessionRepository {
  const insert = db.prepare(`
    INSERT INTO user_sessions
      (organization_id, id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, client_address)
    VALUES
      (@organizationId, @id, @userId, @tokenHash, @createdAt, @lastSeenAt, @expiresAt, @userAgent, @clientAddress)`);
  const selectByToken = db.prepare(`
    SELECT ${SESSION_COLUMNS}, u.active, u.email, u.name
    FROM user_sessions s JOIN users u ON u.organization_id = s.organization_id AND u.id = s.user_id
    WHERE s.token_hash = ?`);
  const touch = db.prepare(
    'UPDATE user_sessions SET last_seen_at = ? WHERE organization_id = ? AND id = ? AND last_seen_at < ?',
  );
  const selectLive = db.prepare(`
    SELECT ${SESSION_COLUMNS} FROM user_sessions s
    WHERE s.organization_id = ? AND s.user_id = ? AND s.expires_at > ? AND s.last_seen_at > ?
    ORDER BY s.created_at DESC, s.id DESC`);
  const endOne = db.prepare('DELETE FROM user_sessions WHERE organization_id = ? AND user_id = ? AND id = ?');
  const endAll = db.prepare('DELETE FROM user_sessions WHERE organization_id = ? AND user_id = ?');
  const purge = db.prepare('DELETE FROM user_sessions WHERE expires_at <= ? OR last_seen_at <= ?');

  return {
    insert(session) {
      return queue.run(() => {
        insert.run(session);
      });
    },
    async findByTokenHash(tokenHash): Promise<SessionWithUser | undefined> {
      const row = selectByToken.get(tokenHash) as
        | (SessionRow & { active: number; email: string; name: string | null })
        | undefined;
      if (!row) return undefined;
      return { ...toSession(row), userActive: row.active === 1, email: row.email, name: row.name };
    },
    touch(organizationId, id, at) {
      return queue.run(() => {
        // Never moves lastSeenAt backwards (two instances touching out of order).
        touch.run(at, organizationId, id, at);
      });
    },
    async listLive(organizationId, userId, { now, idleSince }) {
      return (selectLive.all(organizationId, userId, now, idleSince) as SessionRow[]).map(toSession);
    },
    end(organizationId, userId, id) {
      return queue.run(() => endOne.run(organizationId, userId, id).changes > 0);
    },
    endAll(organizationId, userId) {
      return queue.run(() => endAll.run(organizationId, userId).changes);
    },
    purgeExpired({ now, idleSince }) {
      return queue.run(() => purge.run(now, idleSince).changes);
    },
  };
}
