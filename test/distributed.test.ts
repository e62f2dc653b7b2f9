import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, SESSION_COOKIE } from '@haven/contracts/routes';
import { createScratchDatabase, freePort } from '@haven/kit/testing';
import { connectRedis, createRedis } from '@haven/kit/redis';
import { createSessionStore } from '@haven/kit/sessions';

const root = path.join(import.meta.dirname, '..');

/** Five processes each opening an embedded database take about 20 s together on two cores. */
async function waitReady(url: string, child: ChildProcess, output: () => string) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready: ${output()}`);
}

/**
 * The image's entry point (docker/entrypoint.sh) run straight on this machine, one process per
 * service plus the gateway, as `docker compose up` would run them.
 */
describe('distributed mode: each entry point as its own process', () => {
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let gatewayUrl = '';
  const env: Record<string, string> = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `d${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };

  function run(service: string, extra: Record<string, string>) {
    let output = '';
    const child = spawn(path.join(root, 'docker', 'entrypoint.sh'), [], {
      cwd: root,
      env: { PATH: process.env.PATH, ...env, ...extra, SERVICE: service },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    children.push(child);
    return { child, output: () => output };
  }

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      database = await createScratchDatabase(process.env.DATABASE_URL);
      env.DATABASE_URL = database.url;
    }
    const urls: Record<string, string> = {};
    await Promise.all(
      SERVICE_NAMES.map(async (name) => {
        const port = await freePort();
        const extra: Record<string, string> = { PORT: String(port) };
        if (!env.DATABASE_URL) {
          // Without a server each process keeps its own embedded database.
          const dir = mkdtempSync(path.join(tmpdir(), `haven-${name}-`));
          dataDirs.push(dir);
          extra.DATA_DIR = dir;
        }
        const { child, output } = run(name, extra);
        urls[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
        await waitReady(`http://127.0.0.1:${port}/readyz`, child, output);
      }),
    );
    const port = await freePort();
    const gateway = run('gateway', { ...urls, PORT: String(port) });
    gatewayUrl = `http://127.0.0.1:${port}`;
    await waitReady(`${gatewayUrl}/healthz`, gateway.child, gateway.output);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise((resolve) => {
            if (c.exitCode !== null) return resolve(null);
            c.once('exit', resolve);
            c.kill('SIGTERM');
          }),
      ),
    );
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('is ready end to end, and serves a signed-in request through the gateway', async () => {
    const ready = await fetch(`${gatewayUrl}/readyz`);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: {
        redis: 'ok',
        auth: 'ok',
        thoughts: 'ok',
        insights: 'ok',
        assistant: 'ok',
        integrations: 'ok',
      },
    });
    const redis = createRedis(env.REDIS_URL!);
    await connectRedis(redis, env.REDIS_URL!);
    const { token } = await createSessionStore(redis, {
      prefix: env.REDIS_PREFIX!,
      jwtSecret: env.JWT_SECRET!,
    }).create(5);
    redis.disconnect();
    const res = await fetch(`${gatewayUrl}/api/user-preferences`, {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ includeThoughtContent: true });
    expect(jwt.decode(token)).toMatchObject({ sub: '5' });
  });

  it('stops every process cleanly on SIGTERM', async () => {
    const codes = await Promise.all(
      children.map(
        (c) =>
          new Promise<number | null>((resolve) => {
            c.once('exit', (code) => resolve(code));
            c.kill('SIGTERM');
          }),
      ),
    );
    expect(codes).toEqual(children.map(() => 0));
  });
});
