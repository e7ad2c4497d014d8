import type { Database } from 'better-sqlite3';

/** Columns of api_keys whose change can change a key's credentials: all but last_used_at. */
const KEY_COLUMNS = 'organization_id, key_id, user_id, secret_hash, created_at, revoked_at';

/**
 * Whether a key's credentials may have changed since the last call: `PRAGMA data_version` moves when
 * any other connection (the CLI, another server process) commits, and temporary triggers on `api_keys`
 * and `users` count every row this connection inserts, updates (a key's `last_used_at` aside) or
 * deletes there. Writes of events do not move it, so a server under write load keeps the credentials
 * it read (`total_changes()`, used before, moved with every row written); one statement a call. A
 * rolled-back write still counts: it only makes the caller forget early.
 */
export function credentialsChanged(db: Database): () => boolean {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let ownWrites = 0;
  let watching = false;
  // The triggers are made on first use: the connection is opened before the migrations make the tables.
  const watch = () => {
    db.function('eventplan_credentials_written', { deterministic: false }, () => {
      ownWrites++;
      return null;
    });
    const count = 'BEGIN SELECT eventplan_credentials_written(); END';
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS eventplan_key_inserted AFTER INSERT ON main.api_keys ${count};
      CREATE TEMP TRIGGER IF NOT EXISTS eventplan_key_updated AFTER UPDATE OF ${KEY_COLUMNS} ON main.api_keys ${count};
      CREATE TEMP TRIGGER IF NOT EXISTS eventplan_key_deleted AFTER DELETE ON main.api_keys ${count};
      CREATE TEMP TRIGGER IF NOT EXISTS eventplan_user_inserted AFTER INSERT ON main.users ${count};
      CREATE TEMP TRIGGER IF NOT EXISTS eventplan_user_updated AFTER UPDATE ON main.users ${count};
      CREATE TEMP TRIGGER IF NOT EXISTS eventplan_user_deleted AFTER DELETE ON main.users ${count};`);
    watching = true;
  };
  let seenVersion: unknown;
  let seenWrites = -1;
  return () => {
    if (!watching) watch();
    const version = dataVersion.get();
    if (version === seenVersion && ownWrites === seenWrites) return false;
    seenVersion = version;
    seenWrites = ownWrites;
    return true;
  };
}
