/**
 * The order Vitest starts test files in (vitest.config.ts, `sequence.sequencer`). On a fresh clone
 * Vitest has no timings of earlier runs and starts the largest files first, so the crash suites, small
 * files that run for a minute, used to start last and finish alone on one core. The files below, the
 * slowest of a CI run in that order, start first in every project; the rest keep Vitest's own order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = [
  'test/durability/crash-sqlite.test.ts',
  'test/durability/crash-postgres.test.ts',
  'test/people/throttling.test.ts',
  'test/browser/venue-page.test.ts',
  'test/browser/moves.test.ts',
  'test/cli/cli.test.ts',
  'test/browser/sign-in.test.ts',
  'test/ops/shutdown.test.ts',
  'test/browser/proposals.test.ts',
  'test/browser/forgot-password.test.ts',
  'test/browser/words.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOWEST.indexOf(relative(this.ctx.config.root, file.moduleId));
      return index === -1 ? SLOWEST.length : index;
    };
    // Array.prototype.sort is stable: equal ranks keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
