// Prints, as JSON, every npm package each server bundle loads at run time:
//   { "services/auth/dist/main.js": ["drizzle-orm/node-postgres", "express", ...], ... }
// It reads the built bundles themselves (esbuild's metafile of the output, so nothing here repeats
// scripts/build.mjs's settings): static imports, dynamic import("...") of a literal and require("...").
// Run in the image's build stage; docker/check-runtime-deps.mjs checks the list in the runtime stage.
import { existsSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// Every service's bundles: its main.js and any sandbox child it forks (import-sandbox.js, …).
const bundles = [
  ...readdirSync(path.join(root, 'services')).flatMap((name) => {
    const dist = path.join(root, 'services', name, 'dist');
    return existsSync(dist)
      ? readdirSync(dist)
          .filter((file) => file.endsWith('.js'))
          .map((file) => `services/${name}/dist/${file}`)
      : [];
  }),
  'gateway/dist/main.js',
  // The operator's re-encryption command (`rekey`), run from the same image.
  'dist/rekey.js',
];
const builtins = new Set(builtinModules);
const isBuiltin = (p) => p.startsWith('node:') || builtins.has(p) || builtins.has(p.split('/')[0]);

const result = {};
for (const bundle of bundles) {
  const found = new Set();
  await build({
    entryPoints: [path.join(root, bundle)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [
      {
        name: 'collect-bare-imports',
        setup(b) {
          // Only the bundle itself is read: every bare specifier it names is a run-time package.
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (!isBuiltin(args.path)) found.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  result[bundle] = [...found].sort();
}
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
