import type { Pool } from 'pg';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../domain/notifications.js';
import type {
  ApiKeyRecord,
  Group,
  IdentityRepository,
  KeyCredentials,
  Organization,
  User,
} from '../../ports/identity-repository.js';
import { inTransaction, query } from './postgres-transaction.js';

export interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  name: string | null;
  active: boolean;
  created_at: Date;
}

export interface KeyRow {
  key_id: string;
  organization_id: string;
  user_id: string;
  secret_hash: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** timestamptz comes back as a Date; the ports speak ISO 8601 text, as the embedded store keeps it. */
export const isoText = (value: Date | null): string | null => (value === null ? null : value.toISOString());

export const toUser = (row: UserRow): User => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  name: row.name,
  active: row.active,
  createdAt: row.created_at.toISOString(),
});

export const toKey = (row: KeyRow): ApiKeyRecord => ({
  keyId: row.key_id,
  organizationId: row.organization_id,
  userId: row.user_id,
  secretHash: row.secret_hash,
  createdAt: row.created_at.toISOString(),
  revokedAt: isoText(row.revoked_at),
  lastUsedAt: isoText(row.last_used_at),
});

export const USER_COLUMNS = 'id, organization_id, email, name, active, created_at';
export const KEY_COLUMNS =
  'key_id, organization_id, user_id, secret_hash, created_at, revoked_at, last_used_at';

export const INSERT_KEY = `
  INSERT INTO api_keys (organization_id, key_id, user_id, secret_hash, created_at, revoked_at, last_used_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`;

export const keyValues = (key: ApiKeyRecord): unknown[] => [
  key.organizationId,
  key.keyId,
  key.userId,
  key.secretHash,
  key.createdAt,
  key.revokedAt,
  key.lastUsedAt,
];

/**
 * A key with its user's state, as every read of credentials selects them: `k` is the key, `u` its user.
 * A GET by id reads them in the same statement as the event (postgres-event-repository.ts).
 */
export const KEY_CREDENTIALS_COLUMNS =
  'k.key_id, k.organization_id, k.user_id, k.secret_hash, k.revoked_at IS NOT NULL AS revoked, u.active';
export const KEY_WITH_USER =
  'api_keys k JOIN users u ON u.organization_id = k.organization_id AND u.id = k.user_id';

export interface KeyCredentialsRow {
  key_id: string;
  organization_id: string;
  user_id: string;
  secret_hash: string;
  revoked: boolean;
  active: boolean;
}

export const toKeyCredentials = (row: KeyCredentialsRow): KeyCredentials => ({
  keyId: row.key_id,
  organizationId: row.organization_id,
  userId: row.user_id,
  secretHash: row.secret_hash,
  revoked: row.revoked,
  userActive: row.active,
});

const REVOKE_KEY = 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE key_id = $2';

/**
 * Operator commands address users, groups and keys by id alone (D12). Writes first resolve the
 * organization, then change the row by its full tenant key.
 */
