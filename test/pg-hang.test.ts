import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@haven/kit/config';
import { sessionCookie, until } from '@haven/kit/testing';
import type { AllInOne } from '../scripts/all-in-one';
import { startAllInOne } from './support/bundle';
import { findPostgresBin, startPrivatePostgres, type PrivatePostgres } from './private-postgres';

const bin = findPostgresBin();

/** The server's processes (the postmaster and its backends), to stop and resume them all. */
function serverPids(port: number): string[] {
  const main = execFileSync('pgrep', ['-f', '--', `-p ${port}`])
    .toString()
    .trim()
    .split('\n')
    .filter(Boolean);
  const children = main.flatMap((pid) => {
    try {
      return execFileSync('pgrep', ['-P', pid]).toString().trim().split('\n').filter(Boolean);
    } catch {
      return [];
    }
  });
  return [...main, ...children];
}

/**
 * PostgreSQL that hangs (its processes stopped with SIGSTOP: connections stay open, nothing answers)
 * is an outage, not a freeze: a public request answers 503 with Retry-After within about two
 * seconds, and everything serves again once it answers, without a restart.
 */
describe.skipIf(!bin)('a hanging PostgreSQL', () => {
  let cluster: PrivatePostgres | undefined;
  let app: AllInOne | undefined;
  let dataDir = '';
  let cookie = '';
  let stopped: string[] = [];

  beforeAll(async () => {
    cluster = await startPrivatePostgres(bin!);
    dataDir = mkdtempSync(path.join(tmpdir(), 'haven-pg-hang-'));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `pghang${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      BACKUP_URL: '',
    };
    app = await startAllInOne(env, { port: 0 });
    cookie = await sessionCookie(loadConfig(env), 91);
  }, 90_000);

  afterAll(async () => {
    for (const pid of stopped) process.kill(Number(pid), 'SIGCONT');
    if (app)
      await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (p: string) =>
    fetch(app!.url + p, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });

  it('answers 503 with Retry-After within about two seconds, and recovers', async () => {
    expect((await api('/api/thoughts?date=2025-01-01')).status).toBe(200);
    stopped = serverPids(cluster!.port);
    expect(stopped.length).toBeGreaterThan(1);
    for (const pid of stopped) process.kill(Number(pid), 'SIGSTOP');
    try {
      for (const p of ['/api/thoughts?date=2025-01-01', '/api/user-preferences']) {
        const started = Date.now();
        const res = await api(p);
        expect(Date.now() - started).toBeLessThan(3000);
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      for (const pid of stopped) process.kill(Number(pid), 'SIGCONT');
      stopped = [];
    }
    await until(
      async () => (await api('/api/thoughts?date=2025-01-01')).status === 200,
      15_000,
      'serving again',
    );
  }, 60_000);
});
