import type { DatabaseConfig } from '../config.js';
import type { Store } from '../ports/store.js';

/** Opens the backend the configuration names; only that backend's driver is loaded. */
export async function openStore(database: DatabaseConfig): Promise<Store> {
  if (database.kind === 'sqlite') {
    const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
    return openSqliteStore({ path: database.path });
  }
  const { openPostgresStore } = await import('./postgres/postgres-store.js');
  return openPostgresStore({
    url: database.url,
    poolSize: database.poolSize,
    statementTimeoutMs: database.statementTimeoutMs,
  });
}
