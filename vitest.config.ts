import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/slow-first.js';

/**
 * Three projects. `sqlite` runs every suite on the embedded store; `fast-paths` runs the HTTP suites
 * on it once more through the server's fast paths, compared with the routes. `postgres` runs the repository
 * contract, the HTTP suites, the people use cases and the dashboard's browser tests again on PostgreSQL (a schema of their own per test file); it is on
 * when TEST_DATABASE_URL is set, and also when EVENTPLAN_REQUIRE_SERVICES=1 so that CI fails, rather
 * than skips, if the URL is missing. Suites that need PostgreSQL or Redis themselves skip with a
 * visible reason when their URL is unset (test/helpers/services.ts).
 */
const postgresProject =
  Boolean(process.env.TEST_DATABASE_URL) || process.env.EVENTPLAN_REQUIRE_SERVICES === '1';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The slowest files start first, so that none of them is left running alone at the end.
    sequence: { sequencer: SlowestFirst },
    // Passwords hashed in tests cost about 1 ms instead of half a second (test/helpers/cheap-hashing.ts).
    setupFiles: ['test/helpers/cheap-hashing.ts'],
    // Two test files at a time even on two cores (Vitest's default there is one): most files wait on
    // Chromium, PostgreSQL or a child server more than they compute. At most four, so that a large
    // machine does not start a browser per core.
    maxWorkers: Math.min(Math.max(2, availableParallelism()), 4),
    // CI also writes a JSON report, from which .ci/summary prints the closing "N passed, N failed" line.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: '.ci/results/vitest.json' }]]
      : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          env: { TEST_BACKEND: 'sqlite' },
        },
      },
      {
        // The HTTP suites again, with requests going through the fast paths and every read checked
        // against the routes' own answer (test/helpers/test-app.ts): the two ways through cannot drift.
        extends: true,
        test: {
          name: 'fast-paths',
          include: ['test/http/**/*.test.ts'],
          env: { TEST_BACKEND: 'sqlite', TEST_FAST_PATHS: '1' },
        },
      },
      ...(postgresProject
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: [
                  'test/contract/**/*.test.ts',
                  'test/http/**/*.test.ts',
                  'test/webhooks/**/*.test.ts',
                  'test/mail/**/*.test.ts',
                  // The people use cases that touch the store (throttling counts do not).
                  'test/people/{credentials,invites,password-resets,sessions}.test.ts',
                  // The dashboard's use cases, which read and write through the store.
                  'test/app/**/*.test.ts',
                  // The dashboard in a real browser, over a real store.
                  'test/browser/**/*.test.ts',
                  // The benchmark's floor, against eventplan on the same backend.
                  'test/bench/**/*.test.ts',
                ],
                env: { TEST_BACKEND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
