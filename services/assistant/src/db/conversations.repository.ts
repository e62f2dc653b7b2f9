import { and, asc, desc, eq, exists, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@haven/kit/db';
import { conversations, messages } from './schema';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

// Every query is scoped to its owner: another user's id simply finds nothing.

/** The user's conversations that have a message; an empty one has nothing to list. */
export function listConversations(db: DbOrTx, userId: number): Promise<ConversationRow[]> {
  return db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.userId, userId),
        exists(
          db
            .select({ one: sql`1` })
            .from(messages)
            .where(eq(messages.conversationId, conversations.id)),
        ),
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.id));
}

export async function findConversation(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.id, id)));
  return row;
}

export async function insertConversation(
  db: DbOrTx,
  values: { userId: number; titleEnc: string },
): Promise<ConversationRow> {
  const [row] = await db.insert(conversations).values(values).returning();
  return row!;
}

/** The user's review of the week starting `weekStart`, if one was opened. */
export async function findReview(
  db: DbOrTx,
  userId: number,
  weekStart: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.reviewWeek, weekStart)));
  return row;
}

/** Opens the review of a week: undefined when it already exists (one per user and week). */
export async function insertReview(
  db: DbOrTx,
  values: { userId: number; titleEnc: string; reviewWeek: string },
): Promise<ConversationRow | undefined> {
  const [row] = await db.insert(conversations).values(values).onConflictDoNothing().returning();
  return row;
}

/** Deletes the conversation; its messages go with it (foreign key cascade). */
export async function deleteConversation(db: DbOrTx, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.id, id)))
    .returning({ id: conversations.id });
  return rows.length === 1;
}

/** Moves the conversation up the list, and records tools a reply used. */
export async function touchConversation(
  db: DbOrTx,
  id: number,
  used: { email?: boolean; calendar?: boolean } = {},
): Promise<void> {
  await db
    .update(conversations)
    .set({
      updatedAt: sql`now()`,
      ...(used.email ? { emailUsed: true } : {}),
      ...(used.calendar ? { calendarUsed: true } : {}),
    })
    .where(eq(conversations.id, id));
}

/** The latest `limit` messages of each of these conversations, oldest first within each. */
export async function latestMessages(
  db: DbOrTx,
  conversationIds: number[],
  limit: number,
): Promise<ListedMessage[]> {
  if (conversationIds.length === 0) return [];
  const ranked = db
    .select({
      id: messages.id,
      rank: sql<number>`row_number() over (partition by ${messages.conversationId} order by ${messages.id} desc)`.as(
        'rank',
      ),
    })
    .from(messages)
    .where(inArray(messages.conversationId, conversationIds))
    .as('ranked');
  return db
    .select({ message: listColumns })
    .from(messages)
    .innerJoin(ranked, eq(ranked.id, messages.id))
    .where(sql`${ranked.rank} <= ${limit}`)
    .orderBy(asc(messages.conversationId), asc(messages.id))
    .then((rows) => rows.map((r) => r.message));
}

/** A message as lists read it: everything but its audio, which can be megabytes. */
const listColumns = {
  id: messages.id,
  conversationId: messages.conversationId,
  userId: messages.userId,
  type: messages.type,
  contentEnc: messages.contentEnc,
  metadataEnc: messages.metadataEnc,
  legacyMetadata: messages.legacyMetadata,
  timezoneOffset: messages.timezoneOffset,
  replyTo: messages.replyTo,
  // Formatted by Postgres as the API's ISO string: for a long conversation, parsing hundreds of
  // timestamps into Date objects only to print them again costs more than reading them.
  createdAt: sql<string>`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};
export type ListedMessage = Omit<MessageRow, 'audioEnc' | 'audioMime' | 'createdAt'> & { createdAt: string };

/**
 * Holds the conversation until the transaction ends: two asks of the same conversation at once (a
 * double click, two tabs, two gateway replicas) take turns, so the second sees what the first wrote.
 */
export async function lockConversation(tx: DbOrTx, conversationId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('assistant.conversation'), ${conversationId})`);
}

/** A conversation's messages, oldest first: all of them, or the latest `limit`. */
export async function listMessages(
  db: DbOrTx,
  conversationId: number,
  limit?: number,
): Promise<ListedMessage[]> {
  const query = db.select(listColumns).from(messages).where(eq(messages.conversationId, conversationId));
  if (limit === undefined) return query.orderBy(asc(messages.id));
  return (await query.orderBy(desc(messages.id)).limit(limit)).reverse();
}

export async function insertMessage(db: DbOrTx, values: NewMessage): Promise<MessageRow> {
  const [row] = await db.insert(messages).values(values).returning();
  return row!;
}

/**
 * Writes an assistant reply unless the message already has one (the unique `reply_to`): the one
 * place that makes "exactly one reply per user message" hold, whatever runs twice. Null when one
 * was already there.
 */
export async function insertReply(
  db: DbOrTx,
  values: NewMessage & { replyTo: number },
): Promise<MessageRow | null> {
  const [row] = await db
    .insert(messages)
    .values(values)
    .onConflictDoNothing({ target: messages.replyTo })
    .returning();
  return row ?? null;
}

export async function findUserMessage(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.id, id), eq(messages.type, 'user')));
  return row;
}

export async function findReplyTo(db: DbOrTx, messageId: number): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.replyTo, messageId));
  return row;
}

export async function setMessageContent(db: DbOrTx, id: number, contentEnc: string): Promise<void> {
  await db.update(messages).set({ contentEnc }).where(eq(messages.id, id));
}

/** User messages older than `seconds` (and younger than a day) with no reply: their job may be lost. */
export async function unanswered(db: DbOrTx, seconds: number, limit = 100): Promise<MessageRow[]> {
  const reply = alias(messages, 'reply');
  return db
    .select({ message: messages })
    .from(messages)
    .leftJoin(reply, eq(reply.replyTo, messages.id))
    .where(
      and(
        eq(messages.type, 'user'),
        isNull(reply.id),
        lt(messages.createdAt, sql`now() - make_interval(secs => ${seconds})`),
        gt(messages.createdAt, sql`now() - interval '1 day'`),
      ),
    )
    .limit(limit)
    .then((rows) => rows.map((r) => r.message));
}

/** A message whose metadata is still stored in plaintext (see `sealStoredMetadata`). */
export type UnsealedMetadataRow = Pick<MessageRow, 'id' | 'userId' | 'legacyMetadata'>;

/** Messages after `afterId` with plaintext metadata, oldest first. */
export function metadataToSeal(db: DbOrTx, afterId: number, limit: number): Promise<UnsealedMetadataRow[]> {
  return db
    .select({ id: messages.id, userId: messages.userId, legacyMetadata: messages.legacyMetadata })
    .from(messages)
    .where(and(gt(messages.id, afterId), isNotNull(messages.legacyMetadata)))
    .orderBy(asc(messages.id))
    .limit(limit);
}

/** Replaces a message's plaintext metadata by its encrypted form; false when it was sealed meanwhile. */
export async function sealMessageMetadata(db: DbOrTx, id: number, metadataEnc: string): Promise<boolean> {
  const updated = await db
    .update(messages)
    .set({ metadataEnc, legacyMetadata: null })
    .where(and(eq(messages.id, id), isNotNull(messages.legacyMetadata)))
    .returning({ id: messages.id });
  return updated.length > 0;
}
