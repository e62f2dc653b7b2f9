import { and, asc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { embeddings, thoughts } from './schema';

// Every query names its owner (and the model): another user's vectors are simply never read.

/** `updated_at` as text to the microsecond, so it can be compared back without losing precision. */
const updatedAtText = sql<string>`to_char(${embeddings.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The columns of a thought its embedded text is made from (still encrypted). */
export const sourceColumns = {
  id: thoughts.id,
  userId: thoughts.userId,
  contentEnc: thoughts.contentEnc,
  tagsEnc: thoughts.tagsEnc,
  legacyTags: thoughts.legacyTags,
};
export interface SourceRow {
  id: number;
  userId: number;
  contentEnc: string;
  tagsEnc: string | null;
  legacyTags: string[] | null;
}

/**
 * A user's thought as its embedding is made from, or undefined when it is gone. `lock` holds the
 * row (for share) until the transaction ends, so an edit cannot slip between this check and a write.
 */
export async function findSource(
  db: DbOrTx,
  userId: number,
  thoughtId: number,
  lock = false,
): Promise<SourceRow | undefined> {
  const query = db
    .select(sourceColumns)
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, thoughtId)));
  const [row] = await (lock ? query.for('share') : query);
  return row;
}

/** What a thought's stored vector was made from and by, if it has one. */
export async function findEmbeddingKey(
  db: DbOrTx,
  userId: number,
  thoughtId: number,
): Promise<{ model: string; sourceKey: string } | undefined> {
  const [row] = await db
    .select({ model: embeddings.model, sourceKey: embeddings.sourceKey })
    .from(embeddings)
    .where(and(eq(embeddings.userId, userId), eq(embeddings.thoughtId, thoughtId)));
  return row;
}

/** Writes (or replaces) a thought's vector; `updated_at` is the statement's own clock. */
export async function upsertEmbedding(
  db: DbOrTx,
  row: {
    thoughtId: number;
    userId: number;
    model: string;
    dims: number;
    vectorEnc: string;
    sourceKey: string;
  },
): Promise<void> {
  await db
    .insert(embeddings)
    .values({ ...row, updatedAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: embeddings.thoughtId,
      set: {
        model: row.model,
        dims: row.dims,
        vectorEnc: row.vectorEnc,
        sourceKey: row.sourceKey,
        updatedAt: sql`clock_timestamp()`,
      },
    });
}

/** Marks a vector current again (its thought's row changed, but not the text it was made from). */
export async function touchEmbedding(db: DbOrTx, userId: number, thoughtId: number): Promise<void> {
  await db
    .update(embeddings)
    .set({ updatedAt: sql`clock_timestamp()` })
    .where(and(eq(embeddings.userId, userId), eq(embeddings.thoughtId, thoughtId)));
}

export async function deleteEmbedding(db: DbOrTx, userId: number, thoughtId: number): Promise<boolean> {
  const rows = await db
    .delete(embeddings)
    .where(and(eq(embeddings.userId, userId), eq(embeddings.thoughtId, thoughtId)))
    .returning({ id: embeddings.thoughtId });
  return rows.length > 0;
}

/**
 * Thoughts whose vector may be missing or stale, in id order after `afterId`: none at all, one from
 * another model, or one older than the thought's last change (the caller compares source keys, since
 * a change of category alone leaves the text as it was). `userId` narrows it to one user.
 */
export function staleSources(
  db: DbOrTx,
  options: { model: string; afterId: number; limit: number; userId?: number },
): Promise<Array<SourceRow & { sourceKey: string | null; model: string | null }>> {
  return db
    .select({ ...sourceColumns, sourceKey: embeddings.sourceKey, model: embeddings.model })
    .from(thoughts)
    .leftJoin(embeddings, eq(embeddings.thoughtId, thoughts.id))
    .where(
      and(
        gt(thoughts.id, options.afterId),
        options.userId === undefined ? undefined : eq(thoughts.userId, options.userId),
        or(
          isNull(embeddings.thoughtId),
          ne(embeddings.model, options.model),
          lt(embeddings.updatedAt, thoughts.updatedAt),
        ),
      ),
    )
    .orderBy(asc(thoughts.id))
    .limit(options.limit);
}

/** How many vectors of `model` the user has and when the latest was written: changes when any does. */
export async function embeddingVersion(
  db: DbOrTx,
  userId: number,
  model: string,
): Promise<{ count: number; latest: string | null }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      latest: sql<
        string | null
      >`to_char(max(${embeddings.updatedAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(embeddings)
    .where(and(eq(embeddings.userId, userId), eq(embeddings.model, model)));
  return { count: Number(row?.count ?? 0), latest: row?.latest ?? null };
}

export interface StoredVector {
  thoughtId: number;
  dims: number;
  vectorEnc: string;
  updatedAt: string;
}

const vectorColumns = {
  thoughtId: embeddings.thoughtId,
  dims: embeddings.dims,
  vectorEnc: embeddings.vectorEnc,
  updatedAt: updatedAtText,
};

/** A user's vectors written at or after `since` (an ISO instant). */
export function vectorsSince(
  db: DbOrTx,
  userId: number,
  model: string,
  since: string,
): Promise<StoredVector[]> {
  return db
    .select(vectorColumns)
    .from(embeddings)
    .where(
      and(
        eq(embeddings.userId, userId),
        eq(embeddings.model, model),
        sql`${embeddings.updatedAt} >= ${since}::timestamptz`,
      ),
    );
}

/** The user's vectors among `ids` (those that are not theirs, or of another model, are absent). */
export function vectorsByIds(
  db: DbOrTx,
  userId: number,
  model: string,
  ids: number[],
): Promise<StoredVector[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select(vectorColumns)
    .from(embeddings)
    .where(
      and(eq(embeddings.userId, userId), eq(embeddings.model, model), inArray(embeddings.thoughtId, ids)),
    );
}

/** The ids of the thoughts a user has vectors of `model` for. */
export async function vectorIds(db: DbOrTx, userId: number, model: string): Promise<number[]> {
  const rows = await db
    .select({ id: embeddings.thoughtId })
    .from(embeddings)
    .where(and(eq(embeddings.userId, userId), eq(embeddings.model, model)));
  return rows.map((r) => r.id);
}
