import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { periodChanges } from './schema';

/** Records that the thoughts of these periods changed at `at` (idempotent: the latest time wins). */
export async function markChanged(
  db: DbOrTx,
  userId: number,
  periods: ReadonlyArray<{ range: string; start: string }>,
  at: Date,
): Promise<void> {
  await db
    .insert(periodChanges)
    .values(periods.map((p) => ({ userId, range: p.range, periodStart: p.start, changedAt: at })))
    .onConflictDoUpdate({
      target: [periodChanges.userId, periodChanges.range, periodChanges.periodStart],
      set: { changedAt: sql`greatest(${periodChanges.changedAt}, excluded.changed_at)` },
    });
}
