import { audioDataParts } from '@haven/contracts/common';
import type { Conversation, Message } from '@haven/contracts/assistant';
import { mentionsEmail } from '@haven/contracts/conversation-rules';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db, Tx } from '@haven/kit/db';
import { notFound } from '@haven/kit/errors';
import type { Emit } from '@haven/kit/unit-of-work';
import {
  findConversation,
  insertMessage,
  touchConversation,
  type ConversationRow,
  type ListedMessage,
  type MessageRow,
} from '../db/conversations.repository';
import { audioContext, contentContext, titleContext } from './contexts';
import { openMetadata, sealMetadata } from './message-metadata';

/*
 * What the parts of the assistant domain (conversations, the user's messages, replies) share: the
 * decryption of what they read, the presenters, the ownership check, the writing of a user message
 * and the ask for its reply.
 */

export const CONVERSATION_NOT_FOUND = 'Conversation not found';

/** A user message as it is written: its text, and a recording, local time or metadata when it has them. */
export interface UserMessageBody {
  content: string;
  audioData?: string | null;
  timezoneOffset?: number;
  metadata?: Record<string, unknown>;
}

/** Asks, through the outbox, for the reply to a user message (its job id is the message's). */
export const askForReply = (emit: Emit, message: Pick<ListedMessage, 'userId' | 'conversationId' | 'id'>) =>
  emit('assistant.reply', {
    userId: message.userId,
    conversationId: message.conversationId,
    messageId: message.id,
  });

export function createConversationStore({ db, cipher }: { db: Db; cipher: FieldCipher }) {
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
    body: UserMessageBody,
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

  return { text, presentConversation, presentMessage, owned, addUserMessage };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
