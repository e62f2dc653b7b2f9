import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** How many characters of a failure's first error line the closing list keeps. */
const ERROR_CHARS = 300;

/**
 * Prints, after vitest's own report, the ten slowest files (where the run's time goes), every failed
 * test with the first line of its error (CI shows the tail of a run's output, so a red run names
 * its failures there), and one plain closing line, `tests: N passed, N failed, N skipped`, that any
 * CI can read whatever reporter it knows.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const mod of testModules) {
      const tests = [...mod.children.allTests()];
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failures.push(describeFailure(mod, test));
        else skipped++;
      }
      if (mod.state() === 'failed' && tests.length === 0)
        failures.push(`${mod.relativeModuleId}: ${firstLine(mod.errors()[0]?.message)}`);
    }
    const slowest = testModules
      .map((mod) => ({ file: mod.relativeModuleId, ms: mod.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    process.stdout.write('\nslowest files:\n');
    for (const { file, ms } of slowest)
      process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
    if (failures.length > 0) {
      process.stdout.write('\nfailed:\n');
      for (const failure of failures) process.stdout.write(`  ${failure}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failures.length} failed, ${skipped} skipped\n`);
  }
}

/** `file > suite > test: first line of the error`, on one line. */
function describeFailure(mod: TestModule, test: TestCase): string {
  const result = test.result();
  const error = result.state === 'failed' ? result.errors?.[0] : undefined;
  return `${mod.relativeModuleId} > ${test.fullName}: ${firstLine(error?.message)}`;
}

function firstLine(message: string | undefined): string {
  const line = (message ?? 'no error message').split('\n')[0] ?? '';
  return line.length > ERROR_CHARS ? `${line.slice(0, ERROR_CHARS)}…` : line;
}
