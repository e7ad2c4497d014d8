/**
 * Every storage backend the contract suites run against (kysely style): TEST_BACKEND narrows the list
 * to one, which is how vitest.config.ts runs the suites once per backend.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '../../src/ports/store.js';
import { describeWithService } from '../helpers/services.js';
import { ALL_BACKENDS, type Backend, openTestStore, type TestStore } from '../helpers/test-store.js';

export const BACKENDS: Backend[] = process.env.TEST_BACKEND
  ? ALL_BACKENDS.filter((backend) => backend === process.env.TEST_BACKEND)
  : ALL_BACKENDS;

/**
 * A suite on one backend with a fresh store for the whole file's suite; PostgreSQL suites skip (or,
 * in CI, fail) when TEST_DATABASE_URL is unset.
 */
export function describeStore(backend: Backend, name: string, suite: (store: () => Store) => void) {
  const body = () => {
    let opened: TestStore;
    beforeAll(async () => {
      opened = await openTestStore(backend);
    });
    afterAll(() => opened?.destroy());
    suite(() => opened.store);
  };
  const title = `${name} on ${backend}`;
  if (backend === 'postgres') describeWithService('postgres', title, body);
  else describe(title, body);
}
