// Regenerates each service's migrations from its Drizzle schema (drizzle-kit generate). The SQL is
// committed; services apply it on start.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const folders = [
  'services/auth',
  'services/thoughts',
  'services/insights',
  'services/assistant',
  'services/integrations',
  'services/portability',
  'services/kit/test',
];
for (const folder of folders) {
  const cwd = path.join(root, folder);
  if (!existsSync(path.join(cwd, 'drizzle.config.ts'))) continue;
  console.log(`\n== ${folder}`);
  execFileSync(
    path.join(root, 'node_modules/.bin/drizzle-kit'),
    ['generate', '--config', 'drizzle.config.ts', ...process.argv.slice(2)],
    { cwd, stdio: 'inherit' },
  );
}
