import { eq, sql } from 'drizzle-orm';
import type { PreferencesPatch } from '@haven/contracts/preferences';
import type { Db } from '@haven/kit/db';
import { userPreferences } from './schema';

export type PreferencesRow = typeof userPreferences.$inferSelect;

/**
 * The user's preferences, creating the default row on first read. Reads stay reads: the insert
 * happens only when the row is missing, and a concurrent first read is harmless.
 */
export async function findOrCreatePreferences(db: Db, userId: number): Promise<PreferencesRow> {
  const existing = await getPreferences(db, userId);
  if (existing) return existing;
  await db.insert(userPreferences).values({ userId }).onConflictDoNothing();
  return (await getPreferences(db, userId))!;
}

/** Applies the given flags (creating the row if needed) and returns the result. */
export async function updatePreferences(
  db: Db,
  userId: number,
  patch: PreferencesPatch,
): Promise<PreferencesRow> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const [row] = await db
    .insert(userPreferences)
    .values({ userId, ...changes })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

/** Reads without creating (internal callers that must not write). */
export async function getPreferences(db: Db, userId: number): Promise<PreferencesRow | undefined> {
  const [row] = await db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  return row;
}
