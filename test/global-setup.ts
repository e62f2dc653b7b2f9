import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds the bundles and the SPA once, so the end-to-end tests run what `npm start` runs. */
export default function setup(): void {
  execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'build.mjs')], {
    stdio: 'inherit',
  });
}
