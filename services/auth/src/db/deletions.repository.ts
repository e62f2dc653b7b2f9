import { eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { accountDeletions } from './schema';

export type DeletionRow = typeof accountDeletions.$inferSelect;

export async function findDeletion(db: DbOrTx, userId: number): Promise<DeletionRow | undefined> {
  const [row] = await db.select().from(accountDeletions).where(eq(accountDeletions.userId, userId));
  return row;
}

/** Records the request; a repeated request keeps the first one (and its time). */
export async function insertDeletion(db: DbOrTx, userId: number): Promise<void> {
  await db.insert(accountDeletions).values({ userId }).onConflictDoNothing();
}

/**
 * Adds `service` to those that reported the user's data gone (once, however often it reports) and
 * returns the updated record; undefined when there is none.
 */
export async function markServiceDone(
  db: DbOrTx,
  userId: number,
  service: string,
): Promise<DeletionRow | undefined> {
  const [row] = await db
    .update(accountDeletions)
    .set({
      done: sql`(select array_agg(distinct s) from unnest(array_append(${accountDeletions.done}, ${service})) s)`,
    })
    .where(eq(accountDeletions.userId, userId))
    .returning();
  return row;
}

/** Deletions requested more than `minutes` ago (finished ones are gone, so these still wait). */
export async function findDeletionsRequestedBefore(db: DbOrTx, minutes: number): Promise<DeletionRow[]> {
  return db
    .select()
    .from(accountDeletions)
    .where(lt(accountDeletions.requestedAt, sql`now() - make_interval(mins => ${minutes})`));
}
