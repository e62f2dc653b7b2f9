import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@haven/kit/config';
import { freePort } from '@haven/kit/net';
import { sessionCookie, until } from '@haven/kit/testing';
import type { AllInOne } from '../scripts/all-in-one';
import { startAllInOne } from './support/bundle';

/**
 * Redis that hangs (stopped with SIGSTOP: the connection stays open, nothing answers) is an outage,
 * not a freeze: requests answer 503 with Retry-After within two seconds, work asked for meanwhile is
 * not started late, and everything serves again once Redis answers, without a restart.
 */
describe('a hanging Redis', () => {
  let redis: ChildProcess;
  let app: AllInOne;
  let cookie = '';
  let dataDir = '';

  beforeAll(async () => {
    const port = await freePort();
    dataDir = mkdtempSync(path.join(tmpdir(), 'haven-redis-hang-'));
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_PREFIX: `hang${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      BACKUP_URL: '',
    };
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          const probe = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
          probe.on('exit', (code) => resolve(code === 0));
        }),
      10_000,
      'redis up',
    );
    app = await startAllInOne(env, { port: 0 });
    cookie = await sessionCookie(loadConfig(env), 77);
  }, 60_000);

  afterAll(async () => {
    redis?.kill('SIGCONT');
    await app?.close().catch(() => undefined);
    redis?.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(app.url + p, {
      ...init,
      headers: { cookie, 'content-type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(10_000),
    });

  it('answers 503 with Retry-After within two seconds, starts nothing late, and recovers', async () => {
    expect((await api('/api/thoughts?date=2025-01-01')).status).toBe(200);
    redis.kill('SIGSTOP');
    try {
      for (const [method, p] of [
        ['GET', '/api/user'],
        ['GET', '/api/thoughts?date=2025-01-01'],
        ['POST', '/api/account/export'],
      ] as const) {
        const started = Date.now();
        const res = await api(p, { method });
        expect(Date.now() - started).toBeLessThan(2000);
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await res.json()) as { code: string }).code).toBe('unavailable');
      }
    } finally {
      redis.kill('SIGCONT');
    }
    await until(
      async () => (await api('/api/thoughts?date=2025-01-01')).status === 200,
      10_000,
      'serving again',
    );
    // The export asked for while Redis hung was refused, so none exists to start late.
    const portability = app.services.find((s) => s.name === 'portability')!;
    const rows = (await portability.deps.db.execute(
      'select count(*)::int as n from portability.transfers',
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows.rows[0]!.n).toBe(0);
  }, 60_000);
});
