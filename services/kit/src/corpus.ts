import { existsSync } from 'node:fs';

/**
 * Whether a part of the real corpora (`../shared/corpora`, read in place, never copied into the
 * project) is there, for a test that runs on it. CI has `shared/` beside the checkout: there a
 * missing part fails the test file at once, naming the path. Anywhere else the test is skipped, and
 * said so on the console.
 */
export function corpusPresent(path: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI)
    throw new Error(`${path} is missing: CI runs with ../shared (and its corpora) beside the checkout`);
  console.warn(`skipped: ${path} is not on this machine (../shared/corpora beside the checkout)`);
  return false;
}
