import type { Database } from 'better-sqlite3';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../domain/notifications.js';
import type {
  ApiKeyRecord,
  Group,
  IdentityRepository,
  KeyCredentials,
  Organization,
  User,
} from '../../ports/identity-repository.js';
import { credentialsChanged } from './change-stamp.js';
import type { WriteQueue } from './write-queue.js';

/** Credentials remembered between changes of the database, at most this many keys (unknown ids too). */
const MAX_REMEMBERED_KEYS = 10_000;

interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  name: string | null;
  active: number;
  created_at: string;
}

interface KeyRow {
  key_id: string;
  organization_id: string;
  user_id: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  name: row.name,
  active: row.active === 1,
  createdAt: row.created_at,
});

const toKey = (row: KeyRow): ApiKeyRecord => ({
  keyId: row.key_id,
  organizationId: row.organization_id,
  userId: row.user_id,
  secretHash: row.secret_hash,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

/**
 * A key with its user's state, as every read of credentials selects them: `k` is the key, `u` its user.
 * A GET by id reads them in the same statement as the event (sqlite-event-repository.ts). Both read
 * them as values (`.raw()`), mapped by keyCredentialsOf.
 */
export const KEY_CREDENTIALS_COLUMNS =
  'k.key_id, k.organization_id, k.user_id, k.secret_hash, k.revoked_at, u.active';
export const KEY_WITH_USER =
  'api_keys k JOIN users u ON u.organization_id = k.organization_id AND u.id = k.user_id';

/** A row of KEY_CREDENTIALS_COLUMNS read as values, in their order. */
export type KeyCredentialsValues = [
  keyId: string,
  organizationId: string,
  userId: string,
  secretHash: string,
  revokedAt: string | null,
  active: number,
];

/** Credentials from values that begin with KEY_CREDENTIALS_COLUMNS, in their order. */
export const keyCredentialsOf = (values: readonly unknown[]): KeyCredentials => {
  const [keyId, organizationId, userId, secretHash, revokedAt, active] = values as KeyCredentialsValues;
  return { keyId, organizationId, userId, secretHash, revoked: revokedAt !== null, userActive: active === 1 };
};

export function createSqliteIdentityRepository(db: Database, queue: WriteQueue): IdentityRepository {
  const insertKey = db.prepare(`
    INSERT INTO api_keys (organization_id, key_id, user_id, secret_hash, created_at, revoked_at, last_used_at)
    VALUES (@organizationId, @keyId, @userId, @secretHash, @createdAt, @revokedAt, @lastUsedAt)`);
  const revokeKey = db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ?');
  const credentials = db
    .prepare(`SELECT ${KEY_CREDENTIALS_COLUMNS} FROM ${KEY_WITH_USER} WHERE k.key_id = ?`)
    .raw();
  // Every request checks its key: the join is read again only after the keys or users changed, through
  // this connection or any other, so a revocation or deactivation still counts from the very next request.
  const changed = credentialsChanged(db);
  const remembered = new Map<string, KeyCredentials | undefined>();
  const readCredentials = (keyId: string): KeyCredentials | undefined => {
    const values = credentials.get(keyId) as KeyCredentialsValues | undefined;
    return values ? keyCredentialsOf(values) : undefined;
  };
  const keyColumns = 'key_id, organization_id, user_id, secret_hash, created_at, revoked_at, last_used_at';
  const selectKey = db.prepare(`SELECT ${keyColumns} FROM api_keys WHERE key_id = ?`);
  const selectKeys = db.prepare(
    `SELECT ${keyColumns} FROM api_keys WHERE organization_id = ? ORDER BY created_at, key_id`,
  );
  const userColumns = 'id, organization_id, email, name, active, created_at';
  const selectUser = db.prepare(`SELECT ${userColumns} FROM users WHERE id = ?`);
  const selectUserByEmail = db.prepare(
    `SELECT ${userColumns} FROM users WHERE organization_id = ? AND email = ?`,
  );
  const insertUser = db.prepare(`
    INSERT INTO users (organization_id, id, email, name, active, created_at)
    VALUES (@organizationId, @id, @email, @name, @active, @createdAt)`);
  const putMember = db.prepare(`
    INSERT INTO group_members (organization_id, group_id, user_id, role) VALUES (?, ?, ?, ?)
    ON CONFLICT (organization_id, group_id, user_id) DO UPDATE SET role = excluded.role`);
  const selectGroup = db.prepare(
    'SELECT id, organization_id AS organizationId, name, created_at AS createdAt FROM groups WHERE id = ?',
  );

  const selectSwitchedOff = db
    .prepare('SELECT kind FROM notification_opt_outs WHERE organization_id = ? AND user_id = ?')
    .pluck();
  const clearSwitchedOff = db.prepare(
    'DELETE FROM notification_opt_outs WHERE organization_id = ? AND user_id = ?',
  );
  const insertSwitchedOff = db.prepare(
    'INSERT INTO notification_opt_outs (organization_id, user_id, kind) VALUES (?, ?, ?)',
  );

  return {
    async countOrganizations() {
      return db.prepare('SELECT COUNT(*) FROM organizations').pluck().get() as number;
    },
    insertOrganization(organization: Organization) {
      return queue.run(() => {
        db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(
          organization.id,
          organization.name,
          organization.createdAt,
        );
      });
    },
    async findOrganization(id) {
      return db.prepare('SELECT id, name, created_at AS createdAt FROM organizations WHERE id = ?').get(id) as
        | Organization
        | undefined;
    },
    insertUser(user: User) {
      return queue.run(() => {
        insertUser.run({ ...user, active: user.active ? 1 : 0 });
      });
    },
    async findUser(id) {
      const row = selectUser.get(id) as UserRow | undefined;
      return row ? toUser(row) : undefined;
    },
    async findUserByEmail(organizationId, email) {
      const row = selectUserByEmail.get(organizationId, email) as UserRow | undefined;
      return row ? toUser(row) : undefined;
    },
    deactivateUser(id) {
      return queue.run(() => {
        db.prepare('UPDATE users SET active = 0 WHERE id = ?').run(id);
      });
    },
    insertGroup(group: Group) {
      return queue.run(() => {
        db.prepare('INSERT INTO groups (organization_id, id, name, created_at) VALUES (?, ?, ?, ?)').run(
          group.organizationId,
          group.id,
          group.name,
          group.createdAt,
        );
      });
    },
    async findGroup(id) {
      return selectGroup.get(id) as Group | undefined;
    },
    putMember(organizationId, groupId, userId, role) {
      return queue.run(() => {
        putMember.run(organizationId, groupId, userId, role);
      });
    },
    removeMember(groupId, userId) {
      return queue.run(
        () =>
          db.prepare('DELETE FROM group_members WHERE group_id = ? AND user_id = ?').run(groupId, userId)
            .changes > 0,
      );
    },
    async countMemberships(organizationId, userId) {
      return db
        .prepare('SELECT COUNT(*) FROM group_members WHERE organization_id = ? AND user_id = ?')
        .pluck()
        .get(organizationId, userId) as number;
    },
    insertKey(key) {
      return queue.run(() => {
        insertKey.run(key);
      });
    },
    async findKey(keyId) {
      const row = selectKey.get(keyId) as KeyRow | undefined;
      return row ? toKey(row) : undefined;
    },
    async findCredentials(keyId): Promise<KeyCredentials | undefined> {
      // Asked before the row is read, so a change committed in between only forgets early.
      if (changed() || remembered.size >= MAX_REMEMBERED_KEYS) remembered.clear();
      if (remembered.has(keyId)) return remembered.get(keyId);
      const found = readCredentials(keyId);
      remembered.set(keyId, found);
      return found;
    },
    revokeKey(keyId, at) {
      return queue.run(() => {
        revokeKey.run(at, keyId);
      });
    },
    replaceKey(oldKeyId, replacement) {
      return queue.run(() => {
        revokeKey.run(replacement.createdAt, oldKeyId);
        insertKey.run(replacement);
      });
    },
    touchKey(keyId, at) {
      return queue.run(() => {
        db.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?').run(at, keyId);
      });
    },
    async listKeys(organizationId) {
      return (selectKeys.all(organizationId) as KeyRow[]).map(toKey);
    },
    async switchedOffNotifications(organizationId, userId) {
      const stored = new Set(selectSwitchedOff.all(organizationId, userId) as string[]);
      return NOTIFICATION_KINDS.filter((kind) => stored.has(kind));
    },
    setSwitchedOffNotifications(organizationId, userId, kinds: readonly NotificationKind[]) {
      return queue.run(() => {
        clearSwitchedOff.run(organizationId, userId);
        for (const kind of new Set(kinds)) insertSwitchedOff.run(organizationId, userId, kind);
      });
    },
  };
}
