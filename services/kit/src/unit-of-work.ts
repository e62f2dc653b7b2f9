import type { JobPayload, QueueName } from '@haven/contracts/jobs';
import type { Db, Tx } from './db';
import { writeOutbox, type OutboxRelay } from './outbox';
import type { OutboxTable } from './outbox-table';

/** Records an event in the running transaction; it is published once the transaction commits. */
export type Emit = <Q extends QueueName>(queue: Q, payload: JobPayload<Q>) => Promise<void>;

/**
 * Runs one unit of work: the data and the events describing it are written in one transaction, and
 * the outbox relay is woken once it commits. Domain code never opens a transaction or kicks the
 * relay itself; it receives `tx` for its repositories and `emit` for its events.
 */
export interface UnitOfWork {
  run<T>(work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T>;
}

export function createUnitOfWork(options: {
  db: Db;
  table: OutboxTable;
  relay?: Pick<OutboxRelay, 'kick'>;
}): UnitOfWork {
  const { db, table, relay } = options;
  return {
    async run(work) {
      let emitted = 0;
      const result = await db.transaction((tx) =>
        work(tx, async (queue, payload) => {
          await writeOutbox(tx, table, queue, payload);
          emitted++;
        }),
      );
      if (emitted > 0) relay?.kick();
      return result;
    },
  };
}
