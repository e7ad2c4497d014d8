import type { Database } from 'better-sqlite3';
import type {
  CredentialRepository,
  InviteRecord,
  InviteWithUser,
  SignInCandidate,
} from '../../ports/credential-repository.js';
import type { WriteQueue } from './write-queue.js';

interface InviteRow {
  organization_id: string;
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  email: string;
  name: string | null;
  active: number;
}

export function createSqliteCredentialRepository(db: Database, queue: WriteQueue): CredentialRepository {
  const setPassword = db.prepare(`
    INSERT INTO user_passwords (organization_id, user_id, password_hash, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (organization_id, user_id)
    DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`);
  const selectPassword = db
    .prepare('SELECT password_hash FROM user_passwords WHERE organization_id = ? AND user_id = ?')
    .pluck();
  const selectCandidates = db.prepare(`
    SELECT u.organization_id, u.id, u.email, u.name, u.active, p.password_hash
    FROM users u
    LEFT JOIN user_passwords p ON p.organization_id = u.organization_id AND p.user_id = u.id
    WHERE lower(u.email) = lower(?)
    ORDER BY u.organization_id, u.id`);
  const deleteInvitesOf = db.prepare('DELETE FROM user_invites WHERE organization_id = ? AND user_id = ?');
  const insertInvite = db.prepare(`
    INSERT INTO user_invites (organization_id, id, user_id, token_hash, created_at, expires_at, used_at)
    VALUES (@organizationId, @id, @userId, @tokenHash, @createdAt, @expiresAt, @usedAt)`);
  const selectInvite = db.prepare(`
    SELECT i.organization_id, i.id, i.user_id, i.token_hash, i.created_at, i.expires_at, i.used_at,
           u.email, u.name, u.active
    FROM user_invites i JOIN users u ON u.organization_id = i.organization_id AND u.id = i.user_id
    WHERE i.token_hash = ?`);
  const useInvite = db.prepare(`
    UPDATE user_invites SET used_at = @at
    WHERE token_hash = @tokenHash AND used_at IS NULL AND expires_at > @at
      AND EXISTS (SELECT 1 FROM users u
                  WHERE u.organization_id = user_invites.organization_id AND u.id = user_invites.user_id
                    AND u.active = 1)
    RETURNING organization_id, user_id`);

  return {
    setPassword(organizationId, userId, passwordHash, at) {
      return queue.run(() => {
        setPassword.run(organizationId, userId, passwordHash, at);
      });
    },
    async findPasswordHash(organizationId, userId) {
      return selectPassword.get(organizationId, userId) as string | undefined;
    },
    async findSignInCandidates(email): Promise<SignInCandidate[]> {
      const rows = selectCandidates.all(email) as Array<{
        organization_id: string;
        id: string;
        email: string;
        name: string | null;
        active: number;
        password_hash: string | null;
      }>;
      return rows.map((row) => ({
        organizationId: row.organization_id,
        userId: row.id,
        email: row.email,
        name: row.name,
        active: row.active === 1,
        passwordHash: row.password_hash,
      }));
    },
    insertInvite(invite: InviteRecord) {
      return queue.run(() => {
        deleteInvitesOf.run(invite.organizationId, invite.userId);
        insertInvite.run(invite);
      });
    },
    async findInvite(tokenHash): Promise<InviteWithUser | undefined> {
      const row = selectInvite.get(tokenHash) as InviteRow | undefined;
      if (!row) return undefined;
      return {
        organizationId: row.organization_id,
        id: row.id,
        userId: row.user_id,
        tokenHash: row.token_hash,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
        email: row.email,
        name: row.name,
        userActive: row.active === 1,
      };
    },
    redeemInvite(tokenHash, passwordHash, at) {
      // One savepoint of the write queue: the invite is used and the password set together, or neither.
      return queue.run(() => {
        const used = useInvite.get({ tokenHash, at }) as
          | { organization_id: string; user_id: string }
          | undefined;
        if (!used) return undefined;
        setPassword.run(used.organization_id, used.user_id, passwordHash, at);
        return { organizationId: used.organization_id, userId: used.user_id };
      });
    },
  };
}
