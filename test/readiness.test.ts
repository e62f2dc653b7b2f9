import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, startTestService, until } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';

type Probe = { status: number; body: { status: string; checks?: Record<string, string> } };

/**
 * What Kubernetes' probes see: `/readyz` fails while the database, Redis or a worker's own queue
 * connection is down (the pod leaves its Service); `/healthz` keeps answering, because a restart
 * would not bring a dependency back (it fails only when the process itself no longer answers).
 */
describe('readiness and liveness', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let thoughts: Awaited<ReturnType<typeof startTestService>>;
  const probe = async (path: string): Promise<Probe> => {
    const res = await fetch(thoughts.url + path);
    return { status: res.status, body: (await res.json()) as Probe['body'] };
  };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    thoughts = await startTestService(thoughtsService, { REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await redis?.start().catch(() => undefined);
    await thoughts?.stop();
    await redis?.stop();
  });

  it('is ready with every check passing, the workers’ queue connections among them', async () => {
    const ready = await probe('/readyz');
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ready', service: 'thoughts', checks: { database: 'ok', redis: 'ok', workers: 'ok' } },
    });
  });

  it('is not ready when a worker lost its queue connection, while the service’s own Redis is fine', async () => {
    const worker = thoughts.workers!.workers[0]!;
    const client = await worker.getBackend().client;
    client.disconnect();
    // The client closes asynchronously: readiness follows once it has (on a busy machine, not at once).
    let ready = await probe('/readyz');
    await until(async () => (ready = await probe('/readyz')).status === 503, 10_000, 'not ready');
    expect(ready.body.checks).toMatchObject({ database: 'ok', redis: 'ok' });
    expect(ready.body.checks?.workers).toBe('queue connection down: thought.transcribe end');
    expect((await probe('/healthz')).status).toBe(200);
    // ioredis connects again when asked to; readiness follows.
    await client.connect();
    await until(async () => (await probe('/readyz')).status === 200, 10_000, 'ready again');
  });

  it('is not ready while Redis is unreachable, and stays alive', async () => {
    await redis.stop();
    const ready = await probe('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks?.redis).not.toBe('ok');
    expect(ready.body.checks?.workers).not.toBe('ok');
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok', service: 'thoughts' } });
    await redis.start();
    await until(async () => (await probe('/readyz')).status === 200, 15_000, 'ready once Redis is back');
  });
});
