import { and, asc, eq, inArray, lt, lte, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { excluded } from './excluded';
import { mailFollowUps } from './schema';

// The only code that reads and writes `mail_follow_ups` (threads waiting for an answer).

export type FollowUpRow = typeof mailFollowUps.$inferSelect;
export type FollowUpInsert = typeof mailFollowUps.$inferInsert;

const ofAccount = (integrationId: number) => eq(mailFollowUps.integrationId, integrationId);

/** The rows of these threads of the account. */
export function followUpsInThreads(
  db: DbOrTx,
  integrationId: number,
  threadIds: string[],
): Promise<FollowUpRow[]> {
  return threadIds.length === 0
    ? Promise.resolve([] as FollowUpRow[])
    : db
        .select()
        .from(mailFollowUps)
        .where(and(ofAccount(integrationId), inArray(mailFollowUps.threadId, threadIds)));
}

/** One thread's row, only within the user's own account. */
export async function findFollowUp(
  db: DbOrTx,
  userId: number,
  integrationId: number,
  threadId: string,
): Promise<FollowUpRow | null> {
  const [row] = await db
    .select()
    .from(mailFollowUps)
    .where(
      and(ofAccount(integrationId), eq(mailFollowUps.userId, userId), eq(mailFollowUps.threadId, threadId)),
    );
  return row ?? null;
}

/** Threads where the user last wrote at `before` or earlier, longest waiting first. */
export function followUpsWaitingSince(
  db: DbOrTx,
  integrationId: number,
  before: Date,
  limit: number,
): Promise<FollowUpRow[]> {
  return db
    .select()
    .from(mailFollowUps)
    .where(and(ofAccount(integrationId), lte(mailFollowUps.sentAt, before)))
    .orderBy(asc(mailFollowUps.sentAt))
    .limit(limit);
}

export async function upsertFollowUps(db: DbOrTx, rows: FollowUpInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(mailFollowUps)
    .values(rows)
    .onConflictDoUpdate({
      target: [mailFollowUps.integrationId, mailFollowUps.threadId],
      set: {
        messageId: excluded('message_id'),
        sentAt: excluded('sent_at'),
        dataEnc: excluded('data_enc'),
      },
    });
}

export async function removeFollowUps(db: DbOrTx, integrationId: number, threadIds: string[]): Promise<void> {
  if (threadIds.length === 0) return;
  await db
    .delete(mailFollowUps)
    .where(and(ofAccount(integrationId), inArray(mailFollowUps.threadId, threadIds)));
}

/** Every row of the account but those of `threadIds` (a full sync saw only these). */
export async function keepOnlyFollowUps(
  db: DbOrTx,
  integrationId: number,
  threadIds: string[],
): Promise<void> {
  await db
    .delete(mailFollowUps)
    .where(
      and(
        ofAccount(integrationId),
        threadIds.length ? notInArray(mailFollowUps.threadId, threadIds) : undefined,
      ),
    );
}

/** The user wrote in the thread just now (a nudge sent): its clock starts again. */
export async function restartFollowUp(
  db: DbOrTx,
  userId: number,
  integrationId: number,
  threadId: string,
): Promise<void> {
  await db
    .update(mailFollowUps)
    .set({ sentAt: sql`now()` })
    .where(
      and(ofAccount(integrationId), eq(mailFollowUps.userId, userId), eq(mailFollowUps.threadId, threadId)),
    );
}

export async function pruneFollowUps(db: DbOrTx, integrationId: number, before: Date): Promise<void> {
  await db.delete(mailFollowUps).where(and(ofAccount(integrationId), lt(mailFollowUps.sentAt, before)));
}
