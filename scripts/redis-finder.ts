import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import path from 'node:path';
import { connectRedis, createRedis } from '@haven/kit/redis';

/** The redis-server binary on the PATH, if there is one. */
function redisServerOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

async function answers(url: string): Promise<boolean> {
  const client = createRedis(url, { retryStrategy: () => null });
  try {
    await connectRedis(client, url, 1500);
    client.disconnect();
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure Redis answers at `url`. When nothing does, the URL points at this machine and a
 * `redis-server` binary is on the PATH, starts a private one keeping its data under `dataDir`.
 * Otherwise throws a message saying how to get Redis.
 */
export async function ensureRedis(
  url: string,
  dataDir: string,
): Promise<{ child?: ChildProcess; stop(): Promise<void> }> {
  if (await answers(url)) return { stop: async () => undefined };
  const u = new URL(url);
  const local = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname);
  const binary = redisServerOnPath();
  if (!local || !binary) {
    throw new Error(
      `Nothing answers at REDIS_URL=${url}. Start Redis (for example "redis-server", or "apt-get install redis-server" / "brew install redis"), or point REDIS_URL at one.`,
    );
  }
  const dir = path.resolve(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    binary,
    [
      '--port',
      u.port || '6379',
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      // Sessions and queued jobs live here: keep them across a restart (BullMQ's production advice).
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 50; i++) {
    if (await answers(url)) break;
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!(await answers(url))) throw new Error(`Started redis-server but nothing answers at ${url}`);
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
