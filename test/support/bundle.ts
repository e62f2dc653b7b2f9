import path from 'node:path';
import type { startAllInOne as StartAllInOne } from '../../scripts/all-in-one';

/** The all-in-one bundle the build makes: what `npm start` runs. */
export const ALL_IN_ONE_BUNDLE = path.join(import.meta.dirname, '..', '..', 'dist', 'all-in-one.js');

/**
 * `startAllInOne` of the built bundle (the test run's global set-up builds it; `npm run bench` too).
 * Node loads it as it is (vitest.config.ts leaves it out of Vite's transform): a test file that
 * imported the product's TypeScript instead spent five seconds of a core compiling and evaluating
 * the product's whole module graph before its first test, and the browser tests start the product in each file.
 */
export async function startAllInOne(
  ...args: Parameters<typeof StartAllInOne>
): ReturnType<typeof StartAllInOne> {
  const bundle = (await import(ALL_IN_ONE_BUNDLE)) as { startAllInOne: typeof StartAllInOne };
  return bundle.startAllInOne(...args);
}
