import {
  and,
  arrayContains,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { thoughts } from './schema';

/** A thought as lists read it: everything but the audio itself, which can be large. */
export const listColumns = {
  id: thoughts.id,
  userId: thoughts.userId,
  contentEnc: thoughts.contentEnc,
  isVoice: thoughts.isVoice,
  category: thoughts.category,
  tagsEnc: thoughts.tagsEnc,
  legacyTags: thoughts.legacyTags,
  // Formatted by Postgres as the API's ISO string: parsing 10,000 timestamps into Date objects
  // only to print them again costs more than the rest of a large list.
  date: sql<string>`to_char(${thoughts.date} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  localDate: thoughts.localDate,
  timezoneOffset: thoughts.timezoneOffset,
  hasAudio: sql<boolean>`${thoughts.audioEnc} is not null`,
  format: thoughts.format,
};
export type ThoughtRow = typeof thoughts.$inferSelect;
export type ThoughtListRow = Omit<
  ThoughtRow,
  | 'audioEnc'
  | 'audioMime'
  | 'createdAt'
  | 'updatedAt'
  | 'date'
  | 'tagIndex'
  | 'clientKey'
  | 'dedupeKey'
  | 'searchWords'
  | 'searchTf'
  | 'searchLen'
  | 'searchKey'
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

/** Where a newest-first walk of a user's thoughts goes on: after the thought with this id and date. */
export interface AllCursor {
  id: number;
  /** Its `date` to the microsecond (`at`, as a page gives it). */
  at: string;
}

/**
 * Up to `limit` of the user's thoughts newest first, after `after` when given (by date, then id):
 * the whole list a page at a time, each page one short query on the (user_id, date) index.
 */
export function listAllPage(
  db: DbOrTx,
  userId: number,
  after: AllCursor | null,
  limit: number,
): Promise<Array<ThoughtListRow & { at: string }>> {
  const owner = eq(thoughts.userId, userId);
  const before = after && sql`(${thoughts.date}, ${thoughts.id}) < (${after.at}::timestamptz, ${after.id})`;
  return db
    .select({ ...listColumns, at: sql<string>`${thoughts.date}::text` })
    .from(thoughts)
    .where(before ? and(owner, before) : owner)
    .orderBy(desc(thoughts.date), desc(thoughts.id))
    .limit(limit);
}

export async function findOwned(db: DbOrTx, userId: number, id: number): Promise<ThoughtRow | undefined> {
  const [row] = await db
    .select()
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)));
  return row;
}

/** The encrypted recording of a user's thought and its type: undefined when the thought is not theirs. */
export async function findAudio(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<{ audioEnc: string | null; audioMime: string | null } | undefined> {
  const [row] = await db
    .select({ audioEnc: thoughts.audioEnc, audioMime: thoughts.audioMime })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)));
  return row;
}

/** Inserts a thought; undefined when its client key was already used by the same user. */
export async function insertThought(db: DbOrTx, values: NewThought): Promise<ThoughtRow | undefined> {
  const [row] = await db
    .insert(thoughts)
    .values(values)
    .onConflictDoNothing({ target: [thoughts.userId, thoughts.clientKey] })
    .returning();
  return row;
}

/** The user's thought saved under this client key, if any. */
export async function findByClientKey(
  db: DbOrTx,
  userId: number,
  clientKey: string,
): Promise<ThoughtRow | undefined> {
  const [row] = await db
    .select()
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.clientKey, clientKey)));
  return row;
}

export async function updateOwned(
  db: DbOrTx,
  userId: number,
  id: number,
  changes: Partial<
    Pick<
      NewThought,
      | 'contentEnc'
      | 'category'
      | 'tagsEnc'
      | 'tagIndex'
      | 'legacyTags'
      | 'dedupeKey'
      | 'searchWords'
      | 'searchTf'
      | 'searchLen'
      | 'searchKey'
    >
  >,
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

/** The tag columns of every thought of the user that has tags (no content, no audio), newest first. */
export function listTagColumns(
  db: DbOrTx,
  userId: number,
): Promise<Pick<ThoughtRow, 'userId' | 'tagsEnc' | 'legacyTags'>[]> {
  return db
    .select({ userId: thoughts.userId, tagsEnc: thoughts.tagsEnc, legacyTags: thoughts.legacyTags })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), or(isNotNull(thoughts.tagsEnc), isNotNull(thoughts.legacyTags))))
    .orderBy(desc(thoughts.id));
}

/** Ids of the user's thoughts whose blind tag index holds `token` (an exact, normalised tag). */
export async function idsWithTagToken(db: DbOrTx, userId: number, token: string): Promise<number[]> {
  const rows = await db
    .select({ id: thoughts.id })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), arrayContains(thoughts.tagIndex, [token])));
  return rows.map((r) => r.id);
}

/** A row whose tags need sealing, with the values it was read with (see `resealTags`). */
export type UnsealedTagsRow = Pick<ThoughtRow, 'id' | 'userId' | 'tagsEnc' | 'legacyTags'>;

/**
 * Rows after `afterId` whose tags are not encrypted under `currentKeyId`: plaintext left from before
 * tags were encrypted, or values (and so index tokens) from a key since rotated out. Oldest first.
 */
export function tagsToSeal(
  db: DbOrTx,
  currentKeyId: string,
  afterId: number,
  limit: number,
): Promise<UnsealedTagsRow[]> {
  return db
    .select({
      id: thoughts.id,
      userId: thoughts.userId,
      tagsEnc: thoughts.tagsEnc,
      legacyTags: thoughts.legacyTags,
    })
    .from(thoughts)
    .where(
      and(
        gt(thoughts.id, afterId),
        or(
          isNotNull(thoughts.legacyTags),
          // `enc1.<keyId>.<payload>`: the key id is the second part.
          sql`split_part(${thoughts.tagsEnc}, '.', 2) <> ${currentKeyId}`,
        ),
      ),
    )
    .orderBy(asc(thoughts.id))
    .limit(limit);
}

/**
 * Writes a row's sealed tags, only if its tag columns still hold what `row` read: a user's edit in
 * between wins, and two instances sealing at once write the same tags twice at worst.
 */
export async function resealTags(
  db: DbOrTx,
  row: UnsealedTagsRow,
  sealed: Pick<NewThought, 'tagsEnc' | 'tagIndex' | 'legacyTags'>,
): Promise<boolean> {
  const updated = await db
    .update(thoughts)
    .set(sealed)
    .where(
      and(
        eq(thoughts.id, row.id),
        row.legacyTags === null ? isNull(thoughts.legacyTags) : eq(thoughts.legacyTags, row.legacyTags),
        row.tagsEnc === null ? isNull(thoughts.tagsEnc) : eq(thoughts.tagsEnc, row.tagsEnc),
      ),
    )
    .returning({ id: thoughts.id });
  return updated.length > 0;
}

/** How many thoughts the user has in [start, end], and the latest moment one was written or edited. */
export async function rangeStats(
  db: DbOrTx,
  userId: number,
  start: string,
  end: string,
): Promise<{ count: number; lastChangedAt: string | null }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      lastChangedAt: sql<
        string | null
      >`to_char(max(${thoughts.updatedAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), gte(thoughts.localDate, start), lte(thoughts.localDate, end)));
  return { count: row?.count ?? 0, lastChangedAt: row?.lastChangedAt ?? null };
}
