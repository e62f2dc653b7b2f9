import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { currentContext, runWithContext } from '../src/context';
import { createLogger } from '../src/logger';
import { defineJob, QueueRegistry, startWorkers, type WorkerSet } from '../src/queue';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function until(check: () => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached in time');
}

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
            queue: 'assistant.reply',
            async handle() {
              attempts++;
              throw new Error(`attempt ${attempts} failed`);
            },
            async onFailed(payload, error) {
              failed.push(`${payload.messageId}: ${error.message}`);
            },
          }),
        ],
        connection,
        log,
      ),
    );
    await queues.add(
      'assistant.reply',
      { userId: 1, conversationId: 2, messageId: 3 },
      {},
      { attempts: 3, backoff: { type: 'fixed', delay: 50 } },
    );
    await until(() => failed.length === 1);
    expect(attempts).toBe(3);
    expect(failed).toEqual(['3: attempt 3 failed']);
    expect(lines.filter((l) => l.msg === 'job attempt failed')).toHaveLength(2);
    expect(lines.filter((l) => l.msg === 'job failed permanently')).toHaveLength(1);
  });

  it('does not retry a payload that does not match its schema', async () => {
    let handled = 0;
    running.push(
      startWorkers([defineJob({ queue: 'mail.sync', handle: async () => void handled++ })], connection, log),
    );
    await queues
      .get('mail.sync')
      .add('mail.sync', { payload: { userId: 'not-a-number' }, meta: {} }, { jobId: 'bad-1', attempts: 5 });
    await until(() => lines.some((l) => l.msg === 'job failed permanently' && l.queue === 'mail.sync'));
    expect(handled).toBe(0);
    expect(lines.find((l) => l.queue === 'mail.sync')).toMatchObject({ attemptsMade: 1 });
  });
});
