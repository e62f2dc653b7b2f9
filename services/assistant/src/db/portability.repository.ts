import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { conversations, messages } from './schema';
import type { NewMessage } from './conversations.repository';

/** Export and import queries of the assistant service; every one scoped to its owner. */

/** The next conversations by id (read `limit + 1` for the cursor). */
export function conversationsAfter(db: DbOrTx, userId: number, after: number, limit: number) {
  return db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), gt(conversations.id, after)))
    .orderBy(asc(conversations.id))
    .limit(limit + 1);
}

/** Every message of these conversations, oldest first. */
export function messagesOf(db: DbOrTx, userId: number, conversationIds: number[]) {
  if (conversationIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), inArray(messages.conversationId, conversationIds)))
    .orderBy(asc(messages.id));
}

/** Conversations started at one of these instants (the candidates for duplicates). */
export function startedAt(db: DbOrTx, userId: number, instants: Date[]) {
  if (instants.length === 0) return Promise.resolve([]);
  return db
    .select({ titleEnc: conversations.titleEnc, createdAt: conversations.createdAt })
    .from(conversations)
    .where(and(eq(conversations.userId, userId), inArray(conversations.createdAt, instants)));
}

/** Which of these import keys the user's conversations already carry (an earlier try). */
export async function usedImportKeys(db: DbOrTx, userId: number, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: conversations.importKey })
    .from(conversations)
    .where(and(eq(conversations.userId, userId), inArray(conversations.importKey, keys)));
  return new Set(rows.map((r) => r.key!));
}

/** Inserts an imported conversation with its messages; nothing when its import key is taken. */
export async function insertImportedConversation(
  db: DbOrTx,
  values: typeof conversations.$inferInsert,
  thread: Array<Omit<NewMessage, 'conversationId'>>,
): Promise<boolean> {
  const [row] = await db
    .insert(conversations)
    .values(values)
    .onConflictDoNothing({ target: [conversations.userId, conversations.importKey] })
    .returning({ id: conversations.id });
  if (!row) return false;
  if (thread.length) await db.insert(messages).values(thread.map((m) => ({ ...m, conversationId: row.id })));
  return true;
}
