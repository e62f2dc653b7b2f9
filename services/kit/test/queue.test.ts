import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { currentContext, runWithContext } from '../src/context';
import { createLogger } from '../src/logger';
import {
  assertJobRegistry,
  defineJob,
  providerBackoffMs,
  QueueRegistry,
  startWorkers,
  type WorkerSet,
} from '../src/queue';
import { until } from '../src/testing';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('queues and workers', () => {
  const connection = { redisUrl, prefix: `t${randomBytes(4).toString('hex')}` };
  const queues = new QueueRegistry(connection);
  const running: WorkerSet[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({
    name: 'queue-test',
    destination: new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  });
  afterAll(async () => {
    for (const w of running) await w.close();
    await queues.close();
  });

  it('refuses to start two handlers for one queue', () => {
    const job = defineJob({ queue: 'mail.send', handle: async () => undefined });
    expect(() => startWorkers([job, job], connection, log)).toThrow('Two handlers for queue mail.send');
  });

  it("runs a job inside the request's context, so its log lines carry the request id", async () => {
    const seen: Array<string | undefined> = [];
    running.push(
      startWorkers(
        [
          defineJob({
            queue: 'thought.transcribe',
            async handle(payload, ctx) {
              seen.push(currentContext()?.requestId);
              ctx.log.info({ thoughtId: payload.thoughtId }, 'handled');
            },
          }),
        ],
        connection,
        log,
      ),
    );
    await runWithContext({ requestId: 'req-abc' }, () =>
      queues.add('thought.transcribe', { userId: 1, thoughtId: 2 }),
    );
    await until(() => seen.length === 1);
    expect(seen).toEqual(['req-abc']);
    expect(lines.find((l) => l.msg === 'handled')).toMatchObject({
      reqId: 'req-abc',
      jobId: 'thought-transcribe.1.2',
    });
  });

  it('retries with backoff, and calls onFailed once, after the last attempt', async () => {
    let attempts = 0;
    const failed: string[] = [];
    running.push(
      startWorkers(
        [
          defineJob({
            queue: 'mail.send',
            async handle() {
              attempts++;
              throw new Error(`attempt ${attempts} failed`);
            },
            async onFailed(payload, error) {
              failed.push(`${payload.mailId}: ${error.message}`);
            },
          }),
        ],
        connection,
        log,
      ),
    );
    await queues.add(
      'mail.send',
      { mailId: 'm3' },
      {},
      { attempts: 3, backoff: { type: 'fixed', delay: 50 } },
    );
    await until(() => failed.length === 1);
    expect(attempts).toBe(3);
    expect(failed).toEqual(['m3: attempt 3 failed']);
    expect(lines.filter((l) => l.msg === 'job attempt failed')).toHaveLength(2);
    expect(lines.filter((l) => l.msg === 'job failed permanently')).toHaveLength(1);
  });

  it("gives each job its queue's own retry policy, in units of JOB_BACKOFF_MS", async () => {
    const scaled = new QueueRegistry({ ...connection, prefix: `${connection.prefix}r`, backoffMs: 7 });
    try {
      const reply = await scaled.add('assistant.reply', { userId: 1, conversationId: 2, messageId: 3 });
      const deletion = await scaled.add('user.delete.thoughts', { userId: 1 });
      const replyJob = await scaled.get('assistant.reply').getJob(reply);
      const deletionJob = await scaled.get('user.delete.thoughts').getJob(deletion);
      expect(replyJob?.opts).toMatchObject({ attempts: 4, backoff: { type: 'exponential', delay: 7 } });
      expect(deletionJob?.opts).toMatchObject({ attempts: 12, backoff: { type: 'exponential', delay: 7 } });
    } finally {
      await scaled.get('assistant.reply').obliterate({ force: true });
      await scaled.get('user.delete.thoughts').obliterate({ force: true });
      await scaled.close();
    }
  });

  it('does not retry a payload that does not match its schema', async () => {
    let handled = 0;
    running.push(
      startWorkers(
        [defineJob({ queue: 'thought.changed', handle: async () => void handled++ })],
        connection,
        log,
      ),
    );
    await queues
      .get('thought.changed')
      .add(
        'thought.changed',
        { payload: { userId: 'not-a-number' }, meta: {} },
        { jobId: 'bad-1', attempts: 5 },
      );
    await until(() => lines.some((l) => l.msg === 'job failed permanently' && l.queue === 'thought.changed'));
    expect(handled).toBe(0);
    expect(lines.find((l) => l.queue === 'thought.changed')).toMatchObject({ attemptsMade: 1 });
  });

  it('refuses a service whose handlers do not match the queues it consumes', () => {
    const handler = (
      queue:
        | 'mail.send'
        | 'user.deletion.report'
        | 'data.export'
        | 'data.import'
        | 'thought.changed'
        | 'thought.transcribe'
        | 'user.delete.thoughts',
    ) => defineJob({ queue, handle: async () => undefined });
    const auth = [handler('mail.send'), handler('user.deletion.report')];
    expect(() => assertJobRegistry('auth', auth)).not.toThrow();
    expect(() => assertJobRegistry('auth', [...auth, handler('data.export')])).toThrow(
      'queue data.export is consumed by portability',
    );
    expect(() => assertJobRegistry('auth', auth.slice(1))).toThrow(
      'The auth service cannot start: queue mail.send has no handler',
    );
    expect(() => assertJobRegistry('auth', [...auth, handler('mail.send')])).toThrow(
      'queue mail.send has 2 handlers',
    );
    expect(() =>
      assertJobRegistry('thoughts', [
        handler('thought.transcribe'),
        handler('user.delete.thoughts'),
        handler('thought.changed'),
      ]),
    ).toThrow('queue thought.changed is consumed by insights');
  });
});

describe('providerBackoffMs', () => {
  it('is truncated exponential backoff with up to a second of jitter, never before Retry-After', () => {
    expect([0, 1, 2, 3].map((n) => providerBackoffMs(n, undefined, 3_600_000, () => 0))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(providerBackoffMs(0, undefined, 3_600_000, () => 0.999)).toBe(1999);
    expect(providerBackoffMs(0, 30_000, 3_600_000, () => 0)).toBe(30_000);
    expect(providerBackoffMs(20, undefined, 60_000, () => 0)).toBe(60_000);
    expect(providerBackoffMs(0, 7_200_000, 60_000, () => 0)).toBe(60_000);
  });
});
