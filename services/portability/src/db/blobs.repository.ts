import { and, asc, eq, gte, lt, lte, notInArray, sql, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { blobChunks, blobs, transfers } from './schema';

/** Stored files, chunk by chunk. */

export async function createBlob(db: DbOrTx, id: string, userId: number, chunkSize: number): Promise<void> {
  await db.insert(blobs).values({ id, userId, chunkSize });
}

export async function addChunk(db: DbOrTx, blobId: string, seq: number, dataEnc: string): Promise<void> {
  await db.insert(blobChunks).values({ blobId, seq, dataEnc }).onConflictDoNothing();
}

export async function completeBlob(db: DbOrTx, id: string, size: number): Promise<void> {
  await db.update(blobs).set({ size, complete: true }).where(eq(blobs.id, id));
}

export async function findBlob(db: DbOrTx, id: string) {
  const [row] = await db.select().from(blobs).where(eq(blobs.id, id));
  return row;
}

/** Chunks `from`..`to` (inclusive), in order. */
export function chunksBetween(db: DbOrTx, blobId: string, from: number, to: number) {
  return db
    .select({ seq: blobChunks.seq, dataEnc: blobChunks.dataEnc })
    .from(blobChunks)
    .where(and(eq(blobChunks.blobId, blobId), gte(blobChunks.seq, from), lte(blobChunks.seq, to)))
    .orderBy(asc(blobChunks.seq));
}

/** Deletes a blob and its chunks (cascade). */
export async function deleteBlob(db: DbOrTx, id: string): Promise<void> {
  await db.delete(blobs).where(eq(blobs.id, id));
}

/**
 * Deletes files no transfer needs any more and older than `minutes`: uploads cut off half-way, and
 * anything a crash left behind between writing a file and recording it.
 */
export async function deleteOrphanBlobs(db: DbOrTx, minutes: number): Promise<number> {
  const rows = await db
    .delete(blobs)
    .where(
      and(
        lt(blobs.createdAt, sql`now() - make_interval(mins => ${minutes})`),
        notInArray(
          blobs.id,
          db
            .select({ id: sql<string>`${transfers.blobId}` })
            .from(transfers)
            .where(isNotNull(transfers.blobId)),
        ),
      ),
    )
    .returning({ id: blobs.id });
  return rows.length;
}
