import { sql } from 'drizzle-orm';
import { userDeleteQueue, type UserDataService } from '@haven/contracts/jobs';
import type { Tx } from './db';
import { defineJob, type JobDefinition } from './queue';
import type { UnitOfWork } from './unit-of-work';

/**
 * Deletes every row of `userId` in a service's schema: each table with a `user_id` column (rows
 * without one hang off those by cascading foreign keys), and its outbox events about the user.
 */
export async function purgeUserRows(tx: Tx, schema: string, userId: number): Promise<void> {
  // node-postgres and PGlite both answer `{ rows }`.
  const tables = (await tx.execute(sql`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = ${schema} and c.column_name = 'user_id' and t.table_type = 'BASE TABLE'`)) as unknown as {
    rows: Array<{ table_name: string }>;
  };
  for (const { table_name } of tables.rows)
    await tx.execute(
      sql`delete from ${sql.identifier(schema)}.${sql.identifier(table_name)} where user_id = ${userId}`,
    );
  await tx.execute(
    sql`delete from ${sql.identifier(schema)}.outbox where payload->>'userId' = ${String(userId)}`,
  );
}

/**
 * The job that deletes everything of a user in `service` (its `user.delete.<service>` queue) and,
 * in the same transaction, reports it to auth. `before` runs first, outside it (the integrations
 * service revokes tokens at the providers there). Idempotent: a second run finds nothing.
 */
export function userDeletionJob(
  service: UserDataService,
  deps: { uow: UnitOfWork; schema: string; before?: (userId: number) => Promise<void> },
): JobDefinition {
  return defineJob({
    queue: userDeleteQueue(service),
    concurrency: 1,
    async handle({ userId }) {
      await deps.before?.(userId);
      await deps.uow.run(async (tx, emit) => {
        await purgeUserRows(tx, deps.schema, userId);
        await emit('user.deletion.report', { userId, service });
      });
    },
  }) as JobDefinition;
}
