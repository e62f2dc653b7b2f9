import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@haven/kit/logger';
import { defineJob, QueueRegistry, startWorkers, type WorkerSet } from '@haven/kit/queue';
import { sessionCookie, testConfig, until } from '@haven/kit/testing';
import type { Config } from '@haven/kit/config';
import { startTestGateway } from '../src/testing';
import type { RunningGateway } from '../src/start';

const TOKEN = 'operator-token-0123456789-abcdefghijklmnop';

/** The queue dashboard: operators with the token only, never a user session. */
describe('queue dashboard', () => {
  let config: Config;
  let gateway: RunningGateway;
  let queues: QueueRegistry;
  let workers: WorkerSet;
  const open = (headers: Record<string, string> = {}, path = '/ops/queues') =>
    fetch(gateway.url + path, { headers, redirect: 'manual' });

  beforeAll(async () => {
    config = testConfig({ OPERATOR_TOKEN: TOKEN });
    gateway = await startTestGateway(config, {}, 'http://127.0.0.1:9');
    // A job that fails: its payload is not the contract's, so the worker refuses it at once.
    queues = new QueueRegistry({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX });
    await queues
      .get('mail.send')
      .add('mail.send', { payload: { nonsense: true }, meta: {} }, { jobId: 'broken' });
    workers = startWorkers(
      [defineJob({ queue: 'mail.send', handle: async () => undefined })],
      { redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX },
      createLogger({ name: 'test', level: 'silent' }),
    );
    await until(async () => (await queues.get('mail.send').getFailedCount()) === 1, 10_000, 'the failed job');
  });
  afterAll(async () => {
    await workers?.close();
    await queues?.close();
    await gateway?.close();
  });

  it('refuses no token, a wrong one, and a signed-in user’s session', async () => {
    const cookie = await sessionCookie(config, 7);
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
      { cookie },
    ];
    for (const headers of refused) {
      const res = await open(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="Haven operators"/);
      expect(await res.json()).toMatchObject({ code: 'unauthorized' });
      expect((await open(headers, '/ops/queues/api/queues')).status).toBe(401);
    }
  });

  it('opens for the operator token, every queue listed and the failed job shown', async () => {
    const page = await open({ authorization: `Bearer ${TOKEN}` });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
    // A browser sends the token as the Basic password it asked for.
    const basic = { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}` };
    const res = await open(basic, '/ops/queues/api/queues?activeQueue=mail.send&status=failed&page=1');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      queues: Array<{
        name: string;
        counts: Record<string, number>;
        jobs: Array<{ id: string; data: unknown }>;
      }>;
    };
    const names = body.queues.map((q) => q.name);
    expect(names).toEqual(
      expect.arrayContaining(['mail.send', 'thought.changed', 'assistant.reply', 'accounts.sync']),
    );
    const mail = body.queues.find((q) => q.name === 'mail.send')!;
    expect(mail.counts.failed).toBe(1);
    expect(mail.jobs.map((j) => j.id)).toEqual(['broken']);
  });

  const bearer = { authorization: `Bearer ${TOKEN}` };
  const changeAt =
    (base: string) =>
    (path: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`${base}/ops/queues/api/queues/${path}`, {
        method: path.endsWith('/add') ? 'POST' : path.endsWith('update-data') ? 'PATCH' : 'PUT',
        headers: { ...bearer, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

  it('is read-only unless OPERATOR_ALLOW_WRITE is set: not even a retry', async () => {
    const change = changeAt(gateway.url);
    const own = { origin: new URL(gateway.url).origin };
    for (const path of ['mail.send/broken/retry', 'mail.send/broken/clean', 'mail.send/retry/failed']) {
      const res = await change(path, own);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({
        message: 'The queue dashboard is read-only: set OPERATOR_ALLOW_WRITE=1 to retry or remove jobs',
      });
    }
    expect(await queues.get('mail.send').getFailedCount()).toBe(1);
  });

  it('with OPERATOR_ALLOW_WRITE, retries and removes a job, but adds, edits and empties none, and takes no change from another site', async () => {
    const writable = await startTestGateway(
      testConfig({ OPERATOR_TOKEN: TOKEN, OPERATOR_ALLOW_WRITE: '1', REDIS_PREFIX: config.REDIS_PREFIX }),
      {},
      'http://127.0.0.1:9',
    );
    try {
      const change = changeAt(writable.url);
      const own = { origin: new URL(writable.url).origin };
      const sneaked = { name: 'user.delete.thoughts', data: { payload: { userId: 1 }, meta: {} } };
      for (const [path, body] of [
        ['thought.changed/add', sneaked],
        ['mail.send/broken/update-data', { data: { payload: { to: 'x' } } }],
        ['mail.send/empty', undefined],
        ['mail.send/obliterate', undefined],
        ['mail.send/clean/failed', undefined],
        ['mail.send/pause', undefined],
      ] as const) {
        const res = await change(path, own, body);
        expect(res.status, path).toBe(403);
        expect(res.headers.get('x-powered-by')).toBeNull();
      }
      expect(await queues.get('thought.changed').getJobCounts()).toMatchObject({ waiting: 0, delayed: 0 });
      expect(await queues.get('mail.send').getJob('broken')).toBeDefined();
      // Another site's page, with the browser's remembered password, is refused even for a retry.
      const crossSite: Array<Record<string, string>> = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of crossSite)
        expect((await change('mail.send/broken/retry', headers)).status).toBe(403);
      expect(await queues.get('mail.send').getFailedCount()).toBe(1);
      const page = await fetch(`${writable.url}/ops/queues`, { headers: bearer });
      expect(page.headers.get('x-powered-by')).toBeNull();
      expect((await change('mail.send/broken/retry', own)).status).toBe(204);
      // It fails again (its payload is still wrong); then the operator removes it.
      await until(async () => (await queues.get('mail.send').getFailedCount()) === 1, 10_000, 'the retry');
      expect((await change('mail.send/broken/clean', own)).status).toBe(204);
      expect(await queues.get('mail.send').getJob('broken')).toBeUndefined();
    } finally {
      await writable.close();
    }
  });

  it('does not exist without an operator token in the configuration', async () => {
    const plain = await startTestGateway(testConfig(), {}, 'http://127.0.0.1:9');
    try {
      const res = await fetch(`${plain.url}/ops/queues`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
