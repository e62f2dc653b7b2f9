import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { pendingVerifications } from './schema';

export type PendingRow = typeof pendingVerifications.$inferSelect;
type PendingValues = Omit<typeof pendingVerifications.$inferInsert, 'id' | 'createdAt' | 'attempts'>;

export async function findPendingByEmail(db: DbOrTx, email: string): Promise<PendingRow | undefined> {
  const [row] = await db.select().from(pendingVerifications).where(eq(pendingVerifications.email, email));
  return row;
}

export async function findPendingByLinkToken(db: DbOrTx, tokenHash: string): Promise<PendingRow | undefined> {
  const [row] = await db
    .select()
    .from(pendingVerifications)
    .where(eq(pendingVerifications.linkTokenHash, tokenHash));
  return row;
}

/** Is the username held by a live registration for another e-mail? (Expired ones are cleared first.) */
export async function usernameHeldByOther(db: DbOrTx, username: string, email: string): Promise<boolean> {
  await db.delete(pendingVerifications).where(lt(pendingVerifications.expiresAt, sql`now()`));
  const rows = await db
    .select({ id: pendingVerifications.id })
    .from(pendingVerifications)
    .where(
      and(
        sql`lower(${pendingVerifications.username}) = lower(${username})`,
        ne(pendingVerifications.email, email),
      ),
    );
  return rows.length > 0;
}

/** One pending registration per e-mail: a new request replaces the old one and resets its attempts. */
export async function upsertPending(db: DbOrTx, values: PendingValues): Promise<PendingRow> {
  const [row] = await db
    .insert(pendingVerifications)
    .values(values)
    .onConflictDoUpdate({
      target: pendingVerifications.email,
      set: { ...values, attempts: 0, createdAt: sql`now()` },
    })
    .returning();
  return row!;
}

/** A fresh code and link for an existing pending registration; clears the lock. */
export async function refreshPendingCode(
  db: DbOrTx,
  id: number,
  values: Pick<PendingValues, 'codeHash' | 'linkTokenHash' | 'expiresAt'>,
): Promise<void> {
  await db
    .update(pendingVerifications)
    .set({ ...values, attempts: 0 })
    .where(eq(pendingVerifications.id, id));
}

/** Counts one wrong code and returns the new total (atomic, so parallel guesses all count). */
export async function countWrongCode(db: DbOrTx, id: number): Promise<number> {
  const [row] = await db
    .update(pendingVerifications)
    .set({ attempts: sql`${pendingVerifications.attempts} + 1` })
    .where(eq(pendingVerifications.id, id))
    .returning({ attempts: pendingVerifications.attempts });
  return row?.attempts ?? 0;
}

export async function deletePending(db: DbOrTx, id: number): Promise<void> {
  await db.delete(pendingVerifications).where(eq(pendingVerifications.id, id));
}
