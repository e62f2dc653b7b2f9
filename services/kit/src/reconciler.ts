import type { JobPayload, QueueName } from '@haven/contracts/jobs';
import type { Logger } from './logger';
import type { QueueRegistry } from './queue';
import type { Redis } from './redis';

/**
 * PostgreSQL is the source of truth; a queued job is only a reminder. When Redis restarts empty (or
 * a job is lost any other way), the work it stood for is still visible in the database as overdue:
 * a mail never sent, a period pending too long, a message without a reply. A reconciler finds that
 * work by a query and queues it again under the same deterministic job id, so work whose job still
 * exists is left alone and work whose job was lost is done once.
 */
export interface ReconcilerDefinition<Q extends QueueName = QueueName> {
  /** Names the round in logs and in its lock key. */
  name: string;
  queue: Q;
  /** Payloads of the work that should have been done by now. */
  findOverdue(): Promise<Array<JobPayload<Q>>>;
  /** How often a round runs (one instance at a time across every process). */
  everyMs: number;
}

/**
 * Periodic work that is not a queue's (a sweep, a clean-up): run once per interval across every
 * process of the service, under the same Redis lock as reconcilers.
 */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

export interface Reconcilers {
  /**
   * Runs every round once now, resolving with how many jobs were queued. `takeOver` (the default)
   * clears another instance's lock first; without it a round another instance holds is skipped.
   */
  runOnce(options?: { takeOver?: boolean }): Promise<number>;
  stop(): void;
}

/**
 * Runs each reconciler on a timer in this process. Each round takes a Redis lock first, so with
 * several instances of a service one does the round. The schedule deliberately lives in the process,
 * not in Redis: a repeatable job stored in Redis would be lost with the very Redis it must recover from.
 */
export function startReconcilers(
  reconcilers: ReconcilerDefinition[],
  deps: { queues: QueueRegistry; redis: Redis; prefix: string; log: Logger },
  tasks: PeriodicTask[] = [],
): Reconcilers {
  const timers: NodeJS.Timeout[] = [];
  // A task is a round that queues nothing itself.
  const defs: Array<ReconcilerDefinition | (PeriodicTask & { queue?: undefined })> = [
    ...reconcilers,
    ...tasks,
  ];

  async function round(def: (typeof defs)[number]): Promise<number> {
    const lock = `${deps.prefix}:reconcile:${def.name}`;
    try {
      const got = await deps.redis.set(
        lock,
        String(process.pid),
        'PX',
        Math.max(1000, def.everyMs - 100),
        'NX',
      );
      if (got !== 'OK') return 0;
      if (def.queue === undefined) {
        await def.run();
        return 0;
      }
      const overdue = await def.findOverdue();
      const outcomes = { added: 0, revived: 0, pending: 0 };
      for (const payload of overdue) outcomes[await deps.queues.addOrRevive(def.queue, payload as never)]++;
      // Work whose job is still waiting or running is not news; only lost or failed work is.
      const requeued = outcomes.added + outcomes.revived;
      if (requeued > 0) deps.log.warn({ reconciler: def.name, ...outcomes }, 'overdue work queued again');
      return requeued;
    } catch (err) {
      // Redis or the database is down: the next round tries again.
      deps.log.warn({ reconciler: def.name, err }, 'reconciliation round failed');
      return 0;
    }
  }

  for (const def of defs) {
    const timer = setInterval(() => void round(def), def.everyMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    async runOnce({ takeOver = true } = {}) {
      let total = 0;
      for (const def of defs) {
        if (takeOver) await deps.redis.del(`${deps.prefix}:reconcile:${def.name}`).catch(() => undefined);
        total += await round(def);
      }
      return total;
    },
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
