import { DelayedError, Queue, UnrecoverableError, Worker, type Job, type JobsOptions } from 'bullmq';
import {
  JOBS,
  jobFor,
  queuesConsumedBy,
  type JobMeta,
  type JobPayload,
  type QueueName,
} from '@haven/contracts/jobs';
import type { ServiceName } from '@haven/contracts/routes';
import { currentContext, runWithContext } from './context';
import type { Logger } from './logger';
import { QUEUE_STATES, type Metrics, type QueueCounts } from './metrics';
import { redisOptionsFrom } from './redis';
import { currentTraceparent, inSpan, SpanKind } from './tracing';

export { UnrecoverableError };

/** What is stored in Redis for a job: ids only, plus the request id for log correlation. */
export interface JobData<Q extends QueueName = QueueName> {
  payload: JobPayload<Q>;
  meta: JobMeta;
}

/** A job's meta: the request id and trace context of the work that queued it, those that are known. */
export function jobMeta(requestId?: string | null, traceparent?: string | null): JobMeta {
  return { ...(requestId ? { requestId } : {}), ...(traceparent ? { traceparent } : {}) };
}

/**
 * What every job shares: finished jobs removed, failed ones kept a week. How often a failed job is
 * tried again is its queue's own policy (`retry` in the contracts' JOBS, see `retryOptions`). A job
 * that failed every attempt is retried by its reconciler once the work is still overdue
 * (`QueueRegistry.addOrRevive`).
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  // Completed jobs are kept an hour so that a replayed job id within that time is ignored.
  removeOnComplete: { age: 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** A queue's retry policy as BullMQ options: its attempts, and its first delay in `unitMs` (JOB_BACKOFF_MS). */
export function retryOptions(name: QueueName, unitMs = 1000): Pick<JobsOptions, 'attempts' | 'backoff'> {
  const { attempts, firstDelay } = JOBS[name].retry;
  return { attempts, backoff: { type: 'exponential', delay: firstDelay * unitMs } };
}

/** What a handler gets besides its payload. */
export interface JobContext {
  job: Job;
  log: Logger;
  /**
   * Runs this same job again in `ms` (a provider said when to come back) without using up an
   * attempt: the job waits delayed in Redis, so a restart loses nothing. Never returns.
   */
  retryIn(ms: number): Promise<never>;
}

/**
 * How long to wait before calling a provider again after it limited the rate, as Google asks:
 * truncated exponential backoff with jitter, 2^n seconds plus up to one second at random
 * (n = 0 for the first retry), capped at `capMs`, and never sooner than its Retry-After.
 */
export function providerBackoffMs(
  retry: number,
  retryAfterMs: number | undefined,
  capMs = 3_600_000,
  random: () => number = Math.random,
): number {
  const backoff = Math.min(capMs, 2 ** Math.max(0, retry) * 1000 + Math.floor(random() * 1000));
  return Math.min(capMs, Math.max(retryAfterMs ?? 0, backoff));
}

/** One queue task: its queue, handler and, optionally, what to do once every attempt has failed. */
export interface JobDefinition<Q extends QueueName = QueueName> {
  queue: Q;
  /** Must be idempotent: reload by id, skip what is gone, upsert. */
  handle(payload: JobPayload<Q>, ctx: JobContext): Promise<void>;
  /** Runs only after the last attempt failed (or the error was unrecoverable). */
  onFailed?(payload: JobPayload<Q>, error: Error, ctx: { log: Logger }): Promise<void>;
  concurrency?: number;
}

/** Keeps the literal queue type of a job definition. */
export function defineJob<Q extends QueueName>(def: JobDefinition<Q>): JobDefinition<Q> {
  return def;
}

export interface QueueConnection {
  redisUrl: string;
  /** BullMQ key prefix, so several stacks (or test runs) can share one Redis. */
  prefix: string;
  /** First retry delay; each next one doubles (default 1000 ms). */
  backoffMs?: number;
  /**
   * How long a worker holds an active job between renewals: a worker that dies mid-job lets another
   * take the job over after about this long (default 30000 ms, BullMQ's).
   */
  lockMs?: number;
}

/** Producers for the named queues of the contracts, created on first use. */
export class QueueRegistry {
  private readonly queues = new Map<QueueName, Queue>();
  constructor(private readonly connection: QueueConnection) {}

