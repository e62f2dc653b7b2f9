import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DATA_TEMPLATE_ENV } from './support/data-template';

/**
 * Builds the bundles and the SPA once, so the end-to-end tests run what `npm start` runs, and makes
 * the data folder they each start from a copy of (see support/data-template.ts).
 */
export default function setup(): () => void {
  const root = path.join(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const template = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test', 'support', 'data-template.ts')],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
    .trim()
    .split('\n')
    .at(-1)!;
  // The test files' processes are started after this, with this environment.
  process.env[DATA_TEMPLATE_ENV] = template;
  return () => rmSync(template, { recursive: true, force: true });
}
