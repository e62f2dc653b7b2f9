import type {
  AssistantQueryBody,
  CreateMessageBody,
  Message,
  MessagesQuery,
} from '@haven/contracts/assistant';
import type { Db } from '@haven/kit/db';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { listMessages, lockConversation, type ListedMessage } from '../db/conversations.repository';
import { askForReply, type ConversationStore } from './conversation-store';

/**
 * The same question asked again this soon after it, once answered, is the same ask (a double click
 * that reached the server after a quick reply), not a new question.
 */
const REPEATED_QUESTION_MS = 30_000;

/**
 * Whether the question was asked again (a double click) after its reply was already written: the
 * latest message is the reply to the one before it, which is this question, asked moments ago.
 */
function answeredAlready(
  latest: ListedMessage | undefined,
  before: ListedMessage | undefined,
  isQuestion: (m: ListedMessage | undefined) => boolean,
): boolean {
  return (
    latest?.type === 'assistant' &&
    before !== undefined &&
    isQuestion(before) &&
    latest.replyTo === before.id &&
    Date.now() - Date.parse(before.createdAt) < REPEATED_QUESTION_MS
  );
}

/** The messages of a user's conversation: read, written, and their replies asked for. */
export function createUserMessages({ db, uow }: { db: Db; uow: UnitOfWork }, store: ConversationStore) {
  return {
    async messages(userId: number, id: number, query: MessagesQuery): Promise<Message[]> {
      const row = await store.owned(userId, id);
      return (await listMessages(db, row.id, query.limit)).map(store.presentMessage);
    },

    /** Stores the user's message; the reply is asked for by `query` (spec: store, then query). */
    async addMessage(userId: number, id: number, body: CreateMessageBody): Promise<Message> {
      const row = await store.owned(userId, id);
      const message = await uow.run((tx) => store.addUserMessage(tx, userId, row.id, body));
      return store.presentMessage(message);
    },

    /**
     * Asks for a reply to the conversation's latest user message, through the outbox; its job id is
     * the message's, so asking twice is one reply. When the latest message is not this question
     * (the SPA asked without storing it), the question is stored first.
     */
    async query(userId: number, body: AssistantQueryBody): Promise<void> {
      const row = await store.owned(userId, body.conversationId);
      await uow.run(async (tx, emit) => {
        await lockConversation(tx, row.id);
        const recent = await listMessages(tx, row.id, 2);
        const [latest, before] = [recent.at(-1), recent.at(-2)];
        const isQuestion = (m: ListedMessage | undefined): boolean =>
          m?.type === 'user' && store.text(m).trim() === body.query.trim();
        if (latest && isQuestion(latest)) return askForReply(emit, latest);
        if (answeredAlready(latest, before, isQuestion)) return;
        const question = await store.addUserMessage(tx, userId, row.id, {
          content: body.query,
          timezoneOffset: body.timezoneOffset,
        });
        await askForReply(emit, question);
      });
    },
  };
}
