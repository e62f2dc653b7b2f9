import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { outgoingMail } from './schema';

export type MailRow = typeof outgoingMail.$inferSelect;

export async function insertMail(
  db: DbOrTx,
  values: { id: string; kind: string; messageEnc: string },
): Promise<void> {
  await db.insert(outgoingMail).values(values);
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
