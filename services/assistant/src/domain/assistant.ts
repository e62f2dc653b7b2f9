import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { createConversationStore } from './conversation-store';
import { createConversations } from './conversations';
import { titleContext, contentContext, audioContext } from './contexts';
import { createReplies } from './replies';
import type { ReplySources } from './reply';
import { createUserMessages } from './user-messages';
export { titleContext, contentContext, audioContext };
export { ASSISTANT_UNAVAILABLE, REPLY_FAILED } from './replies';

/** What the assistant domain is built from, once, by the composition root. */
export interface AssistantDeps {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  llm: Llm | null;
  sources: ReplySources;
  log: Logger;
}

/**
 * The assistant domain: conversations and their messages, every flow scoped to the acting user (an
 * id of another user is not found), and replies written by a worker, exactly one per user message.
 * Each part owns one concern; they share the store's presenters and ownership check.
 */
export function createAssistant(deps: AssistantDeps) {
  const store = createConversationStore(deps);
  return {
    ...createConversations(deps, store),
    ...createUserMessages(deps, store),
    ...createReplies(deps, store),
  };
}
export type Assistant = ReturnType<typeof createAssistant>;
