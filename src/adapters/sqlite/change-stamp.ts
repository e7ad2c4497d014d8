import type { Database } from 'better-sqlite3';

/**
 * A reading that moves whenever the database may have changed: `PRAGMA data_version` moves when any
 * other connection (the CLI, another process) commits, and `total_changes()` moves with every row this
 * connection writes. A value read while the stamp was S is still current as long as the stamp is S.
 */
export function changeStamp(db: Database): () => string {
  const read = db.prepare('SELECT data_version, total_changes() FROM pragma_data_version').raw();
  return () => {
    const [dataVersion, ownChanges] = read.get() as [number, number];
    return `${dataVersion}:${ownChanges}`;
  };
}
