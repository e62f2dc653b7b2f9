import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DATA_TEMPLATE_ENV } from './support/data-template';

const run = promisify(execFile);

/**
 * Builds the bundles and the SPA once, so the end-to-end tests run what `npm start` runs, and makes
 * the data folder they each start from a copy of (see support/data-template.ts). The two are
 * independent (the template is made by the product's TypeScript), so they run side by side.
 */
export default async function setup(): Promise<() => void> {
  // Every project of vitest.config.ts inherits this set-up and vitest runs it for each, one after
  // another in vitest's own process (so they share this environment): the first does the work (it
  // was done four times), the others find it done.
  if (process.env[DATA_TEMPLATE_ENV]) return () => undefined;
  const root = path.join(import.meta.dirname, '..');
  const [built, made] = await Promise.all([
    run(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, maxBuffer: 16 << 20 }),
    run(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'support', 'data-template.ts')], {
      cwd: root,
      maxBuffer: 16 << 20,
    }),
  ]);
  process.stdout.write(built.stdout + built.stderr);
  process.stderr.write(made.stderr);
  const template = made.stdout.trim().split('\n').at(-1)!;
  // The test files' processes are started after this, with this environment.
  process.env[DATA_TEMPLATE_ENV] = template;
  return () => rmSync(template, { recursive: true, force: true });
}
