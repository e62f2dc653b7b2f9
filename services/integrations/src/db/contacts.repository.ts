import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { mailContacts } from './schema';

// The only code that reads and writes `mail_contacts` (whom the user wrote to, as blind indexes).

export type ContactInsert = typeof mailContacts.$inferInsert;

/** Records these contacts, keeping the latest time the user wrote to each. */
export async function rememberContacts(db: DbOrTx, rows: ContactInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(mailContacts)
    .values(rows)
    .onConflictDoUpdate({
      target: [mailContacts.integrationId, mailContacts.addressKey],
      set: { lastWrittenAt: sql`greatest(${mailContacts.lastWrittenAt}, excluded.last_written_at)` },
    });
}

/** Which of these keys are contacts of the user, in any of their mail accounts. */
export async function knownContactKeys(db: DbOrTx, userId: number, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ key: mailContacts.addressKey })
    .from(mailContacts)
    .where(and(eq(mailContacts.userId, userId), inArray(mailContacts.addressKey, keys)));
  return new Set(rows.map((r) => r.key));
}
