import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { outgoingMail } from './schema';

export type MailRow = typeof outgoingMail.$inferSelect;

export async function insertMail(
  db: DbOrTx,
  values: { id: string; kind: string; messageEnc: string; noticeKey?: string },
): Promise<void> {
  await db.insert(outgoingMail).values(values);
}

/** Whether a notice with this key was queued within the last `minutes`. */
export async function noticeQueuedSince(db: DbOrTx, noticeKey: string, minutes: number): Promise<boolean> {
  const rows = await db
    .select({ id: outgoingMail.id })
    .from(outgoingMail)
    .where(
      and(
        eq(outgoingMail.noticeKey, noticeKey),
        gt(outgoingMail.createdAt, sql`now() - make_interval(mins => ${minutes})`),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Mail queued more than `minutes` ago and still unsent: its job may have been lost. */
export async function findUnsentMailIds(db: DbOrTx, minutes: number): Promise<string[]> {
  const rows = await db
    .select({ id: outgoingMail.id })
    .from(outgoingMail)
    .where(
      and(
        isNull(outgoingMail.sentAt),
        lt(outgoingMail.createdAt, sql`now() - make_interval(mins => ${minutes})`),
      ),
    )
    .orderBy(asc(outgoingMail.createdAt))
    .limit(500);
  return rows.map((r) => r.id);
}

export async function findMail(db: DbOrTx, id: string): Promise<MailRow | undefined> {
  const [row] = await db.select().from(outgoingMail).where(eq(outgoingMail.id, id));
  return row;
}

/** Records delivery and drops the message: nothing sent lingers in the database. */
export async function markMailSent(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(outgoingMail)
    .set({ sentAt: sql`now()`, messageEnc: null })
    .where(eq(outgoingMail.id, id));
}
