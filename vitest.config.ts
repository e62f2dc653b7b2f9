import { defineConfig } from 'vitest/config';

/**
 * One run for everything: unit tests beside the code, service tests against a real PostgreSQL (or
 * PGlite) and Redis, and the browser tests in test/e2e. Files run in parallel processes; the
 * end-to-end files start their own stack on free ports.
 */
export default defineConfig({
  test: {
    include: [
      'contracts/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'gateway/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
