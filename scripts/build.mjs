// Builds what `npm start` and the service images run: one ESM bundle per service, the gateway and the
// all-in-one launcher (workspace code bundled in, npm packages left to node_modules), and the SPA with
// Vite when its sources changed since the last build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const services = ['auth', 'thoughts', 'insights', 'assistant', 'integrations', 'portability'];

const entries = [
  ...services.map((s) => ({ in: `services/${s}/src/main.ts`, out: `services/${s}/dist/main.js` })),
  // The import sandbox's child process (services/portability/src/domain/import/sandbox/sandbox.ts).
  {
    in: 'services/portability/src/domain/import/sandbox/child.ts',
    out: 'services/portability/dist/import-sandbox.js',
  },
  // The mail sandbox's child process (services/integrations/src/domain/mail/mail-parser.ts).
  {
    in: 'services/integrations/src/domain/mail/parse-sandbox.ts',
    out: 'services/integrations/dist/mail-sandbox.js',
  },
  // `npm run backup` / `npm run restore`, and the image's `backup` / `restore` commands.
  { in: 'services/portability/src/backup-cli.ts', out: 'services/portability/dist/backup.js' },
  { in: 'gateway/src/main.ts', out: 'gateway/dist/main.js' },
  { in: 'scripts/all-in-one.ts', out: 'dist/all-in-one.js' },
  // `npm run rekey`, and the image's `rekey` command.
  { in: 'scripts/rekey.ts', out: 'dist/rekey.js' },
];

/** npm packages stay external (resolved from node_modules at run time); our workspaces are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@haven/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const started = Date.now();
const results = await Promise.all(
  entries.map((e) =>
    build({
      entryPoints: [path.join(root, e.in)],
      outfile: path.join(root, e.out),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [externalPackages],
      metafile: true,
    }),
  ),
);

// Each bundle loads its packages from node_modules at run time: make sure the root can see every one
// (npm may leave a workspace's dependency nested, where the all-in-one bundle would not find it).
const missing = new Set();
for (const { metafile } of results) {
  for (const output of Object.values(metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || imp.path.startsWith('node:')) continue;
      const name = imp.path.startsWith('@')
        ? imp.path.split('/').slice(0, 2).join('/')
        : imp.path.split('/')[0];
      if (!existsSync(path.join(root, 'node_modules', name))) missing.add(name);
    }
  }
}
if (missing.size > 0) {
  console.error(
    `These packages are not installed at the root node_modules: ${[...missing].join(', ')}. Run npm install.`,
  );
  process.exit(1);
}
console.log(`built ${entries.length} server bundles in ${Date.now() - started} ms`);

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const frontend = path.join(root, 'frontend');
const builtIndex = path.join(frontend, 'dist', 'index.html');
const sources = Math.max(
  newest(path.join(frontend, 'src')),
  newest(path.join(frontend, 'build')),
  newest(path.join(root, 'contracts', 'src')),
  ...['index.html', 'vite.config.ts', 'package.json'].map((f) => statSync(path.join(frontend, f)).mtimeMs),
);
if (process.env.FORCE_BUILD || !existsSync(builtIndex) || statSync(builtIndex).mtimeMs < sources) {
  const t = Date.now();
  execFileSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: frontend,
    stdio: 'inherit',
    // What ships, whoever builds: under vitest NODE_ENV is 'test', and Vite then bundles React's
    // development build (three times the size, and slower), so the browser tests ran something else.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  console.log(`built the web app in ${Date.now() - t} ms`);
} else {
  console.log('web app is up to date');
}
