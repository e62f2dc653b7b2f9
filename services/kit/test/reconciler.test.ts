import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import { defineJob, QueueRegistry, startWorkers } from '../src/queue';
import { startReconcilers } from '../src/reconciler';
import { connectRedis, createRedis } from '../src/redis';
import { until } from '../src/testing';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = createLogger({ name: 'reconciler-test', level: 'silent' });

describe('reconciler', () => {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const queues = new QueueRegistry({ redisUrl, prefix });
  const redis = createRedis(redisUrl);
  afterAll(async () => {
    await queues.get('mail.send').obliterate({ force: true });
    await queues.close();
    redis.disconnect();
  });

  it('queues overdue work under its own job id: kept jobs are left alone, lost ones come back once', async () => {
    await connectRedis(redis, redisUrl);
    let overdue = [{ mailId: 'm1' }, { mailId: 'm2' }];
    const reconcilers = startReconcilers(
      [{ name: 'mail', queue: 'mail.send', everyMs: 60_000, findOverdue: async () => overdue }],
      { queues, redis, prefix, log },
    );
    try {
      const queue = queues.get('mail.send');
      const ids = async () => (await queue.getJobs(['waiting', 'delayed', 'active'])).map((j) => j.id).sort();
      await reconcilers.runOnce();
      expect(await ids()).toEqual(['mail-send.m1', 'mail-send.m2']);
      await reconcilers.runOnce();
      expect(await ids()).toEqual(['mail-send.m1', 'mail-send.m2']);

      // Redis lost everything: the next round brings back what is still overdue, nothing else.
      await queue.obliterate({ force: true });
      overdue = [{ mailId: 'm2' }];
      expect(await reconcilers.runOnce()).toBe(1);
      expect(await ids()).toEqual(['mail-send.m2']);
    } finally {
      reconcilers.stop();
    }
  });

  it('lets one instance do a round at a time', async () => {
    let rounds = 0;
    const def = {
      name: `lock-${randomBytes(3).toString('hex')}`,
      queue: 'mail.send' as const,
      everyMs: 60_000,
      findOverdue: async () => {
        rounds++;
        return [];
      },
    };
    const a = startReconcilers([def], { queues, redis, prefix, log });
    const b = startReconcilers([def], { queues, redis, prefix, log });
    try {
      await a.runOnce();
      // b's round finds the lock a took and stands aside until it expires.
      await b.runOnce({ takeOver: false });
      expect(rounds).toBe(1);
      await b.runOnce({ takeOver: true });
      expect(rounds).toBe(2);
    } finally {
      a.stop();
      b.stop();
    }
  });

  it('runs again a job that failed every attempt, once its cause is gone', async () => {
    const connection = { redisUrl, prefix, backoffMs: 10 };
    const own = new QueueRegistry(connection);
    let outage = true;
    let delivered = 0;
    const failures: string[] = [];
    const workers = startWorkers(
      [
        defineJob({
          queue: 'mail.send',
          handle: async () => {
            if (outage) throw new Error('SMTP is down');
            delivered++;
          },
          onFailed: async ({ mailId }) => void failures.push(mailId),
        }),
      ],
      connection,
      log,
    );
    const reconcilers = startReconcilers(
      [
        {
          name: 'revive',
          queue: 'mail.send',
          everyMs: 60_000,
          findOverdue: async () => (delivered ? [] : [{ mailId: 'late' }]),
        },
      ],
      { queues: own, redis, prefix, log },
    );
    try {
      await own.add('mail.send', { mailId: 'late' });
      await until(() => failures.length === 1, 20_000, 'every attempt failed');
      // The outage is over: the reconciler finds the work still overdue and retries the failed job.
      outage = false;
      expect(await reconcilers.runOnce()).toBe(1);
      await until(() => delivered === 1, 10_000, 'delivered after the outage');
      expect(await reconcilers.runOnce()).toBe(0);
      expect(delivered).toBe(1);
    } finally {
      reconcilers.stop();
      await workers.close();
      await own.close();
    }
  });
});
