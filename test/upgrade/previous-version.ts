/**
 * An earlier commit of Haven, built and started beside the current code: what a rolling update runs
 * for a while (test/mixed-version.test.ts). Its tree is taken from git (`git archive`), its npm
 * packages are this checkout's own (linked; a full `npm ci` only when it needs one this checkout
 * lacks), and it is built with its own build script into its own dist/.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

const git = (...args: string[]) =>
  execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit `rev` names, or null when this checkout has no such commit (a shallow clone, no .git). */
export function commitOf(rev: string): string | null {
  try {
    return git('rev-parse', '--verify', '--quiet', `${rev}^{commit}`) || null;
  } catch {
    return null;
  }
}

/** The commit's one-line subject, for messages. */
export const subjectOf = (commit: string): string => git('log', '-1', '--format=%h %s', commit).slice(0, 100);

interface PackageLock {
  packages: Record<string, { link?: boolean }>;
}

/** The npm packages the tree's lock file installs at its top level that this checkout lacks. */
function missingPackages(dir: string): string[] {
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as PackageLock;
  return Object.entries(lock.packages)
    .filter(([key, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) && !entry.link)
    .map(([key]) => key.slice('node_modules/'.length))
    .filter((name) => !existsSync(path.join(ROOT, 'node_modules', name)));
}

/** node_modules for the old tree: this checkout's packages, but its own workspaces under @haven/. */
function linkPackages(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@haven'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@haven') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  const { workspaces } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  for (const workspace of workspaces) {
    const { name } = JSON.parse(readFileSync(path.join(dir, workspace, 'package.json'), 'utf8')) as {
      name: string;
    };
    symlinkSync(path.join(dir, workspace), path.join(modules, name));
  }
}

/** Extracts and builds `commit` into `dir` (emptied first). */
export function buildPreviousVersion(commit: string, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('bash', ['-c', 'git -C "$ROOT" archive --format=tar "$COMMIT" | tar -x -C "$DIR"'], {
    env: { PATH: process.env.PATH, ROOT, COMMIT: commit, DIR: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (missingPackages(dir).length === 0) linkPackages(dir);
  else
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  // The web app is not what is tested here: this checkout's build serves (and is newer than its
  // sources, so the old build script keeps it).
  cpSync(path.join(ROOT, 'frontend', 'dist'), path.join(dir, 'frontend', 'dist'), { recursive: true });
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The old version's `npm start` (its all-in-one) on `env`; resolves with its URL once it serves. */
export async function startPreviousVersion(
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; output: () => string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [path.join(dir, 'dist', 'all-in-one.js')], {
    cwd: dir,
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the previous version did not start:\n${output}`)),
      90_000,
    );
    const look = () => {
      const m = /Haven is running at (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the previous version exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