export function createPostgresIdentityRepository(pool: Pool): IdentityRepository {
  const organizationOf = async (table: 'users' | 'groups', id: string) => {
    const { rows } = await query<{ organization_id: string }>(
      pool,
      `SELECT organization_id FROM ${table} WHERE id = $1`,
      [id],
    );
    return rows[0]?.organization_id;
  };

  return {
    async countOrganizations() {
      const { rows } = await query<{ count: number }>(
        pool,
        'SELECT COUNT(*)::integer AS count FROM organizations',
      );
      return rows[0]!.count;
    },
    async insertOrganization(organization: Organization) {
      await query(pool, 'INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)', [
        organization.id,
        organization.name,
        organization.createdAt,
      ]);
    },
    async findOrganization(id) {
      const { rows } = await query<{ id: string; name: string; created_at: Date }>(
        pool,
        'SELECT id, name, created_at FROM organizations WHERE id = $1',
        [id],
      );
      const row = rows[0];
      return row ? { id: row.id, name: row.name, createdAt: row.created_at.toISOString() } : undefined;
    },
    async insertUser(user: User) {
      await query(
        pool,
        'INSERT INTO users (organization_id, id, email, name, active, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [user.organizationId, user.id, user.email, user.name, user.active, user.createdAt],
      );
    },
    async findUser(id) {
      const { rows } = await query<UserRow>(pool, `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return rows[0] ? toUser(rows[0]) : undefined;
    },
    async findUserByEmail(organizationId, email) {
      const { rows } = await query<UserRow>(
        pool,
        `SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND email = $2`,
        [organizationId, email],
      );
      return rows[0] ? toUser(rows[0]) : undefined;
    },
    async deactivateUser(id) {
      const organizationId = await organizationOf('users', id);
      if (organizationId === undefined) return;
      await query(pool, 'UPDATE users SET active = false WHERE organization_id = $1 AND id = $2', [
        organizationId,
        id,
      ]);
    },
    async insertGroup(group: Group) {
      await query(
        pool,
        'INSERT INTO groups (organization_id, id, name, created_at) VALUES ($1, $2, $3, $4)',
        [group.organizationId, group.id, group.name, group.createdAt],
      );
    },
    async findGroup(id) {
      const { rows } = await query<{ id: string; organization_id: string; name: string; created_at: Date }>(
        pool,
        'SELECT id, organization_id, name, created_at FROM groups WHERE id = $1',
        [id],
      );
      const row = rows[0];
      return row
        ? {
            id: row.id,
            organizationId: row.organization_id,
            name: row.name,
            createdAt: row.created_at.toISOString(),
          }
        : undefined;
    },
    async putMember(organizationId, groupId, userId, role) {
      await query(
        pool,
        `INSERT INTO group_members (organization_id, group_id, user_id, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organization_id, group_id, user_id) DO UPDATE SET role = excluded.role`,
        [organizationId, groupId, userId, role],
      );
    },
    async removeMember(groupId, userId) {
      const organizationId = await organizationOf('groups', groupId);
      if (organizationId === undefined) return false;
      const { rowCount } = await query(
        pool,
        'DELETE FROM group_members WHERE organization_id = $1 AND group_id = $2 AND user_id = $3',
        [organizationId, groupId, userId],
      );
      return rowCount > 0;
    },
    async countMemberships(organizationId, userId) {
      const { rows } = await query<{ count: string }>(
        pool,
        'SELECT COUNT(*) AS count FROM group_members WHERE organization_id = $1 AND user_id = $2',
        [organizationId, userId],
      );
      return Number(rows[0]?.count ?? 0);
    },
    async insertKey(key) {
      await query(pool, INSERT_KEY, keyValues(key));
    },
    async findKey(keyId) {
      const { rows } = await query<KeyRow>(pool, `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_id = $1`, [
        keyId,
      ]);
      return rows[0] ? toKey(rows[0]) : undefined;
    },
    async findCredentials(keyId): Promise<KeyCredentials | undefined> {
      // Every request: the key by its id, then its user by the full tenant key, in one round trip.
      const { rows } = await query<KeyCredentialsRow>(
        pool,
        `SELECT ${KEY_CREDENTIALS_COLUMNS} FROM ${KEY_WITH_USER} WHERE k.key_id = $1`,
        [keyId],
        'key-credentials',
      );
      return rows[0] ? toKeyCredentials(rows[0]) : undefined;
    },
    async revokeKey(keyId, at) {
      await query(pool, REVOKE_KEY, [at, keyId]);
    },
    replaceKey(oldKeyId, replacement) {
      return inTransaction(pool, async (client) => {
        await query(client, REVOKE_KEY, [replacement.createdAt, oldKeyId]);
        await query(client, INSERT_KEY, keyValues(replacement));
      });
    },
    async touchKey(keyId, at) {
      await query(pool, 'UPDATE api_keys SET last_used_at = $1 WHERE key_id = $2', [at, keyId]);
    },
    async switchedOffNotifications(organizationId, userId) {
      const { rows } = await query<{ kind: string }>(
        pool,
        'SELECT kind FROM notification_opt_outs WHERE organization_id = $1 AND user_id = $2',
        [organizationId, userId],
      );
      const stored = new Set(rows.map((row) => row.kind));
      return NOTIFICATION_KINDS.filter((kind) => stored.has(kind));
    },
    setSwitchedOffNotifications(organizationId, userId, kinds: readonly NotificationKind[]) {
      return inTransaction(pool, async (client) => {
        await query(client, 'DELETE FROM notification_opt_outs WHERE organization_id = $1 AND user_id = $2', [
          organizationId,
          userId,
        ]);
        for (const kind of new Set(kinds)) {
          await query(
            client,
            'INSERT INTO notification_opt_outs (organization_id, user_id, kind) VALUES ($1, $2, $3)',
            [organizationId, userId, kind],
          );
        }
      });
    },
    async listKeys(organizationId) {
      const { rows } = await query<KeyRow>(
        pool,
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE organization_id = $1 ORDER BY created_at, key_id`,
        [organizationId],
      );
      return rows.map(toKey);
    },
  };
}
