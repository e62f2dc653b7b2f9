import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
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

/** No download holds the export: none did, or the one that did let its claim lapse. */
const notDownloading = () =>
  or(isNull(transfers.downloadingUntil), lt(transfers.downloadingUntil, sql`now()`));

/** `seconds` from now by the database's clock, the one every replica's claim is compared with. */
const fromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

/**
 * Takes a ready export for one download, for `seconds`, in one statement, so of two downloads at
 * once only one gets it. False when another download holds it, or it is no longer ready.
 */
export async function claimDownload(db: DbOrTx, id: string, seconds: number): Promise<boolean> {
  const rows = await db
    .update(transfers)
    .set({ downloadingUntil: fromNow(seconds) })
    .where(and(eq(transfers.id, id), eq(transfers.status, 'ready'), notDownloading()))
    .returning({ id: transfers.id });
  return rows.length > 0;
}

/** Keeps the claim of a download still streaming, for `seconds` more. */
export async function renewDownload(db: DbOrTx, id: string, seconds: number): Promise<void> {
  await db
    .update(transfers)
    .set({ downloadingUntil: fromNow(seconds) })
    .where(and(eq(transfers.id, id), eq(transfers.status, 'ready')));
}

/** A download cut off half-way lets go of the export: it can be downloaded again. */
export async function releaseDownload(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(transfers)
    .set({ downloadingUntil: null })
    .where(and(eq(transfers.id, id), eq(transfers.status, 'ready')));
}

/** Marks a ready export downloaded; undefined when it was not ready (expired meanwhile). */
export async function markDownloaded(db: DbOrTx, id: string): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(transfers)
    .set({ status: 'downloaded', blobId: null, downloadingUntil: null, updatedAt: new Date() })
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

/**
 * Exports ready but not downloaded in time: marked expired; their files' ids returned. Not one a
 * download is streaming: that download finishes and takes it (or lets it go, to expire next time).
 */
export async function expireExports(db: DbOrTx): Promise<string[]> {
  const due = and(eq(transfers.status, 'ready'), lt(transfers.expiresAt, new Date()), notDownloading());
  const files = new Map(
    (await db.select({ id: transfers.id, blobId: transfers.blobId }).from(transfers).where(due)).map((d) => [
      d.id,
      d.blobId,
    ]),
  );
  if (files.size === 0) return [];
  // Only those still due now: a download may have claimed one since.
  const expired = await db
    .update(transfers)
    .set({ status: 'expired', blobId: null })
    .where(and(inArray(transfers.id, [...files.keys()]), due))
    .returning({ id: transfers.id });
  return expired.map((e) => files.get(e.id)).filter((id): id is string => !!id);
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
