import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@haven/auth/db/schema';
import { hashPassword } from '@haven/auth/domain/secrets';
import type { ExportProgress, ImportProgress } from '@haven/contracts/portability';
import type { Thought } from '@haven/contracts/thoughts';
import { createLogger } from '@haven/kit/logger';
import { freePort } from '@haven/kit/net';
import { repoPath } from '@haven/kit/paths';
import { startService, type RunningService } from '@haven/kit/service';
import { until } from '@haven/kit/testing';
import { portabilityService } from '../src/service';
import { startEveryService } from '../../../test/support/stack';
import { unzip, zipOf } from '../../../test/support/zip';

/**
 * Two replicas of the portability service on one database and Redis, as compose or Kubernetes run
 * them: a file one replica stored is served by the other, and an import one replica started is
 * finished by the other when the first goes away.
 */
describe('portability across replicas', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let stack: Awaited<ReturnType<typeof startEveryService>>['stack'];
  let second: RunningService;
  let me: number;

  beforeAll(async () => {
    // Short steps, so one import spans many jobs.
    everything = await startEveryService({ IMPORT_STEP_MS: '100' });
    stack = everything.stack;
    second = await startService(portabilityService, {
      config: stack.config,
      database: stack.database,
      port: 0,
      log: createLogger({ name: 'portability-2', level: 'silent' }),
      serviceUrls: stack.urls,
    });
    const [row] = await stack
      .get('auth')
      .deps.db.insert(users)
      .values({
        username: 'replicas',
        email: 'replicas@example.com',
        passwordHash: await hashPassword('x-pass-x'),
      })
      .returning();
    me = row!.id;
  });
  afterAll(async () => {
    await second?.close();
    await everything?.stop();
  });

  const call = (replica: RunningService, path: string, init: RequestInit = {}) =>
    fetch(replica.url + path, {
      ...init,
      headers: { ...stack.headers('portability', me), ...(init.headers as Record<string, string>) },
    });

  it('finishes on one replica an import the other started, and serves the export from either', async () => {
    const first = stack.get('portability');
    const notes: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      notes[`vault/2024-0${(i % 9) + 1}-1${i % 10} note ${i}.md`] = `Note ${i} about the garden. #garden`;
    const started = await call(first, '/api/account/import', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: new Uint8Array(await zipOf(notes)),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const status = async (replica: RunningService) =>
      (await (await call(replica, `/api/account/import/${id}`)).json()) as ImportProgress;
    // Once some of it is in, the replica that took the upload goes away (as a rolling update would).
    await until(async () => (await status(second)).imported > 0, 20_000, 'import under way');
    await first.close();
    await until(async () => (await status(second)).status === 'done', 60_000, 'import finished');
    expect(await status(second)).toMatchObject({
      status: 'done',
      format: 'notes',
      imported: 1500,
      duplicates: 0,
      failed: 0,
    });
    const all = (await stack.call('thoughts', me, 'GET', '/api/thoughts/all')).body as Thought[];
    expect(all).toHaveLength(1500);
    expect(new Set(all.map((t) => t.content)).size).toBe(1500);

    // An export built by one replica, downloaded through the other, whole.
    const exportStarted = await call(second, '/api/account/export', { method: 'POST' });
    const { id: exportId } = (await exportStarted.json()) as { id: string };
    await until(
      async () =>
        ((await (await call(second, `/api/account/export/${exportId}`)).json()) as ExportProgress).status ===
        'ready',
      30_000,
      'export ready',
    );
    const third = await startService(portabilityService, {
      config: { ...stack.config, RUN_WORKERS: false },
      database: stack.database,
      port: 0,
      log: createLogger({ name: 'portability-3', level: 'silent' }),
      serviceUrls: stack.urls,
    });
    try {
      const download = await call(third, `/api/account/export/${exportId}/download`);
      expect(download.status).toBe(200);
      const files = await unzip(Buffer.from(await download.arrayBuffer()));
      expect((JSON.parse(files.get('thoughts.json')!.toString()) as unknown[]).length).toBe(1500);
      expect((await call(second, `/api/account/export/${exportId}/download`)).status).toBe(410);
    } finally {
      await third.close();
    }
  }, 120_000);

  it('loses and doubles nothing when a replica is killed mid-import', async () => {
    // The killed replica is a real process (the service's own bundle), sharing the database server.
    const port = await freePort();
    const config = stack.config;
    const child = spawn(process.execPath, [repoPath('services', 'portability', 'dist', 'main.js')], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: stack.databaseUrl!,
        REDIS_URL: config.REDIS_URL,
        REDIS_PREFIX: config.REDIS_PREFIX,
        INTERNAL_SECRET: config.INTERNAL_SECRET,
        DATA_ENCRYPTION_KEY: config.DATA_ENCRYPTION_KEY,
        JOB_LOCK_MS: '1000',
        IMPORT_STEP_MS: '60000',
        THOUGHTS_URL: stack.urls().thoughts,
        ASSISTANT_URL: stack.urls().assistant,
      },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    await until(
      () =>
        fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      30_000,
      'child ready',
    );
    // The in-process replicas stop taking work: only the child runs the import, until it is killed.
    await second.close();
    const [row] = await stack
      .get('auth')
      .deps.db.insert(users)
      .values({
        username: 'killed',
        email: 'killed@example.com',
        passwordHash: await hashPassword('x-pass-x'),
      })
      .returning();
    const victim = row!.id;
    const notes: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) notes[`n/2023-01-0${(i % 9) + 1} ${i}.md`] = `Killed import note ${i}`;
    const started = await fetch(`${url}/api/account/import`, {
      method: 'POST',
      headers: { ...stack.headers('portability', victim), 'content-type': 'application/zip' },
      body: new Uint8Array(await zipOf(notes)),
    });
    const { id } = (await started.json()) as { id: string };
    const status = async (base: string) =>
      (await (
        await fetch(`${base}/api/account/import/${id}`, { headers: stack.headers('portability', victim) })
      ).json()) as ImportProgress;
    await until(async () => (await status(url)).imported >= 200, 30_000, 'some imported');
    const before = await status(url);
    child.kill('SIGKILL');
    expect(before.status).toBe('running');
    expect(before.imported).toBeLessThan(3000);
    // Another replica takes the job over once the dead one's lock runs out.
    const rescuer = await startService(portabilityService, {
      config: { ...config, JOB_LOCK_MS: 1000 },
      database: stack.database,
      port: 0,
      log: createLogger({ name: 'portability-rescuer', level: 'silent' }),
      serviceUrls: stack.urls,
    });
    try {
      await until(async () => (await status(rescuer.url)).status === 'done', 120_000, 'import finished');
      expect(await status(rescuer.url)).toMatchObject({ status: 'done', imported: 3000, duplicates: 0 });
      const all = (await stack.call('thoughts', victim, 'GET', '/api/thoughts/all')).body as Thought[];
      expect(all).toHaveLength(3000);
      expect(new Set(all.map((t) => t.content)).size).toBe(3000);
    } finally {
      await rescuer.close();
    }
  }, 240_000);
});
