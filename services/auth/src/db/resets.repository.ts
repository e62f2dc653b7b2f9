import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { passwordResets } from './schema';

export type ResetRow = typeof passwordResets.$inferSelect;

export async function insertReset(
  db: DbOrTx,
  values: { userId: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(passwordResets).values(values);
}

export async function findResetByTokenHash(db: DbOrTx, tokenHash: string): Promise<ResetRow | undefined> {
  const [row] = await db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash));
  return row;
}

/** Marks the token used; false when another request used it first (single use under concurrency). */
export async function consumeReset(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  return rows.length === 1;
}

/** After a reset, every other outstanding link of the user stops working too. */
export async function invalidateResets(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
