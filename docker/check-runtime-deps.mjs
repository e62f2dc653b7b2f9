// Fails the image build when a server bundle cannot load an npm package it imports.
// Usage: node docker/check-runtime-deps.mjs docker/externals.json   (made by docker/list-externals.mjs)
// For each bundle, a throw-away module placed in the bundle's own folder imports every package the
// bundle names: Node resolves them exactly as it will for the bundle (services/<name>/node_modules,
// then /app/node_modules), and loading them also catches a package whose own dependencies are absent.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const listFile = process.argv[2] ?? 'docker/externals.json';
const bundles = JSON.parse(readFileSync(listFile, 'utf8'));
const root = process.cwd();
let failed = 0;
let checked = 0;

for (const [bundle, specifiers] of Object.entries(bundles)) {
  const probe = path.join(root, path.dirname(bundle), `.runtime-deps-check-${process.pid}.mjs`);
  writeFileSync(
    probe,
    `const missing = [];
for (const s of ${JSON.stringify(specifiers)}) {
  try { await import(s); } catch (e) { missing.push(s + ': ' + (e && e.code ? e.code + ' ' : '') + String(e && e.message).split('\\n')[0]); }
}
if (missing.length) { console.error(missing.join('\\n')); process.exit(1); }
process.exit(0);
`,
  );
  const run = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 120_000 });
  rmSync(probe, { force: true });
  checked += specifiers.length;
  if (run.status !== 0) {
    failed++;
    console.error(`${bundle} cannot load:\n${(run.stderr || run.error?.message || '').trim()}\n`);
  }
}
if (Object.keys(bundles).length === 0) {
  console.error(`${listFile} names no bundle`);
  process.exit(1);
}
if (failed > 0) {
  console.error(`${failed} bundle(s) miss run-time packages: the image would not start them.`);
  process.exit(1);
}
process.stdout.write(
  `runtime packages ok: ${checked} imports of ${Object.keys(bundles).length} bundles load\n`,
);
