import type { Pool } from 'pg';
import type { SessionRecord, SessionRepository, SessionWithUser } from '../../ports/session-repository.js';
import { query } from './postgres-transaction.js';

interface SessionRow {
  organization_id: string;
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
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
  createdAt: row.created_at.toISOString(),
  lastSeenAt: row.last_seen_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  userAgent: row.user_agent,
  clientAddress: row.client_address,
});

export function createPostgresSessionRepository(pool: Pool): SessionRepository {
  return {
    async insert(session) {
      await query(
        pool,
        `INSERT INTO user_sessions
           (organization_id, id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, client_address)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          session.organizationId,
          session.id,
          session.userId,
          session.tokenHash,
          session.createdAt,
          session.lastSeenAt,
          session.expiresAt,
          session.userAgent,
          session.clientAddress,
        ],
      );
    },
    async findByTokenHash(tokenHash): Promise<SessionWithUser | undefined> {
      const { rows } = await query<SessionRow & { active: boolean; email: string; name: string | null }>(
        pool,
        `SELECT ${SESSION_COLUMNS}, u.active, u.email, u.name
         FROM user_sessions s JOIN users u ON u.organization_id = s.organization_id AND u.id = s.user_id
         WHERE s.token_hash = $1`,
        [tokenHash],
      );
      const row = rows[0];
      if (!row) return undefined;
      return { ...toSession(row), userActive: row.active, email: row.email, name: row.name };
    },
    async touch(organizationId, id, at) {
      // Never moves lastSeenAt backwards (two instances touching out of order).
      await query(
        pool,
        'UPDATE user_sessions SET last_seen_at = $3 WHERE organization_id = $1 AND id = $2 AND last_seen_at < $3',
        [organizationId, id, at],
      );
    },
    async listLive(organizationId, userId, { now, idleSince }) {
      const { rows } = await query<SessionRow>(
        pool,
        `SELECT ${SESSION_COLUMNS} FROM user_sessions s
         WHERE s.organization_id = $1 AND s.user_id = $2 AND s.expires_at > $3 AND s.last_seen_at > $4
         ORDER BY s.created_at DESC, s.id DESC`,
        [organizationId, userId, now, idleSince],
      );
      return rows.map(toSession);
    },
    async end(organizationId, userId, id) {
      const { rowCount } = await query(
        pool,
        'DELETE FROM user_sessions WHERE organization_id = $1 AND user_id = $2 AND id = $3',
        [organizationId, userId, id],
      );
      return rowCount > 0;
    },
    async endAll(organizationId, userId) {
      const { rowCount } = await query(
        pool,
        'DELETE FROM user_sessions WHERE organization_id = $1 AND user_id = $2',
        [organizationId, userId],
      );
      return rowCount;
    },
    async purgeExpired({ now, idleSince }) {
      const { rowCount } = await query(
        pool,
        'DELETE FROM user_sessions WHERE expires_at <= $1 OR last_seen_at <= $2',
        [now, idleSince],
      );
      return rowCount;
    },
  };
}
