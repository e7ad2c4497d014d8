import type { Pool } from 'pg';
import type {
  CredentialRepository,
  InviteRecord,
  InviteWithUser,
  SignInCandidate,
} from '../../ports/credential-repository.js';
import { isoText } from './postgres-identity-repository.js';
import { inTransaction, query } from './postgres-transaction.js';

const SET_PASSWORD = `
  INSERT INTO user_passwords (organization_id, user_id, password_hash, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (organization_id, user_id)
  DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`;

export function createPostgresCredentialRepository(pool: Pool): CredentialRepository {
  const invites = singleUseLinks(pool, 'user_invites');
  const resets = singleUseLinks(pool, 'password_resets');
  return {
    async setPassword(organizationId, userId, passwordHash, at) {
      await query(pool, SET_PASSWORD, [organizationId, userId, passwordHash, at]);
    },
    async findPasswordHash(organizationId, userId) {
      const { rows } = await query<{ password_hash: string }>(
        pool,
        'SELECT password_hash FROM user_passwords WHERE organization_id = $1 AND user_id = $2',
        [organizationId, userId],
      );
      return rows[0]?.password_hash;
    },
    async findSignInCandidates(email): Promise<SignInCandidate[]> {
      const { rows } = await query<{
        organization_id: string;
        id: string;
        email: string;
        name: string | null;
        active: boolean;
        password_hash: string | null;
      }>(
        pool,
        `SELECT u.organization_id, u.id, u.email, u.name, u.active, p.password_hash
         FROM users u
         LEFT JOIN user_passwords p ON p.organization_id = u.organization_id AND p.user_id = u.id
         WHERE lower(u.email COLLATE "C") = lower($1 COLLATE "C")
         ORDER BY u.organization_id, u.id`,
        [email],
      );
      return rows.map((row) => ({
        organizationId: row.organization_id,
        userId: row.id,
        email: row.email,
        name: row.name,
        active: row.active,
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
function singleUseLinks(pool: Pool, table: 'user_invites' | 'password_resets') {
  return {
    insert(link: InviteRecord) {
      return inTransaction(pool, async (client) => {
        await query(client, `DELETE FROM ${table} WHERE organization_id = $1 AND user_id = $2`, [
          link.organizationId,
          link.userId,
        ]);
        await query(
          client,
          `INSERT INTO ${table} (organization_id, id, user_id, token_hash, created_at, expires_at, used_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            link.organizationId,
            link.id,
            link.userId,
            link.tokenHash,
            link.createdAt,
            link.expiresAt,
            link.usedAt,
          ],
        );
      });
    },
    async find(tokenHash: string): Promise<InviteWithUser | undefined> {
      const { rows } = await query<{
        organization_id: string;
        id: string;
        user_id: string;
        token_hash: string;
        created_at: Date;
        expires_at: Date;
        used_at: Date | null;
        email: string;
        name: string | null;
        active: boolean;
      }>(
        pool,
        `SELECT i.organization_id, i.id, i.user_id, i.token_hash, i.created_at, i.expires_at, i.used_at,
                u.email, u.name, u.active
         FROM ${table} i JOIN users u ON u.organization_id = i.organization_id AND u.id = i.user_id
         WHERE i.token_hash = $1`,
        [tokenHash],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        organizationId: row.organization_id,
        id: row.id,
        userId: row.user_id,
        tokenHash: row.token_hash,
        createdAt: row.created_at.toISOString(),
        expiresAt: row.expires_at.toISOString(),
        usedAt: isoText(row.used_at),
        email: row.email,
        name: row.name,
        userActive: row.active,
      };
    },
    redeem(tokenHash: string, passwordHash: string, at: string) {
      return inTransaction(pool, async (client) => {
        // A concurrent redemption of the same link waits for this row lock, then finds used_at set
        // (READ COMMITTED re-checks the WHERE clause) and updates nothing: single use.
        const { rows } = await query<{ organization_id: string; user_id: string }>(
          client,
          `UPDATE ${table} i SET used_at = $2
           WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > $2
             AND EXISTS (SELECT 1 FROM users u
                         WHERE u.organization_id = i.organization_id AND u.id = i.user_id AND u.active)
           RETURNING i.organization_id, i.user_id`,
          [tokenHash, at],
        );
        const used = rows[0];
        if (!used) return undefined;
        await query(client, SET_PASSWORD, [used.organization_id, used.user_id, passwordHash, at]);
        return { organizationId: used.organization_id, userId: used.user_id };
      });
    },
  };
}
