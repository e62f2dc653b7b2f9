import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { thoughts } from './schema';
import { listColumns, type NewThought } from './thoughts.repository';

/** Export and import queries of the thoughts service; every one scoped to its owner. */

/** The next page of a user's thoughts by id, audio included (read `limit + 1` for the cursor). */
export function exportRows(db: DbOrTx, userId: number, after: number, limit: number) {
  return db
    .select({ ...listColumns, audioEnc: thoughts.audioEnc, audioMime: thoughts.audioMime })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), gt(thoughts.id, after)))
    .orderBy(asc(thoughts.id))
    .limit(limit + 1);
}

/** Which of these client keys the user's thoughts already carry (an earlier try of the same batch). */
export async function usedClientKeys(db: DbOrTx, userId: number, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: thoughts.clientKey })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), inArray(thoughts.clientKey, keys)));
  return new Set(rows.map((r) => r.key!));
}

/** Which of these duplicate keys the user's thoughts already carry. */
export async function usedDedupeKeys(db: DbOrTx, userId: number, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: thoughts.dedupeKey })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), inArray(thoughts.dedupeKey, keys)));
  return new Set(rows.map((r) => r.key!));
}

/** Thoughts of these days saved before duplicate keys existed (keyed once, the first time asked). */
export function unkeyedOnDays(db: DbOrTx, userId: number, days: string[]) {
  return db
    .select({ id: thoughts.id, contentEnc: thoughts.contentEnc, date: listColumns.date })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), inArray(thoughts.localDate, days), isNull(thoughts.dedupeKey)));
}

export async function setDedupeKey(db: DbOrTx, userId: number, id: number, key: string): Promise<void> {
  await db
    .update(thoughts)
    .set({ dedupeKey: key })
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)));
}

/** Inserts imported thoughts; a client key already used (a retried batch) is skipped, not an error. */
export function insertImported(db: DbOrTx, rows: NewThought[]) {
  return db
    .insert(thoughts)
    .values(rows)
    .onConflictDoNothing({ target: [thoughts.userId, thoughts.clientKey] })
    .returning({
      id: thoughts.id,
      localDate: thoughts.localDate,
      updatedAt: thoughts.updatedAt,
      clientKey: thoughts.clientKey,
    });
}
