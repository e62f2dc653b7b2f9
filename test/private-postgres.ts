/**
 * A private PostgreSQL cluster for one test, built with the machine's own `initdb` and `pg_ctl`, on
 * its own port, which the test can stop (in any shutdown mode) and start again to simulate an outage.
 * PostgreSQL refuses to run as root, so under root it runs as the `postgres` OS user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@haven/kit/net';

const run = promisify(execFile);
const RUNUSER =
  ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => existsSync(p)) ?? 'runuser';

/** The newest server binaries under /usr/lib/postgresql/<version>/bin, or undefined when absent. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (['initdb', 'pg_ctl', 'pg_isready'].every((tool) => existsSync(path.join(bin, tool)))) return bin;
  }
  return undefined;
}

/** The OS user the server runs as: `postgres` when we are root, else ourselves. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, but there is no postgres OS user to run the server as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export interface PrivatePostgres {
  /** A URL for the cluster's `postgres` database. */
  url: string;
  port: number;
  /** `pg_ctl stop` in the given mode, waiting until the server is gone. */
  stop(mode: 'immediate' | 'fast' | 'smart'): Promise<void>;
  /** `pg_ctl start`, resolving once the server accepts connections. */
  start(): Promise<void>;
  isReady(): Promise<boolean>;
  /** Stops the server (if running) and removes every file. Safe to call more than once. */
  destroy(): Promise<void>;
  /** The server's log, for a failure message. */
  log(): string;
}

/** Creates and starts a fresh cluster with trust authentication, listening on 127.0.0.1 only. */
export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const user = serverUser();
  const dir = mkdtempSync(path.join(tmpdir(), 'haven-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (user) chownSync(dir, user.uid, user.gid);
  const port = await freePort();
  const tool = (name: string, args: string[]) =>
    user
      ? run(RUNUSER, ['-u', 'postgres', '--', path.join(bin, name), ...args], { cwd: dir })
      : run(path.join(bin, name), args, { cwd: dir });
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`;

  const start = async () => {
    await tool('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '30', '-o', options]);
  };
  const stop = async (mode: string) => {
    await tool('pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '30']);
  };
  const isReady = async () => {
    try {
      await run(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-t', '1']);
      return true;
    } catch {
      return false;
    }
  };

  // Should the test process leave without its cleanup (a worker torn down after a hook timed out),
  // the server must not outlive it.
  const onExit = () => {
    if (!existsSync(path.join(dataDir, 'postmaster.pid'))) return;
    const args = ['stop', '-D', dataDir, '-m', 'immediate', '-w'];
    try {
      if (user) execFileSync(RUNUSER, ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args]);
      else execFileSync(path.join(bin, 'pg_ctl'), args);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  let destroyed = false;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    process.off('exit', onExit);
    if (existsSync(path.join(dataDir, 'postmaster.pid'))) await stop('immediate').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await tool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    await start();
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    isReady,
    destroy,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}
