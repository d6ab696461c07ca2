import type { Reporter, SerializedError, TestModule, TestRunEndReason, TestSuite } from 'vitest/node';

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Counts a run honestly: a test file that fails to load or collect, a failing `beforeAll`/`afterAll`,
 * and every unhandled error count as failures next to failed tests, and a run that vitest ends as
 * failed or interrupted never reads `0 failed` (CI trusts this line alone).
 */
export function summarize(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason,
): RunSummary {
  const summary: RunSummary = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') summary.passed++;
      else if (state === 'failed') summary.failed++;
      else summary.skipped++;
    }
    // Errors outside any test: import and collection failures, failed suite-level hooks.
    for (const suite of [module, ...module.children.allSuites()] as (TestModule | TestSuite)[]) {
      if (suite.errors().length > 0) summary.failed++;
    }
  }
  if (reason !== 'passed' && summary.failed === 0) summary.failed = 1;
  return summary;
}

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const { passed, failed, skipped } = summarize(testModules, unhandledErrors, reason);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
