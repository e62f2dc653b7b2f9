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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/global-setup.ts'],
    // The product's bundle is loaded by Node as `npm start` loads it (test/support/bundle.ts).
    server: { deps: { external: [/\/dist\/all-in-one\.js$/] } },
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          // The unit tests beside the code share their two processes (no fresh process and module
          // graph per file): 77 files ran in 130 s instead of 159 s. None sets what another reads; the
          // import fuzz test measures its heap, so it runs in 'main', alone in its process.
          name: 'unit',
          include: UNIT,
          exclude: ['**/node_modules/**', '**/dist/**', ...OWN_PROCESS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          include: [
            'services/*/test/**/*.test.ts',
            'gateway/test/**/*.test.ts',
            'test/**/*.test.ts',
            ...OWN_PROCESS,
          ],
          exclude: ['**/node_modules/**', '**/dist/**', 'test/e2e/**', ...HEAVY],
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
        },
      },
      { extends: true, test: { name: 'heavy', include: HEAVY, sequence: { groupOrder: 1 } } },
    ],
  },
});
