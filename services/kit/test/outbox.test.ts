import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzleOf, runMigrations, type Db } from '../src/db';
import { createLogger } from '../src/logger';
import { newEventId, startOutboxRelay, writeOutbox } from '../src/outbox';
import { QueueRegistry } from '../src/queue';
import { redisOptionsFrom } from '../src/redis';
import { createTestDatabase, startPrivateRedis, until } from '../src/testing';
import { createUnitOfWork } from '../src/unit-of-work';
import { notes, outbox } from './schema';

const log = createLogger({ name: 'outbox-test', level: 'silent' });

describe('transactional outbox', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  const prefix = `t${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await createTestDatabase();
    await runMigrations(database.connection, 'kit_test', path.join(import.meta.dirname, 'drizzle'));
    db = drizzleOf(database.connection);
  });
  afterAll(async () => {
    await redis?.stop();
    await database?.drop();
  });

  it('keeps the data and its event together: a failed transaction leaves neither', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(notes).values({ body: 'lost' });
        await writeOutbox(tx, outbox, 'thought.changed', {
          eventId: newEventId(),
          userId: 1,
          thoughtId: 1,
          localDate: '2025-01-05',
          change: 'created',
          changedAt: '2025-01-05T10:00:00.000Z',
        });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.select().from(notes)).toHaveLength(0);
    expect(await db.select().from(outbox)).toHaveLength(0);
  });

  it('delivers an event written while Redis is down exactly once after Redis returns', async () => {
    const delivered: string[] = [];
    const queues = new QueueRegistry({ redisUrl: redis.url, prefix });
    const worker = new Worker(
      'thought.changed',
      async (job) => {
        delivered.push(job.id!);
      },
      { prefix, connection: { ...redisOptionsFrom(redis.url), maxRetriesPerRequest: null } },
    );
    worker.on('error', () => undefined);

    await redis.stop();
    const payload = {
      eventId: newEventId(),
      userId: 7,
      thoughtId: 42,
      localDate: '2025-01-05',
      change: 'created' as const,
      changedAt: '2025-01-05T10:00:00.000Z',
    };
    await db.transaction(async (tx) => {
      await tx.insert(notes).values({ body: 'kept' });
      await writeOutbox(tx, outbox, 'thought.changed', payload);
    });

    const relay = startOutboxRelay({
      db,
      table: outbox,
      queues,
      log,
      intervalMs: 100,
      maxDelayMs: 400,
      publishTimeoutMs: 300,
    });
    // While Redis is away the row stays pending and each failed try is counted.
    await until(async () => ((await db.select().from(outbox))[0]?.attempts ?? 0) >= 2);
    const [pending] = await db.select().from(outbox);
    expect(pending?.sentAt).toBeNull();
    expect(delivered).toEqual([]);

    await redis.start();
    // A publication that timed out during the outage may land late, and the relay publishes the row
    // again before marking it sent: both carry the same job id, so the worker sees one job.
    await until(async () => (await db.select().from(outbox))[0]?.sentAt != null);
    await until(() => delivered.length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(delivered).toEqual([`thought-changed.7.42.${payload.eventId}`]);
    const [sent] = await db.select().from(outbox);

    // A replay of the same row (a crash between publishing and marking it sent) is the same job.
    // The background loop is stopped first so this flush is the only publisher of the replay.
    await relay.stop();
    await db.update(outbox).set({ sentAt: null }).where(eq(outbox.id, sent!.id));
    expect(await relay.flush()).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(delivered).toHaveLength(1);

    await worker.close();
    await queues.close();
  });
});

describe('unit of work', () => {
  it('commits the data with its events and wakes the relay once, after the commit; a failure leaves neither', async () => {
    const database = await createTestDatabase();
    try {
      await runMigrations(database.connection, 'kit_test', path.join(import.meta.dirname, 'drizzle'));
      const db = drizzleOf(database.connection);
      const kicks: number[] = [];
      const uow = createUnitOfWork({
        db,
        table: outbox,
        relay: { kick: async () => void kicks.push((await db.select().from(outbox)).length) } as never,
      });
      const event = {
        eventId: newEventId(),
        userId: 1,
        thoughtId: 1,
        localDate: '2025-01-05',
        change: 'created',
        changedAt: '2025-01-05T10:00:00.000Z',
      } as const;
      await expect(
        uow.run(async (tx, emit) => {
          await tx.insert(notes).values({ body: 'lost' });
          await emit('thought.changed', event);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(kicks).toEqual([]);
      await uow.run(async (tx, emit) => {
        await tx.insert(notes).values({ body: 'kept' });
        await emit('thought.changed', event);
      });
      await until(() => kicks.length === 1);
      expect(kicks).toEqual([1]);
      expect(await db.select().from(notes)).toHaveLength(1);
      // Nothing emitted, nothing to wake the relay for.
      await uow.run(async (tx) => void (await tx.insert(notes).values({ body: 'quiet' })));
      expect(kicks).toHaveLength(1);
    } finally {
      await database.drop();
    }
  });
});