  get(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      if (!(name in JOBS)) throw new Error(`Unknown queue ${name}`);
      queue = new Queue(name, {
        prefix: this.connection.prefix,
        // Producers fail fast while Redis is down; the outbox keeps the event and retries.
        connection: {
          ...redisOptionsFrom(this.connection.redisUrl),
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
        },
        defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...retryOptions(name, this.connection.backoffMs) },
      });
      queue.on('error', () => {
        // Surfaced through the failing add(); reconnection is automatic.
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /**
   * Adds a job with its deterministic id (from the contracts), so adding the same work twice is one
   * job. The payload is validated first: an invalid payload is a programming error.
   */
  async add<Q extends QueueName>(
    name: Q,
    payload: JobPayload<Q>,
    meta: JobData['meta'] = {},
    /** Overrides DEFAULT_JOB_OPTIONS (attempts and backoff are fixed when a job is added). */
    options: JobsOptions = {},
  ): Promise<string> {
    const job = jobFor(name, payload);
    const withIds = jobMeta(
      meta.requestId ?? currentContext()?.requestId,
      meta.traceparent ?? currentTraceparent(),
    );
    await this.publish(name, job.jobId, { payload: job.payload, meta: withIds }, options);
    return job.jobId;
  }

  /**
   * Adds the job, or retries it when a job of that id already failed every attempt: BullMQ ignores
   * an add whose id it still holds, so work whose cause of failure is gone (an SMTP or Google outage
   * longer than the retries) would otherwise never run again. A job waiting or running is left alone.
   */
  async addOrRevive<Q extends QueueName>(
    name: Q,
    payload: JobPayload<Q>,
  ): Promise<'added' | 'revived' | 'pending'> {
    const job = jobFor(name, payload);
    const existing = await this.get(name).getJob(job.jobId);
    if (existing) {
      if (!(await existing.isFailed())) return 'pending';
      await existing.retry('failed');
      return 'revived';
    }
    await this.add(name, payload);
    return 'added';
  }

  /** Adds a job under an id already computed by `jobFor` (the outbox stores it with the event). */
  async publish<Q extends QueueName>(
    name: Q,
    jobId: string,
    data: JobData<Q>,
    options: JobsOptions = {},
  ): Promise<void> {
    await this.get(name).add(name, data, { ...options, jobId });
  }

  /** Job counts by state of each named queue (for `/metrics`). */
  async counts(names: readonly QueueName[]): Promise<Record<string, QueueCounts>> {
    const entries = await Promise.all(
      names.map(async (name) => [name, await this.get(name).getJobCounts(...QUEUE_STATES)] as const),
    );
    return Object.fromEntries(entries);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}

/**
 * Refuses a service whose job handlers do not match the queues the contracts say it consumes:
 * a consumed queue with no handler (its jobs would pile up unseen) or two, or a handler for a queue
 * another service consumes. Immich's job registry does the same.
 */
export function assertJobRegistry(service: ServiceName, defs: JobDefinition[]): void {
  const problems: string[] = [];
  for (const queue of queuesConsumedBy(service)) {
    const count = defs.filter((d) => d.queue === queue).length;
    if (count !== 1) problems.push(`queue ${queue} has ${count === 0 ? 'no handler' : `${count} handlers`}`);
  }
  for (const def of defs) {
    const consumer = JOBS[def.queue]?.consumer;
    if (consumer !== service) problems.push(`queue ${def.queue} is consumed by ${consumer ?? 'no service'}`);
  }
  if (problems.length > 0) throw new Error(`The ${service} service cannot start: ${problems.join('; ')}`);
}

export interface WorkerSet {
  workers: Worker[];
  /**
   * Throws naming each queue whose worker cannot take jobs: stopped, or one of its own Redis
   * connections (not the service's) not connected. A readiness check (`/readyz`).
   */
  ready(): Promise<void>;
  /** Stops taking jobs and waits for the active ones to finish (SIGTERM). */
  close(): Promise<void>;
}

/**
 * Times one job attempt into `haven_job_duration_seconds`: completed, failed, or delayed (the job
 * asked to come back later, see `retryIn`).
 */
async function measured(
  metrics: Metrics | undefined,
  queue: string,
  run: () => Promise<void>,
): Promise<void> {
  const end = metrics?.jobs.startTimer({ queue });
  try {
    await run();
    end?.({ outcome: 'completed' });
  } catch (err) {
    end?.({ outcome: err instanceof DelayedError ? 'delayed' : 'failed' });
    throw err;
  }
}

/**
 * Starts one worker per job definition. Refuses to start when two definitions claim one queue.
 * Each job runs inside its request's log context; a failed attempt logs a line, and `onFailed` runs
 * after the last attempt only.
 */
export function startWorkers(
  defs: JobDefinition[],
  connection: QueueConnection,
  log: Logger,
  metrics?: Metrics,
): WorkerSet {
  const seen = new Set<string>();
  for (const def of defs) {
    if (seen.has(def.queue)) throw new Error(`Two handlers for queue ${def.queue}`);
    if (!(def.queue in JOBS)) throw new Error(`Queue ${def.queue} is not in the contracts`);
    seen.add(def.queue);
  }
  const workers = defs.map((def) => {
    const schema = JOBS[def.queue].payload;
    const worker = new Worker(
      def.queue,
      async (job: Job, token?: string) => {
        const data = job.data as Partial<JobData>;
        const requestId = data.meta?.requestId ?? `job-${job.id}`;
        const traced = {
          kind: SpanKind.CONSUMER,
          traceparent: data.meta?.traceparent,
          attributes: {
            'haven.queue': def.queue,
            'haven.job_id': job.id ?? '',
            'haven.attempt': job.attemptsMade + 1,
          },
        };
        return runWithContext({ requestId, jobId: job.id }, () =>
          inSpan(`job ${def.queue}`, traced, () =>
            measured(metrics, def.queue, async () => {
              const parsed = schema.safeParse(data.payload);
              if (!parsed.success)
                throw new UnrecoverableError(`Invalid payload for ${def.queue}: ${parsed.error.message}`);
              const retryIn = async (ms: number): Promise<never> => {
                await job.moveToDelayed(Date.now() + ms, token);
                throw new DelayedError();
              };
              await def.handle(parsed.data as never, { job, log, retryIn });
            }),
          ),
        );
      },
      {
        prefix: connection.prefix,
        connection: { ...redisOptionsFrom(connection.redisUrl), maxRetriesPerRequest: null },
        concurrency: def.concurrency ?? 4,
        autorun: true,
        ...(connection.lockMs ? { lockDuration: connection.lockMs, stalledInterval: connection.lockMs } : {}),
      },
    );
    worker.on('error', (err) => log.warn({ queue: def.queue, err }, 'worker error'));
    worker.on('failed', (job, err) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const final =
        err instanceof UnrecoverableError ||
        err.name === 'UnrecoverableError' ||
        job.attemptsMade >= attempts;
      const requestId = (job.data as Partial<JobData>).meta?.requestId ?? `job-${job.id}`;
      runWithContext({ requestId, jobId: job.id }, () => {
        log[final ? 'error' : 'warn'](
          { queue: def.queue, attemptsMade: job.attemptsMade, attempts, err },
          final ? 'job failed permanently' : 'job attempt failed',
        );
        if (final && def.onFailed) {
          const parsed = schema.safeParse((job.data as Partial<JobData>).payload);
          if (parsed.success) {
            def
              .onFailed(parsed.data as never, err, { log })
              .catch((e: Error) => log.error({ queue: def.queue, err: e }, 'onFailed handler failed'));
          }
        }
      });
    });
    return worker;
  });
  return {
    workers,
    async ready() {
      const down = await Promise.all(
        workers.map(async (worker) => {
          if (!worker.isRunning()) return `${worker.name} stopped`;
          // ioredis' own state: a lost connection reads `reconnecting` at once, closed `end`. (The
          // blocking connection waits for jobs; a ping would queue behind it.)
          const backend = worker.getBackend();
          for (const client of [await backend.client, await backend.blockingClient]) {
            if (client && client.status !== 'ready') return `${worker.name} ${client.status}`;
          }
          return null;
        }),
      );
      const problems = down.filter(Boolean);
      if (problems.length > 0) throw new Error(`queue connection down: ${problems.join(', ')}`);
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
