import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { reportLines, transfers } from './schema';

export type TransferRow = typeof transfers.$inferSelect;
export type TransferPatch = Partial<Omit<typeof transfers.$inferInsert, 'id' | 'userId' | 'kind'>>;

// Every read a user makes is scoped to that user: another user's transfer is simply not found.

export async function insertTransfer(
  db: DbOrTx,
  values: { id: string; userId: number; kind: 'export' | 'import'; blobId?: string },
): Promise<void> {
  await db.insert(transfers).values(values);
}

export async function findOwnedTransfer(db: DbOrTx, userId: number, id: string, kind: 'export' | 'import') {
  const [row] = await db
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, id), eq(transfers.userId, userId), eq(transfers.kind, kind)));
  return row;
}

/** The transfer a job works on, only while the job's step is the current one. */
export async function findForStep(db: DbOrTx, id: string, userId: number, step: number) {
  const [row] = await db
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, id), eq(transfers.userId, userId), eq(transfers.step, step)));
  return row;
}

/** Updates the transfer (and its `updatedAt`, the sign it is moving) while `step` is current. */
export async function updateAtStep(
  db: DbOrTx,
  id: string,
  step: number,
  patch: TransferPatch,
): Promise<boolean> {
  const rows = await db
    .update(transfers)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(transfers.id, id), eq(transfers.step, step)))
    .returning({ id: transfers.id });
  return rows.length > 0;
}

/** Marks a ready export downloaded; false when it was not ready (taken or expired meanwhile). */
export async function markDownloaded(db: DbOrTx, id: string): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(transfers)
    .set({ status: 'downloaded', blobId: null, updatedAt: new Date() })
    .where(and(eq(transfers.id, id), eq(transfers.status, 'ready')))
    .returning();
  return row;
}

/**
 * Transfers that have not moved for `minutes` while queued or running: their job was lost or keeps
 * dying. Each gets its next step (and a stall counted), so a fresh job can take it over.
 */
export function claimStalled(db: DbOrTx, kind: 'export' | 'import', minutes: number) {
  return db
    .update(transfers)
    .set({ step: sql`${transfers.step} + 1`, stalls: sql`${transfers.stalls} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(transfers.kind, kind),
        inArray(transfers.status, ['queued', 'running']),
        lt(transfers.updatedAt, sql`now() - make_interval(mins => ${minutes})`),
      ),
    )
    .returning({
      id: transfers.id,
      userId: transfers.userId,
      kind: transfers.kind,
      step: transfers.step,
      stalls: transfers.stalls,
    });
}

/** Exports ready but not downloaded in time: marked expired; their files' ids returned. */
export async function expireExports(db: DbOrTx): Promise<string[]> {
  const due = await db
    .select({ id: transfers.id, blobId: transfers.blobId })
    .from(transfers)
    .where(and(eq(transfers.status, 'ready'), lt(transfers.expiresAt, new Date())));
  if (due.length === 0) return [];
  await db
    .update(transfers)
    .set({ status: 'expired', blobId: null })
    .where(
      and(
        inArray(
          transfers.id,
          due.map((d) => d.id),
        ),
        eq(transfers.status, 'ready'),
      ),
    );
  return due.map((d) => d.blobId).filter((id): id is string => id !== null);
}

export async function addReportLines(
  db: DbOrTx,
  rows: Array<{ transferId: string; userId: number; problem: boolean; lineEnc: string }>,
): Promise<void> {
  if (rows.length) await db.insert(reportLines).values(rows);
}

/** Report lines in order; `problemsOnly` for the status answer's first problems. */
export function reportOf(
  db: DbOrTx,
  transferId: string,
  options: { problemsOnly?: boolean; limit?: number } = {},
) {
  const query = db
    .select({ lineEnc: reportLines.lineEnc })
    .from(reportLines)
    .where(
      options.problemsOnly
        ? and(eq(reportLines.transferId, transferId), eq(reportLines.problem, true))
        : eq(reportLines.transferId, transferId),
    )
    .orderBy(asc(reportLines.id));
  return options.limit ? query.limit(options.limit) : query;
}
