import { and, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { excluded } from './excluded';
import { mailMessages } from './schema';

// The only code that reads and writes `mail_messages` (the cached inbox of a mail account).

export type MailMessageRow = typeof mailMessages.$inferSelect;
export type MailMessageInsert = typeof mailMessages.$inferInsert;

/** Rows written per statement when storing a sync's messages. */
const UPSERT_BATCH = 200;

const ofAccount = (integrationId: number) => eq(mailMessages.integrationId, integrationId);

/** Stores these messages, or updates those already cached (by the account's message id). */
export async function upsertMailMessages(db: DbOrTx, rows: MailMessageInsert[]): Promise<void> {
  for (let i = 0; i < rows.length; i += UPSERT_BATCH) {
    await db
      .insert(mailMessages)
      .values(rows.slice(i, i + UPSERT_BATCH))
      .onConflictDoUpdate({
        target: [mailMessages.integrationId, mailMessages.messageId],
        set: {
          threadId: excluded('thread_id'),
          receivedAt: excluded('received_at'),
          dataEnc: excluded('data_enc'),
          bodyEnc: excluded('body_enc'),
        },
      });
  }
}

/** One cached message of the user, in whichever of their accounts. */
export async function findMessageOfUser(
  db: DbOrTx,
  userId: number,
  messageId: string,
): Promise<MailMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.userId, userId), eq(mailMessages.messageId, messageId)));
  return row;
}

/** The encrypted data of the newest cached message of the user's thread, if any. */
export async function newestMessageInThread(
  db: DbOrTx,
  userId: number,
  integrationId: number,
  threadId: string,
): Promise<{ dataEnc: string } | undefined> {
  const [last] = await db
    .select({ dataEnc: mailMessages.dataEnc })
    .from(mailMessages)
    .where(
      and(ofAccount(integrationId), eq(mailMessages.userId, userId), eq(mailMessages.threadId, threadId)),
    )
    .orderBy(desc(mailMessages.receivedAt))
    .limit(1);
  return last;
}

/** The account's message ids cached in these threads. */
export async function messageIdsInThreads(
  db: DbOrTx,
  integrationId: number,
  threadIds: string[],
): Promise<string[]> {
  if (threadIds.length === 0) return [];
  const rows = await db
    .select({ messageId: mailMessages.messageId })
    .from(mailMessages)
    .where(and(ofAccount(integrationId), inArray(mailMessages.threadId, threadIds)));
  return rows.map((r) => r.messageId);
}

/** The digest's rows: those needing a reply first, then the newest, at most `limit`. */
export function digestMessages(db: DbOrTx, integrationId: number, limit: number): Promise<MailMessageRow[]> {
  return db
    .select()
    .from(mailMessages)
    .where(ofAccount(integrationId))
    .orderBy(desc(mailMessages.needsReply), desc(mailMessages.receivedAt))
    .limit(limit);
}

/** How many of the account's messages arrived since `since`, and how many need a reply. */
export async function messageCounts(
  db: DbOrTx,
  integrationId: number,
  since: Date,
): Promise<{ newSinceYesterday: number; needingResponse: number } | undefined> {
  const [counts] = await db
    .select({
      newSinceYesterday: sql<number>`count(*) filter (where ${mailMessages.receivedAt} >= ${since})::int`,
      needingResponse: sql<number>`count(*) filter (where ${mailMessages.needsReply})::int`,
    })
    .from(mailMessages)
    .where(ofAccount(integrationId));
  return counts;
}

/** No message of these threads needs a reply any more (the verdicts are recomputed). */
export async function clearNeedsReply(db: DbOrTx, integrationId: number, threadIds: string[]): Promise<void> {
  await db
    .update(mailMessages)
    .set({ needsReply: false })
    .where(and(ofAccount(integrationId), inArray(mailMessages.threadId, threadIds)));
}

/** These messages of the account need a reply. */
export async function markNeedsReply(db: DbOrTx, integrationId: number, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await db
    .update(mailMessages)
    .set({ needsReply: true })
    .where(and(ofAccount(integrationId), inArray(mailMessages.messageId, messageIds)));
}

/** The user answered the thread: none of its messages needs a reply. */
export async function markThreadAnswered(
  db: DbOrTx,
  userId: number,
  integrationId: number,
  threadId: string,
): Promise<void> {
  await db
    .update(mailMessages)
    .set({ needsReply: false })
    .where(
      and(ofAccount(integrationId), eq(mailMessages.userId, userId), eq(mailMessages.threadId, threadId)),
    );
}

/** Every message of the account but `messageIds` (what a full sync listed) leaves the cache. */
export async function keepOnlyMessages(
  db: DbOrTx,
  integrationId: number,
  messageIds: string[],
): Promise<void> {
  await db
    .delete(mailMessages)
    .where(
      and(
        ofAccount(integrationId),
        messageIds.length ? notInArray(mailMessages.messageId, messageIds) : undefined,
      ),
    );
}

export async function deleteMessages(db: DbOrTx, integrationId: number, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await db
    .delete(mailMessages)
    .where(and(ofAccount(integrationId), inArray(mailMessages.messageId, messageIds)));
}

/** Messages received before `before` leave the cache. */
export async function pruneMessages(db: DbOrTx, integrationId: number, before: Date): Promise<void> {
  await db.delete(mailMessages).where(and(ofAccount(integrationId), lt(mailMessages.receivedAt, before)));
}
