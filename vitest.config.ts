import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The test files that load the whole machine on their own: a dozen processes of the distributed
 * stack, a zip bomb, a hundred thousand items and a real diary of 3,413 days. They run after everything else (two at a time,
 * with each other only), so the browser tests never share two cores with them.
 */
const HEAVY = [
  'test/distributed.test.ts',
  'services/portability/test/hostile.test.ts',
  'services/portability/test/sandbox.test.ts',
  'services/portability/test/replicas.test.ts',
  'test/memory/pepys.test.ts',
];

/** The unit tests, beside the code they test. */
const UNIT = [
  'contracts/src/**/*.test.ts',
  'frontend/src/**/*.test.ts',
  'services/*/src/**/*.test.ts',
  'gateway/src/**/*.test.ts',
];

/** Unit tests that need a process of their own (they measure it). */
const OWN_PROCESS = ['services/portability/src/domain/import/formats/fuzz.test.ts'];

/**
 * One run for everything: unit tests beside the code, service tests against a real PostgreSQL (or
 * PGlite) and Redis, and the browser tests in test/e2e. Files run in parallel processes; the
 * end-to-end files start their own stack on free ports.
 */
export default defineConfig({
  // The SPA's own modules import each other as `@/…` (its Vite config says the same).
  resolve: { alias: { '@': fileURLToPath(new URL('./frontend/src', import.meta.url)) } },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    maxWorkers: 2,
    // A worker process runs file after file (each test file starts, and stops in its afterAll, what it
    // needs): the modules a file imports, and the product's bundle, are loaded once per worker, not
    // once per file. The browser files took 183 s of CPU instead of 280 s, the service files 230 s
    // instead of 326 s. The projects that measure a process (its heap, its event loop) isolate theirs.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/global-setup.ts'],
    // The product's bundle is loaded by Node as `npm start` loads it (test/support/bundle.ts).
    server: { deps: { external: [/\/dist\/all-in-one\.js$/] } },
    reporters: ['default', './test/summary-reporter.ts'],
    // Three groups, one after another: the unit tests beside the code first (a slip there shows in
    // two minutes), then the service and browser tests, then the heavy files. Within a group the
    // longest files go first (vitest orders them by the last run's durations, else by size).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: ['**/node_modules/**', '**/dist/**', ...OWN_PROCESS],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // First of its group by name, beside the longest browser file, not last in the group's tail.
          name: 'alone',
          include: OWN_PROCESS,
          isolate: true,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          include: ['services/*/test/**/*.test.ts', 'gateway/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', 'test/e2e/**', ...HEAVY],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // No retry: a browser test that fails once is a finding. The reset-password flow's stall
          // at 'Check Your Email' (issue 19) was the test typing into the login form's 'Email' while
          // React was still swapping it for the reset form; the test now fills the reset form's own.
          // A browser flow is a dozen steps, each waiting on a condition (never a fixed time); on two
          // busy cores the whole may take longer than a unit test's bound, without anything being wrong.
          testTimeout: 60_000,
          hookTimeout: 90_000,
          sequence: { groupOrder: 1 },
        },
      },
      { extends: true, test: { name: 'heavy', include: HEAVY, isolate: true, sequence: { groupOrder: 2 } } },
    ],
  },
});
