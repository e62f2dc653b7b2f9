import type { JobPayload } from '@haven/contracts/jobs';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { isModelUnavailable, type Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import {
  findReplyTo,
  findUserMessage,
  insertReply,
  listMessages,
  setMessageContent,
  touchConversation,
  unanswered,
  type MessageRow,
} from '../db/conversations.repository';
import type { ConversationStore } from './conversation-store';
import { audioContext, contentContext } from './contexts';
import { openMetadata, sealMetadata } from './message-metadata';
import { writeReply, type ReplyOutput, type ReplySources } from './reply';
import { writeReview } from './review';

/** A user message unanswered for this long is queued again by the reconciler (same job id). */
const UNANSWERED_AFTER_SECONDS = 60;
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

/** The replies to user messages, written by a worker, exactly one per user message. */
export function createReplies(
  deps: { db: Db; uow: UnitOfWork; cipher: FieldCipher; llm: Llm | null; sources: ReplySources; log: Logger },
  store: ConversationStore,
) {
  const { db, uow, cipher, llm, sources, log } = deps;

  /** The question a user message asks: its text, or its recording transcribed (and stored) first. */
  async function questionOf(message: MessageRow): Promise<string> {
    const question = store.text(message);
    if (question || !message.audioEnc || !llm) return question;
    const audio = cipher.decryptBytes(message.audioEnc, audioContext(message.userId));
    const mimeType = message.audioMime ?? 'audio/webm';
    const transcript = await llm.transcribe(audio, {
      filename: `message-${message.id}.${mimeType.split('/')[1] ?? 'webm'}`,
      mimeType,
    });
    await setMessageContent(db, message.id, cipher.encrypt(transcript, contentContext(message.userId)));
    return transcript;
  }

  /** The reply to a user message (transcribed first when it is a recording), not yet stored. */
  async function compose(message: MessageRow): Promise<ReplyOutput> {
    const question = await questionOf(message);
    const history = (await listMessages(db, message.conversationId))
      .filter((m) => m.id <= message.id)
      .slice(-20)
      .map((m) => ({
        role: m.type === 'assistant' ? ('assistant' as const) : ('user' as const),
        content: m.id === message.id ? question : store.text(m),
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

  return {
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
