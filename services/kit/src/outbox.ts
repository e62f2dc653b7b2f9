import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { jobFor, type JobPayload, type QueueName } from '@haven/contracts/jobs';
import { currentContext } from './context';
import type { Db, DbOrTx } from './db';
import type { Logger } from './logger';
import type { OutboxTable } from './outbox-table';
import { jobMeta, type QueueRegistry } from './queue';
import { withTimeout } from './redis';
import { currentTraceparent } from './tracing';

/**
 * Records an event inside the caller's transaction. The job id is computed now, from the payload,
 * so every later publication of this row is the same BullMQ job.
 */
export async function writeOutbox<Q extends QueueName>(
  tx: DbOrTx,
  table: OutboxTable,
  queue: Q,
  payload: JobPayload<Q>,
): Promise<void> {
  const job = jobFor(queue, payload);
  await tx.insert(table).values({
    queue,
    jobId: job.jobId,
    payload: job.payload,
    requestId: currentContext()?.requestId ?? null,
    traceparent: currentTraceparent() ?? null,
  });
}

/** A fresh id for an event whose job id must be unique to it (e.g. each change of a thought). */
export const newEventId = (): string => randomUUID();

export interface OutboxRelay {
  /** Publishes now instead of at the next tick (call after committing an outbox row). */
  kick(): void;
  /** Publishes everything pending; resolves with how many rows were sent. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

const BATCH = 100;
const CLAIM_SECONDS = 30;

/** A round stopped by a failed publication (Redis); each failure is already logged with its row. */
class PublishFailed extends Error {
  constructor() {
    super('outbox publish failed');
  }
}

/** What publishing needs: where the rows are, where they go, and the name of this relay's claims. */
interface Publisher {
  db: Db;
  table: OutboxTable;
  queues: QueueRegistry;
  log: Logger;
  publishTimeout: number;
  /** Names this relay's claims (see `claimedBy`). */
  relayId: string;
}

type OutboxRow = OutboxTable['$inferSelect'];

/**
 * Claims the next batch of pending rows for this relay, oldest first: unclaimed ones, ones whose
 * claim has run out, and ones this relay claimed before (see `claimedBy`).
 */
async function claimBatch({ db, table, relayId }: Publisher): Promise<OutboxRow[]> {
  const claimed = await db
    .update(table)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, claimedBy: relayId })
    .where(
      inArray(
        table.id,
        db
          .select({ id: table.id })
          .from(table)
          .where(
            and(
              isNull(table.sentAt),
              or(
                isNull(table.claimedUntil),
                lt(table.claimedUntil, sql`now()`),
                eq(table.claimedBy, relayId),
              ),
            ),
          )
          .orderBy(asc(table.id))
          .limit(BATCH)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

/** Adds the row's job under its stored id, then marks the row sent. */
async function publishRow({ db, table, queues, publishTimeout }: Publisher, row: OutboxRow): Promise<void> {
  // BullMQ waits for a lost connection rather than failing; bound it. If the add still lands
  // later, it is the same job id, so nothing doubles.
  await withTimeout(
    queues.publish(row.queue as QueueName, row.jobId, {
      payload: row.payload as JobPayload<QueueName>,
      meta: jobMeta(row.requestId, row.traceparent),
    }),
    publishTimeout,
    'queue add',
  );
  await db
    .update(table)
    .set({ sentAt: sql`now()`, claimedUntil: null, claimedBy: null })
    .where(inArray(table.id, [row.id]));
}

/**
 * A publication failed: the row counts the attempt and keeps its error, and it and the rest of the
 * batch are released for the next round.
 */
async function releaseAfterFailure(
  { db, table, log }: Publisher,
  claimed: OutboxRow[],
  row: OutboxRow,
  err: unknown,
): Promise<void> {
  // When the database itself is gone these updates fail too; the rows stay claimed by this
  // relay, which takes them back in its next round.
  const pending = claimed.filter((r) => r.id >= row.id).map((r) => r.id);
  await db
    .update(table)
    .set({
      claimedUntil: null,
      claimedBy: null,
      attempts: sql`${table.attempts} + 1`,
      lastError: (err as Error).message.slice(0, 500),
    })
    .where(inArray(table.id, [row.id]));
  await db.update(table).set({ claimedUntil: null, claimedBy: null }).where(inArray(table.id, pending));
  log.warn({ queue: row.queue, outboxId: row.id, err }, 'outbox publish failed; will retry');
}

/** Claims a batch and publishes it in order, stopping at the first failure. */
async function publishBatch(publisher: Publisher): Promise<{ sent: number; failed: boolean; full: boolean }> {
  const claimed = await claimBatch(publisher);
  let sent = 0;
  for (const row of claimed) {
    try {
      await publishRow(publisher, row);
      sent++;
    } catch (err) {
      await releaseAfterFailure(publisher, claimed, row, err);
      return { sent, failed: true, full: false };
    }
  }
  return { sent, failed: false, full: claimed.length === BATCH };
}

/** Publishes everything pending, batch after batch; rejects with PublishFailed at a failed publication. */
async function publishPending(publisher: Publisher): Promise<number> {
  let total = 0;
  for (;;) {
    const { sent, failed, full } = await publishBatch(publisher);
    total += sent;
    if (failed) throw new PublishFailed();
    if (!full) return total;
  }
}

/**
 * Moves outbox rows to their queues: claims a batch (so several instances never publish the same
 * row at once), adds each job under its stored id, and marks it sent. While Redis or the database is
 * unreachable the rows stay pending and the relay retries with a growing pause, up to `maxDelayMs`;
 * a commit (`kick`) retries at once.
 */
export function startOutboxRelay(options: {
  db: Db;
  table: OutboxTable;
  queues: QueueRegistry;
  log: Logger;
  intervalMs?: number;
  maxDelayMs?: number;
  /** How long one publication may wait for Redis before the round counts as failed. */
  publishTimeoutMs?: number;
}): OutboxRelay {
  const { db, table, queues, log } = options;
  const interval = options.intervalMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const publisher: Publisher = {
    db,
    table,
    queues,
    log,
    publishTimeout: options.publishTimeoutMs ?? 5000,
    relayId: randomUUID(),
  };
  const flush = () => publishPending(publisher);
  let delay = interval;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let again = false;
  /** Rounds failed in a row: the first is logged as a warning, the recovery as info. */
  let failures = 0;

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  function tick() {
    if (running) {
      again = true;
      return;
    }
    running = flush()
      .then((sent) => {
        if (failures > 0) log.info({ failedRounds: failures }, 'outbox relay recovered');
        failures = 0;
        delay = interval;
        return sent;
      })
      .catch((err: unknown) => {
        failures++;
        delay = Math.min(delay * 2, maxDelay);
        // Once per outage, not once a round: the rows wait safely in the table meanwhile.
        if (err instanceof PublishFailed) return 0;
        if (failures === 1) log.warn({ err }, 'outbox relay round failed; retrying with backoff');
        else log.debug({ err, failures, retryInMs: delay }, 'outbox relay round failed again');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(delay);
      });
  }

  schedule(0);
  return {
    kick: () => schedule(0),
    flush: async () => {
      while (running) await running;
      return flush();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (running) await running;
    },
  };
}

/** How long a published event is kept (for looking into what happened) before it is deleted. */
export const SENT_EVENT_RETENTION_DAYS = 7;

/** Deletes events published more than `days` ago; resolves with how many went. */
export async function deleteSentEvents(
  db: Db,
  table: OutboxTable,
  days = SENT_EVENT_RETENTION_DAYS,
): Promise<number> {
  const rows = await db
    .delete(table)
    .where(and(isNotNull(table.sentAt), lt(table.sentAt, sql`now() - make_interval(days => ${days})`)))
    .returning({ id: table.id });
  return rows.length;
}

/** How many events wait to be published, and how long (seconds) the oldest has waited (0 when none). */
export async function outboxBacklog(
  db: Db,
  table: OutboxTable,
): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldestAgeSeconds: sql<number>`coalesce(extract(epoch from now() - min(${table.createdAt})), 0)::float8`,
    })
    .from(table)
    .where(isNull(table.sentAt));
  return { pending: Number(row?.pending ?? 0), oldestAgeSeconds: Number(row?.oldestAgeSeconds ?? 0) };
}
