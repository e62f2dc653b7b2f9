import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { insights, periodChanges } from './schema';

export type InsightRow = typeof insights.$inferSelect;

/** Identifies one period of one user. */
export interface PeriodKey {
  userId: number;
  range: string;
  start: string;
}
const matches = (key: PeriodKey) =>
  and(eq(insights.userId, key.userId), eq(insights.range, key.range), eq(insights.periodStart, key.start));

export async function findInsight(db: DbOrTx, key: PeriodKey): Promise<InsightRow | undefined> {
  const [row] = await db.select().from(insights).where(matches(key));
  return row;
}

/** Every ready insight of the user that has content (the export), oldest period first, then by range. */
export async function findReadyInsights(db: DbOrTx, userId: number): Promise<InsightRow[]> {
  return db
    .select()
    .from(insights)
    .where(and(eq(insights.userId, userId), eq(insights.status, 'ready'), isNotNull(insights.contentEnc)))
    .orderBy(asc(insights.periodStart), asc(insights.range));
}

/** When the period's thoughts last changed (as `thought.changed` events said), if ever. */
export async function lastChange(db: DbOrTx, key: PeriodKey): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: periodChanges.changedAt })
    .from(periodChanges)
    .where(
      and(
        eq(periodChanges.userId, key.userId),
        eq(periodChanges.range, key.range),
        eq(periodChanges.periodStart, key.start),
      ),
    );
  return row?.at;
}

/**
 * Asks for a (re)generation: the row becomes pending under the next request number, which the job id
 * carries. Only the row as the caller saw it is moved on (same request, same status), so a poll that
 * read "pending" just before the job finished does not ask again; a pending row is asked again only
 * when overdue. The request number is returned only when this call made the request.
 */
export async function requestGeneration(
  db: DbOrTx,
  key: PeriodKey & { end: string },
  seen: { request: number; status: string } | null,
  overdueSeconds: number,
): Promise<number | undefined> {
  if (!seen) {
    const rows = await db
      .insert(insights)
      .values({
        userId: key.userId,
        range: key.range,
        periodStart: key.start,
        periodEnd: key.end,
        status: 'pending',
      })
      .onConflictDoNothing()
      .returning({ request: insights.request });
    return rows[0]?.request;
  }
  const rows = await db
    .update(insights)
    .set({ status: 'pending', request: sql`${insights.request} + 1`, requestedAt: sql`now()` })
    .where(
      and(
        matches(key),
        eq(insights.request, seen.request),
        eq(insights.status, seen.status),
        sql`(${insights.status} <> 'pending' or ${insights.requestedAt} < now() - make_interval(secs => ${overdueSeconds}))`,
      ),
    )
    .returning({ request: insights.request });
  return rows[0]?.request;
}

/** Marks the start of a generation (the moment its thoughts are read); false when superseded. */
export async function beginGeneration(db: DbOrTx, key: PeriodKey, request: number): Promise<boolean> {
  const rows = await db
    .update(insights)
    .set({ sourceAt: sql`now()` })
    .where(and(matches(key), eq(insights.request, request), eq(insights.status, 'pending')))
    .returning({ id: insights.id });
  return rows.length === 1;
}

/** Stores a generation's outcome, unless a newer request superseded it meanwhile. */
export async function storeOutcome(
  db: DbOrTx,
  key: PeriodKey,
  request: number,
  outcome: Pick<InsightRow, 'status' | 'engine' | 'contentEnc' | 'sourceCount' | 'sourceChangedAt'>,
): Promise<boolean> {
  const rows = await db
    .update(insights)
    .set({ ...outcome, generatedAt: sql`now()` })
    .where(and(matches(key), eq(insights.request, request), eq(insights.status, 'pending')))
    .returning({ id: insights.id });
  return rows.length === 1;
}

/** Records that a period has no thoughts, without a job (the next GET answers 404 at once). */
export async function storeEmpty(db: DbOrTx, key: PeriodKey & { end: string }): Promise<void> {
  const values = {
    status: 'empty',
    sourceCount: 0,
    sourceChangedAt: null,
    sourceAt: sql`now()`,
    generatedAt: sql`now()`,
  };
  await db
    .insert(insights)
    .values({ userId: key.userId, range: key.range, periodStart: key.start, periodEnd: key.end, ...values })
    .onConflictDoUpdate({
      target: [insights.userId, insights.range, insights.periodStart],
      set: values,
      setWhere: sql`${insights.status} <> 'pending'`,
    });
}

/**
 * Forgets a stored insight (Refresh Insights). The row stays, with its request count, so the next
 * generation is a new request and a new job id: deleting it would restart the count and reuse the
 * id of a finished job, which BullMQ would deduplicate away. A generation already running is kept.
 */
export async function forgetInsight(db: DbOrTx, key: PeriodKey): Promise<void> {
  await db
    .update(insights)
    .set({ status: 'forgotten', contentEnc: null })
    .where(and(matches(key), sql`${insights.status} <> 'pending'`));
}

/** Generations asked for more than `seconds` ago and still pending: their jobs may be lost. */
export async function overduePending(db: DbOrTx, seconds: number, limit = 100): Promise<InsightRow[]> {
  return db
    .select()
    .from(insights)
    .where(
      and(
        eq(insights.status, 'pending'),
        lt(insights.requestedAt, sql`now() - make_interval(secs => ${seconds})`),
      ),
    )
    .limit(limit);
}
