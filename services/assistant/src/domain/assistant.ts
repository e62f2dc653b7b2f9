import { audioDataParts } from '@haven/contracts/common';
import type {
  AssistantQueryBody,
  Conversation,
  CreateConversationBody,
  CreateMessageBody,
  Message,
  MessagesQuery,
  WeeklyReviewBody,
} from '@haven/contracts/assistant';
import { mentionsEmail, titleFromText } from '@haven/contracts/conversation-rules';
import type { JobPayload } from '@haven/contracts/jobs';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { notFound } from '@haven/kit/errors';
import { isModelUnavailable, type Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { Emit, UnitOfWork } from '@haven/kit/unit-of-work';
import type { Tx } from '@haven/kit/db';
import {
  deleteConversation,
  findConversation,
  findReplyTo,
  findReview,
  findUserMessage,
  insertConversation,
  insertMessage,
  insertReply,
  insertReview,
  latestMessages,
  listConversations,
  listMessages,
  lockConversation,
  setMessageContent,
  touchConversation,
  unanswered,
  type ConversationRow,
  type ListedMessage,
  type MessageRow,
} from '../db/conversations.repository';
import { openMetadata, sealMetadata } from './message-metadata';
import { writeReply, type ReplyOutput, type ReplySources } from './reply';
import { weekStartOf } from '@haven/contracts/weekly-review';
import { reviewRequest, reviewTitle, writeReview } from './review';
import { titleContext, contentContext, audioContext } from './contexts';
export { titleContext, contentContext, audioContext };

/** What the assistant domain is built from, once, by the composition root. */
export interface AssistantDeps {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  llm: Llm | null;
  sources: ReplySources;
  log: Logger;
}

const CONVERSATION_NOT_FOUND = 'Conversation not found';
/** A user message unanswered for this long is queued again by the reconciler (same job id). */
const UNANSWERED_AFTER_SECONDS = 60;
/**
 * The same question asked again this soon after it, once answered, is the same ask (a double click
 * that reached the server after a quick reply), not a new question.
 */
const REPEATED_QUESTION_MS = 30_000;
/** What the user sees when every attempt at a reply failed, so the SPA stops waiting. */
export const REPLY_FAILED = "Sorry, I couldn't write a reply this time. Please send your message again.";
/**
 * What the user sees, in seconds, when the model server is down or hanging: retrying for minutes
 * would only keep them waiting. Their next question is answered once it is back.
 */
export const ASSISTANT_UNAVAILABLE =
  'Sorry, the assistant is not answering right now. Please send your message again in a minute.';

/** The week a review request asks about (the Monday), from its message's metadata. */
function reviewOf(metadata: Record<string, unknown> | null): string | null {
  const review = metadata?.review as { weekStart?: unknown } | undefined;
  return typeof review?.weekStart === 'string' ? review.weekStart : null;
}

/** Encryption contexts: a value only decrypts as what it is, for its own owner. */

/**
 * The assistant domain: conversations and their messages, every flow scoped to the acting user (an
 * id of another user is not found), and replies written by a worker, exactly one per user message.
 */
export function createAssistant({ db, uow, cipher, llm, sources, log }: AssistantDeps) {
  const text = (row: Pick<ListedMessage, 'contentEnc' | 'userId'>) =>
    cipher.decrypt(row.contentEnc, contentContext(row.userId));
  const title = (row: ConversationRow) => cipher.decrypt(row.titleEnc, titleContext(row.userId));

  function presentConversation(row: ConversationRow, latest: ListedMessage[]): Conversation {
    const name = title(row);
    return {
      id: row.id,
      title: name,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      emailUsed: row.emailUsed || mentionsEmail([name, ...latest.map(text)]),
      // Only a reply that read the user's calendar sets it (never a word like 'meeting').
      calendarUsed: row.calendarUsed,
    };
  }

  function presentMessage(row: ListedMessage | MessageRow): Message {
    const metadata = openMetadata(cipher, row);
    return {
      id: row.id,
      conversationId: row.conversationId,
      type: row.type === 'assistant' ? 'assistant' : 'user',
      content: text(row),
      createdAt: typeof row.createdAt === 'string' ? row.createdAt : row.createdAt.toISOString(),
      ...(metadata ? { metadata } : {}),
    };
  }

  async function owned(userId: number, id: number): Promise<ConversationRow> {
    const row = await findConversation(db, userId, id);
    if (!row) throw notFound(CONVERSATION_NOT_FOUND);
    return row;
  }

  async function addUserMessage(
    tx: Tx,
    userId: number,
    conversationId: number,
    body: {
      content: string;
      audioData?: string | null;
      timezoneOffset?: number;
      metadata?: Record<string, unknown>;
    },
  ): Promise<MessageRow> {
    const audio = body.audioData ? audioDataParts(body.audioData) : undefined;
    const row = await insertMessage(tx, {
      conversationId,
      userId,
      type: 'user',
      contentEnc: cipher.encrypt(body.content, contentContext(userId)),
      audioEnc: audio ? cipher.encryptBytes(Buffer.from(audio.base64, 'base64'), audioContext(userId)) : null,
      audioMime: audio ? (audio.mimeType ?? 'audio/webm') : null,
      timezoneOffset: body.timezoneOffset ?? null,
      ...sealMetadata(cipher, userId, body.metadata),
    });
    await touchConversation(tx, conversationId);
    return row;
  }

  /** The reply to a user message (transcribed first when it is a recording), not yet stored. */
  async function compose(message: MessageRow): Promise<ReplyOutput> {
    let question = text(message);
    if (!question && message.audioEnc && llm) {
      const audio = cipher.decryptBytes(message.audioEnc, audioContext(message.userId));
      const mimeType = message.audioMime ?? 'audio/webm';
      question = await llm.transcribe(audio, {
        filename: `message-${message.id}.${mimeType.split('/')[1] ?? 'webm'}`,
        mimeType,
      });
      await setMessageContent(db, message.id, cipher.encrypt(question, contentContext(message.userId)));
    }
    const history = (await listMessages(db, message.conversationId))
      .filter((m) => m.id <= message.id)
      .slice(-20)
      .map((m) => ({
        role: m.type === 'assistant' ? ('assistant' as const) : ('user' as const),
        content: m.id === message.id ? question : text(m),
      }));
    const review = reviewOf(openMetadata(cipher, message));
    const timezoneOffset = message.timezoneOffset ?? 0;
    return review
      ? writeReview({ llm, sources }, { userId: message.userId, weekStart: review, timezoneOffset })
      : writeReply({ llm, sources, log }, { userId: message.userId, question, history, timezoneOffset });
  }

  /** Writes the reply to `message`, unless it has one (see `insertReply`). */
  async function storeReply(message: MessageRow, reply: ReplyOutput): Promise<void> {
    await uow.run(async (tx) => {
      const written = await insertReply(tx, {
        conversationId: message.conversationId,
        userId: message.userId,
        type: 'assistant',
        contentEnc: cipher.encrypt(reply.content, contentContext(message.userId)),
        ...sealMetadata(cipher, message.userId, reply.metadata),
        replyTo: message.id,
      });
      if (written) await touchConversation(tx, message.conversationId, reply.used);
    });
  }

  const askForReply = (emit: Emit, message: Pick<ListedMessage, 'userId' | 'conversationId' | 'id'>) =>
    emit('assistant.reply', {
      userId: message.userId,
      conversationId: message.conversationId,
      messageId: message.id,
    });

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
        presentConversation(
          row,
          latest.filter((m) => m.conversationId === row.id),
        ),
      );
    },

    async get(userId: number, id: number): Promise<Conversation> {
      const row = await owned(userId, id);
      return presentConversation(row, await listMessages(db, row.id, 3));
    },

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
          const first = await addUserMessage(tx, userId, created.id, {
            content: body.content,
            audioData: body.audioData,
            timezoneOffset: body.timezoneOffset,
          });
          await askForReply(emit, first);
        }
        return created;
      });
      return this.get(userId, row.id);
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
      if (existing) return { created: false, conversation: await this.get(userId, existing.id) };
      const created = await uow.run(async (tx, emit) => {
        const row = await insertReview(tx, {
          userId,
          titleEnc: cipher.encrypt(reviewTitle(weekStart), titleContext(userId)),
          reviewWeek: weekStart,
        });
        if (!row) return undefined;
        const first = await addUserMessage(tx, userId, row.id, {
          content: reviewRequest(weekStart),
          timezoneOffset: body.timezoneOffset,
          metadata: { review: { weekStart } },
        });
        await askForReply(emit, first);
        return row;
      });
      // Opened at the same moment by another request: answer that one.
      const row = created ?? (await findReview(db, userId, weekStart))!;
      return { created: created !== undefined, conversation: await this.get(userId, row.id) };
    },

    async remove(userId: number, id: number): Promise<{ success: true }> {
      if (!(await deleteConversation(db, userId, id))) throw notFound(CONVERSATION_NOT_FOUND);
      return { success: true };
    },

    async messages(userId: number, id: number, query: MessagesQuery): Promise<Message[]> {
      const row = await owned(userId, id);
      return (await listMessages(db, row.id, query.limit)).map(presentMessage);
    },

    /** Stores the user's message; the reply is asked for by `query` (spec: store, then query). */
    async addMessage(userId: number, id: number, body: CreateMessageBody): Promise<Message> {
      const row = await owned(userId, id);
      const message = await uow.run((tx) => addUserMessage(tx, userId, row.id, body));
      return presentMessage(message);
    },

    /**
     * Asks for a reply to the conversation's latest user message, through the outbox; its job id is
     * the message's, so asking twice is one reply. When the latest message is not this question
     * (the SPA asked without storing it), the question is stored first.
     */
    async query(userId: number, body: AssistantQueryBody): Promise<void> {
      const row = await owned(userId, body.conversationId);
      await uow.run(async (tx, emit) => {
        await lockConversation(tx, row.id);
        const recent = await listMessages(tx, row.id, 2);
        const [latest, before] = [recent.at(-1), recent.at(-2)];
        const isQuestion = (m: ListedMessage | undefined): boolean =>
          m?.type === 'user' && text(m).trim() === body.query.trim();
        if (latest && isQuestion(latest)) return askForReply(emit, latest);
        // Asked again (a double click) after its reply was already written: that reply is the answer.
        if (
          latest?.type === 'assistant' &&
          before &&
          isQuestion(before) &&
          latest.replyTo === before.id &&
          Date.now() - Date.parse(before.createdAt) < REPEATED_QUESTION_MS
        )
          return;
        const question = await addUserMessage(tx, userId, row.id, {
          content: body.query,
          timezoneOffset: body.timezoneOffset,
        });
        await askForReply(emit, question);
      });
    },

    /**
     * The worker's part: writes the reply to one user message. Idempotent and exactly once: a message
     * gone or already answered is skipped, and the reply is inserted under a unique key on the
     * message it answers, so a second run (a retry, a replay, a worker killed mid-way) adds nothing.
     */
    async reply(job: JobPayload<'assistant.reply'>): Promise<void> {
      const message = await findUserMessage(db, job.userId, job.messageId);
      if (!message || (await findReplyTo(db, message.id))) return;
      let reply: ReplyOutput;
      try {
        reply = await compose(message);
      } catch (err) {
        if (!isModelUnavailable(err)) throw err;
        log.warn({ err }, 'the model server is not answering; the reply says so');
        reply = { content: ASSISTANT_UNAVAILABLE, metadata: { failed: true, unavailable: true }, used: {} };
      }
      await storeReply(message, reply);
    },

    /** Every attempt failed: a reply saying so, once, so the SPA stops waiting. */
    async replyFailed(job: JobPayload<'assistant.reply'>): Promise<void> {
      const message = await findUserMessage(db, job.userId, job.messageId);
      if (!message) return;
      await storeReply(message, { content: REPLY_FAILED, metadata: { failed: true }, used: {} });
    },

    /** User messages still unanswered after a minute (the reconciler queues them again). */
    async unanswered(): Promise<Array<JobPayload<'assistant.reply'>>> {
      return (await unanswered(db, UNANSWERED_AFTER_SECONDS)).map((m) => ({
        userId: m.userId,
        conversationId: m.conversationId,
        messageId: m.id,
      }));
    },
  };
}
export type Assistant = ReturnType<typeof createAssistant>;
