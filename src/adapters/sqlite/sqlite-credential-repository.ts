import type { Database, Statement } from 'better-sqlite3';
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
  const invites = singleUseLinks(db, queue, 'user_invites', setPassword);
  const resets = singleUseLinks(db, queue, 'password_resets', setPassword);

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
    insertInvite: invites.insert,
    findInvite: invites.find,
    redeemInvite: invites.redeem,
    insertPasswordReset: resets.insert,
    findPasswordReset: resets.find,
    redeemPasswordReset: resets.redeem,
  };
}

/**
 * Invites and password resets are the same kind of record in two tables: a single-use link whose token
 * is kept hashed, a new one voiding the person's earlier ones, redeemed by setting the password.
 */
function singleUseLinks(
  db: Database,
  queue: WriteQueue,
  table: 'user_invites' | 'password_resets',
  setPassword: Statement,
) {
  const deleteOf = db.prepare(`DELETE FROM ${table} WHERE organization_id = ? AND user_id = ?`);
  const insert = db.prepare(`
    INSERT INTO ${table} (organization_id, id, user_id, token_hash, created_at, expires_at, used_at)
    VALUES (@organizationId, @id, @userId, @tokenHash, @createdAt, @expiresAt, @usedAt)`);
  const select = db.prepare(`
    SELECT i.organization_id, i.id, i.user_id, i.token_hash, i.created_at, i.expires_at, i.used_at,
           u.email, u.name, u.active
    FROM ${table} i JOIN users u ON u.organization_id = i.organization_id AND u.id = i.user_id
    WHERE i.token_hash = ?`);
  const use = db.prepare(`
    UPDATE ${table} SET used_at = @at
    WHERE token_hash = @tokenHash AND used_at IS NULL AND expires_at > @at
      AND EXISTS (SELECT 1 FROM users u
                  WHERE u.organization_id = ${table}.organization_id AND u.id = ${table}.user_id
                    AND u.active = 1)
    RETURNING organization_id, user_id`);
  return {
    insert(link: InviteRecord) {
      return queue.run(() => {
        deleteOf.run(link.organizationId, link.userId);
        insert.run(link);
      });
    },
    async find(tokenHash: string): Promise<InviteWithUser | undefined> {
      const row = select.get(tokenHash) as InviteRow | undefined;
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
    redeem(tokenHash: string, passwordHash: string, at: string) {
      // One savepoint of the write queue: the link is used and the password set together, or neither.
      return queue.run(() => {
        const used = use.get({ tokenHash, at }) as { organization_id: string; user_id: string } | undefined;
        if (!used) return undefined;
        setPassword.run(used.organization_id, used.user_id, passwordHash, at);
        return { organizationId: used.organization_id, userId: used.user_id };
      });
    },
  };
}
