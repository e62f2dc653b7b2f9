import { and, asc, eq, inArray, lt, lte, notInArray, sql } from 'drizzle-orm';
import type { Db } from '@haven/kit/db';
import { excluded } from './excluded';
import { mailFollowUps } from './schema';

export type FollowUpRow = typeof mailFollowUps.$inferSelect;
export type FollowUpInsert = typeof mailFollowUps.$inferInsert;

/** The only code that reads and writes `mail_follow_ups` (threads waiting for an answer). */
export function followUpsRepository(db: Db) {
  const ofAccount = (integrationId: number) => eq(mailFollowUps.integrationId, integrationId);
  return {
    /** The rows of these threads of the account. */
    inThreads: (integrationId: number, threadIds: string[]) =>
      threadIds.length === 0
        ? Promise.resolve([] as FollowUpRow[])
        : db
            .select()
            .from(mailFollowUps)
            .where(and(ofAccount(integrationId), inArray(mailFollowUps.threadId, threadIds))),

    /** One thread's row, only within the user's own account. */
    async ofThread(userId: number, integrationId: number, threadId: string): Promise<FollowUpRow | null> {
      const [row] = await db
        .select()
        .from(mailFollowUps)
        .where(
          and(
            ofAccount(integrationId),
            eq(mailFollowUps.userId, userId),
            eq(mailFollowUps.threadId, threadId),
          ),
        );
      return row ?? null;
    },

    /** Threads where the user last wrote at `before` or earlier, longest waiting first. */
    waitingSince: (integrationId: number, before: Date, limit: number) =>
      db
        .select()
        .from(mailFollowUps)
        .where(and(ofAccount(integrationId), lte(mailFollowUps.sentAt, before)))
        .orderBy(asc(mailFollowUps.sentAt))
        .limit(limit),

    async upsert(rows: FollowUpInsert[]): Promise<void> {
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
    },

    async removeThreads(integrationId: number, threadIds: string[]): Promise<void> {
      if (threadIds.length === 0) return;
      await db
        .delete(mailFollowUps)
        .where(and(ofAccount(integrationId), inArray(mailFollowUps.threadId, threadIds)));
    },

    /** Every row of the account but those of `threadIds` (a full sync saw only these). */
    async keepOnly(integrationId: number, threadIds: string[]): Promise<void> {
      await db
        .delete(mailFollowUps)
        .where(
          and(
            ofAccount(integrationId),
            threadIds.length ? notInArray(mailFollowUps.threadId, threadIds) : undefined,
          ),
        );
    },

    /** The user wrote in the thread just now (a nudge sent): its clock starts again. */
    async restart(userId: number, integrationId: number, threadId: string): Promise<void> {
      await db
        .update(mailFollowUps)
        .set({ sentAt: sql`now()` })
        .where(
          and(
            ofAccount(integrationId),
            eq(mailFollowUps.userId, userId),
            eq(mailFollowUps.threadId, threadId),
          ),
        );
    },

    async prune(integrationId: number, before: Date): Promise<void> {
      await db.delete(mailFollowUps).where(and(ofAccount(integrationId), lt(mailFollowUps.sentAt, before)));
    },
  };
}
export type FollowUpsRepository = ReturnType<typeof followUpsRepository>;
