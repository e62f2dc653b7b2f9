import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@haven/kit/net';
import { connectRedis, createRedis } from '@haven/kit/redis';
import { ensureRedis } from '../scripts/redis-finder';

describe('npm start finds or starts Redis', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-redis-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('uses the Redis that answers', async () => {
    const found = await ensureRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', dataDir);
    expect(found.child).toBeUndefined();
    await found.stop();
  });

  it('starts a private redis-server under DATA_DIR when nothing answers, and stops it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const started = await ensureRedis(url, dataDir);
    expect(started.child?.pid).toBeGreaterThan(0);
    const client = createRedis(url);
    await connectRedis(client, url);
    expect(await client.config('GET', 'dir')).toEqual(['dir', path.join(dataDir, 'redis')]);
    expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
    client.disconnect();
    await started.stop();
    expect(started.child?.exitCode !== null || started.child?.signalCode !== null).toBe(true);
  });

  it('says how to get Redis when it can neither reach nor start one', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const savedPath = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(ensureRedis(url, dataDir)).rejects.toThrow(/Nothing answers at REDIS_URL=.*Start Redis/);
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
