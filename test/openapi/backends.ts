/**
 * These suites check behaviour that lives partly in the store (conditions checked inside the write
 * transaction, idempotency records): they run on every backend, PostgreSQL when TEST_DATABASE_URL is
 * set (or, in CI, always).
 */
import { describe } from 'vitest';
import { describeWithService } from '../helpers/services.js';
import { ALL_BACKENDS, type Backend } from '../helpers/test-store.js';

export function describeOnEveryBackend(name: string, suite: (backend: Backend) => void): void {
  for (const backend of ALL_BACKENDS) {
    const title = `${name} on ${backend}`;
    if (backend === 'postgres') describeWithService('postgres', title, () => suite(backend));
    else describe(title, () => suite(backend));
  }
}
