// Prints the test run's closing line, "Tests: N passed, N failed, N skipped", from vitest's JSON report.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('./results/vitest.json', import.meta.url), 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
