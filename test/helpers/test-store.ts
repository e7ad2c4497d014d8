/**
 * Opens a fresh, migrated store for one test file, and removes it afterwards. TEST_BACKEND picks the
 * backend (sqlite, the default, or postgres: a schema of its own in TEST_DATABASE_URL), so the same
 * suites run on both (see vitest.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { createTestSchema } from './postgres.js';

export type Backend = 'sqlite' | 'postgres';
export const ALL_BACKENDS: Backend[] = ['sqlite', 'postgres'];

export interface TestStore {
  store: Store;
  /**
   * What reaches the same store as DATABASE_URL, for a test's own connections or commands: the
   * postgres:// URL of the store's schema, or the SQLite file's path.
   */
  url: string;
  /** Removes everything the store created. */
  destroy(): Promise<void>;
}

/** The backend chosen by TEST_BACKEND; sqlite when unset. */
export function testBackend(): Backend {
  const value = process.env.TEST_BACKEND || 'sqlite';
  if (!ALL_BACKENDS.includes(value as Backend)) {
    throw new Error(`TEST_BACKEND must be one of ${ALL_BACKENDS.join(', ')} (got "${value}")`);
  }
  return value as Backend;
}

export async function openTestStore(
  backend: Backend = testBackend(),
  options: { migrate?: boolean; poolSize?: number } = {},
): Promise<TestStore> {
  const migrate = options.migrate ?? true;
  if (backend === 'postgres') {
    const schema = await createTestSchema();
    const store = openPostgresStore({ url: schema.url, poolSize: options.poolSize ?? 4 });
    if (migrate) await store.migrate();
    return {
      store,
      url: schema.url,
      async destroy() {
        await store.close();
        await schema.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-test-'));
  const path = join(dir, 'eventplan.db');
  const store = openSqliteStore({ path });
  if (migrate) await store.migrate();
  return {
    store,
    url: path,
    async destroy() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
