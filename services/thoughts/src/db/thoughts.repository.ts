import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { thoughts } from './schema';

/** A thought as lists read it: everything but the audio itself, which can be large. */
export const listColumns = {
  id: thoughts.id,
  userId: thoughts.userId,
  contentEnc: thoughts.contentEnc,
  isVoice: thoughts.isVoice,
  category: thoughts.category,
  tags: thoughts.tags,
  // Formatted by Postgres as the API's ISO string: parsing 10,000 timestamps into Date objects
  // only to print them again costs more than the rest of a large list.
  date: sql<string>`to_char(${thoughts.date} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  localDate: thoughts.localDate,
  hasAudio: sql<boolean>`${thoughts.audioEnc} is not null`,
};
export type ThoughtRow = typeof thoughts.$inferSelect;
export type ThoughtListRow = Omit<
  ThoughtRow,
  'audioEnc' | 'audioMime' | 'createdAt' | 'updatedAt' | 'date'
> & {
  date: string;
  hasAudio: boolean;
};
export type NewThought = typeof thoughts.$inferInsert;

// Every query is scoped to its owner: another user's id simply finds nothing.

export function listByDay(db: DbOrTx, userId: number, localDate: string): Promise<ThoughtListRow[]> {
  return db
    .select(listColumns)
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.localDate, localDate)))
    .orderBy(desc(thoughts.date), desc(thoughts.id));
}

export function listRange(db: DbOrTx, userId: number, start: string, end: string): Promise<ThoughtListRow[]> {
  return db
    .select(listColumns)
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), gte(thoughts.localDate, start), lte(thoughts.localDate, end)))
    .orderBy(asc(thoughts.date), asc(thoughts.id));
}

export function listByIds(db: DbOrTx, userId: number, ids: number[]): Promise<ThoughtListRow[]> {
  return db
    .select(listColumns)
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), inArray(thoughts.id, ids)));
}

export function listAll(db: DbOrTx, userId: number): Promise<ThoughtListRow[]> {
  return db
    .select(listColumns)
    .from(thoughts)
    .where(eq(thoughts.userId, userId))
    .orderBy(desc(thoughts.date), desc(thoughts.id));
}

export async function findOwned(db: DbOrTx, userId: number, id: number): Promise<ThoughtRow | undefined> {
  const [row] = await db
    .select()
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)));
  return row;
}

export async function insertThought(db: DbOrTx, values: NewThought): Promise<ThoughtRow> {
  const [row] = await db.insert(thoughts).values(values).returning();
  return row!;
}

export async function updateOwned(
  db: DbOrTx,
  userId: number,
  id: number,
  changes: Partial<Pick<NewThought, 'contentEnc' | 'category' | 'tags'>>,
): Promise<ThoughtRow | undefined> {
  const [row] = await db
    .update(thoughts)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)))
    .returning();
  return row;
}

export async function deleteOwned(db: DbOrTx, userId: number, id: number): Promise<ThoughtRow | undefined> {
  const [row] = await db
    .delete(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)))
    .returning();
  return row;
}
