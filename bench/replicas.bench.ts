import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@haven/kit/config';
import { repoPath } from '@haven/kit/paths';
import { createScratchDatabase, freePort, sessionCookie } from '@haven/kit/testing';
import { startRoundRobin } from '../test/support/round-robin';
import { load, printTable, ratio } from './lib';

/** Starts one part of the stack from its bundle (as its container would), resolving once ready. */
async function startPart(
  service: string,
  env: Record<string, string>,
  children: ChildProcess[],
): Promise<string> {
  const port = await freePort();
  const child = spawn(repoPath('docker', 'entrypoint.sh'), [], {
    cwd: repoPath(),
    env: { PATH: process.env.PATH, ...env, PORT: String(port), SERVICE: service },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${service} never became ready`);
}

/**
 * The build, and what a second replica of a service buys behind the gateway: the gateway and two
 * thoughts processes from their bundles, a round-robin address in front of the replicas (as Docker's
 * DNS or a Kubernetes Service), the same day's thoughts read through the gateway with one replica
 * behind that address and then with two, in one run.
 */
export async function benchReplicas(): Promise<void> {
  console.log('\nBuild and replicas');
  let started = performance.now();
  execFileSync(process.execPath, [repoPath('scripts', 'build.mjs')], { stdio: 'ignore' });
  console.log(
    `  build of every bundle (SPA up to date): ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (!process.env.DATABASE_URL) {
    console.log('  replicas skipped: needs DATABASE_URL (the processes share the database)');
    return;
  }
  const database = await createScratchDatabase(process.env.DATABASE_URL);
  const children: ChildProcess[] = [];
  const balancer = await startRoundRobin();
  try {
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `r${randomBytes(4).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      INTERNAL_SECRET: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      THOUGHTS_URL: balancer.url,
    };
    started = performance.now();
    const replicas = await Promise.all([
      startPart('thoughts', env, children),
      startPart('thoughts', env, children),
    ]);
    console.log(
      `  two thoughts processes up (migrations included): ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    balancer.targets.push(replicas[0]!);
    const gateway = await startPart('gateway', env, children);
    const cookie = await sessionCookie(loadConfig(env), 11);
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 30; i++)
      await fetch(`${gateway}/api/thoughts`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          content: `Thought ${i} of a busy day.`,
          clientDate: new Date().toISOString(),
          timezoneOffset: 0,
        }),
      });
    const url = `${gateway}/api/thoughts?date=${today}`;
    const one = await load('1 thoughts replica (30 thoughts/day)', url, { headers: { cookie } });
    balancer.targets.push(replicas[1]!);
    const two = await load('2 thoughts replicas (30 thoughts/day)', url, { headers: { cookie } });
    printTable('  GET /api/thoughts?date= through the gateway and a round-robin address', [one, two]);
    console.log(
      `  two replicas / one: ${ratio(two, one)}× (2 cores: the gateway, the balancer and autocannon share them)`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await balancer.close();
    await new Promise((r) => setTimeout(r, 500));
    await database.drop();
  }
}
