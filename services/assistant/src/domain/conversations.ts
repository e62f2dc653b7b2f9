import type { Conversation, CreateConversationBody, WeeklyReviewBody } from '@haven/contracts/assistant';
import { titleFromText } from '@haven/contracts/conversation-rules';
import { weekStartOf } from '@haven/contracts/weekly-review';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { notFound } from '@haven/kit/errors';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import {
  deleteConversation,
  findReview,
  insertConversation,
  insertReview,
  latestMessages,
  listConversations,
  listMessages,
} from '../db/conversations.repository';
import { askForReply, CONVERSATION_NOT_FOUND, type ConversationStore } from './conversation-store';
import { titleContext } from './contexts';
import { reviewRequest, reviewTitle } from './review';

/** The user's conversations: listed, opened (a chat, or the review of a week) and deleted. */
export function createConversations(
  { db, uow, cipher }: { db: Db; uow: UnitOfWork; cipher: FieldCipher },
  store: ConversationStore,
) {
  async function get(userId: number, id: number): Promise<Conversation> {
    const row = await store.owned(userId, id);
    return store.presentConversation(row, await listMessages(db, row.id, 3));
  }

  return {
    /**
     * The user's conversations with at least one message, most recently updated first, with what
     * their cards show. An empty one (left by an older client) has nothing to show, so it is not listed.
     */
    async list(userId: number): Promise<Conversation[]> {
      const rows = await listConversations(db, userId);
      const latest = await latestMessages(
        db,
        rows.map((r) => r.id),
        3,
      );
      return rows.map((row) =>
        store.presentConversation(
          row,
          latest.filter((m) => m.conversationId === row.id),
        ),
      );
    },

    get,

    /**
     * Creates a conversation. With `content` (the capture dialog's chat entry), that text is its first
     * user message and the reply is asked for in the same transaction, so the SPA can go straight to it.
     */
    async create(userId: number, body: CreateConversationBody): Promise<Conversation> {
      const name =
        body.content && body.title === 'New Conversation' ? titleFromText(body.content) : body.title;
      const row = await uow.run(async (tx, emit) => {
        const created = await insertConversation(tx, {
          userId,
          titleEnc: cipher.encrypt(name, titleContext(userId)),
        });
        if (body.content) {
          const first = await store.addUserMessage(tx, userId, created.id, {
            content: body.content,
            audioData: body.audioData,
            timezoneOffset: body.timezoneOffset,
          });
          await askForReply(emit, first);
        }
        return created;
      });
      return get(userId, row.id);
    },

    /**
     * Opens the review of the week containing `body.date`: a conversation (one per user and week)
     * whose first message asks for the walk-through, answered by the reply worker like any other.
     * Asking again answers the conversation already opened.
     */
    async weeklyReview(
      userId: number,
      body: WeeklyReviewBody,
    ): Promise<{ created: boolean; conversation: Conversation }> {
      const weekStart = weekStartOf(body.date);
      const existing = await findReview(db, userId, weekStart);
      if (existing) return { created: false, conversation: await get(userId, existing.id) };
      const created = await uow.run(async (tx, emit) => {
        const row = await insertReview(tx, {
          userId,
          titleEnc: cipher.encrypt(reviewTitle(weekStart), titleContext(userId)),
          reviewWeek: weekStart,
        });
        if (!row) return undefined;
        const first = await store.addUserMessage(tx, userId, row.id, {
          content: reviewRequest(weekStart),
          timezoneOffset: body.timezoneOffset,
          metadata: { review: { weekStart } },
        });
        await askForReply(emit, first);
        return row;
      });
      // Opened at the same moment by another request: answer that one.
      const row = created ?? (await findReview(db, userId, weekStart))!;
      return { created: created !== undefined, conversation: await get(userId, row.id) };
    },

    async remove(userId: number, id: number): Promise<{ success: true }> {
      if (!(await deleteConversation(db, userId, id))) throw notFound(CONVERSATION_NOT_FOUND);
      return { success: true };
    },
  };
}
