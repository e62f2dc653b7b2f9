import { assistantContract } from '@haven/contracts/assistant';
import { assistantPortabilityContract } from '@haven/contracts/portability';
import { implement, reply } from '@haven/kit/http';
import type { RateLimiter, RateRule } from '@haven/kit/rate-limit';
import type { Assistant } from '../domain/assistant';
import type { Portability } from '../domain/portability';

const HOUR = 3600;

/**
 * Per-user limits on what costs storage and model work: generous for a person chatting (a question
 * every 30 seconds for an hour), a 429 'Too many attempts…' for a script or a runaway client.
 */
const LIMITS = {
  conversations: { name: 'conversations', limit: 100, windowSeconds: HOUR },
  messages: { name: 'messages', limit: 600, windowSeconds: HOUR },
  /** Questions the model answers: a query, or a conversation started with its first message. */
  questions: { name: 'questions', limit: 120, windowSeconds: HOUR },
} satisfies Record<string, Omit<RateRule, 'key'>>;

export function assistantRoutes(assistant: Assistant, limiter: RateLimiter) {
  const limit = (userId: number, ...rules: Array<Omit<RateRule, 'key'>>) =>
    limiter.enforce(...rules.map((rule) => ({ ...rule, key: String(userId) })));
  return implement(assistantContract, {
    list: ({ userId }) => assistant.list(userId),
    create: async ({ userId, body }) => {
      await limit(userId, LIMITS.conversations, ...(body.content ? [LIMITS.messages, LIMITS.questions] : []));
      return reply(201, await assistant.create(userId, body));
    },
    get: ({ userId, params }) => assistant.get(userId, params.id),
    remove: ({ userId, params }) => assistant.remove(userId, params.id),
    listMessages: ({ userId, params, query }) => assistant.messages(userId, params.id, query),
    createMessage: async ({ userId, params, body }) => {
      await limit(userId, LIMITS.messages);
      return reply(201, await assistant.addMessage(userId, params.id, body));
    },
    query: async ({ userId, body }) => {
      await limit(userId, LIMITS.questions);
      await assistant.query(userId, body);
      return reply(202, { status: 'accepted' as const });
    },
    weeklyReview: async ({ userId, body }) => {
      const { created, conversation } = await assistant.weeklyReview(userId, body);
      return reply(created ? 201 : 200, conversation);
    },
  });
}

/** The conversations part of the user's export and import (the portability service calls these). */
export function portabilityRoutes(portability: Portability) {
  return implement(assistantPortabilityContract, {
    exportConversations: ({ userId, query }) => portability.exportPage(userId, query),
    importConversations: ({ userId, body }) => portability.importBatch(userId, body.items),
  });
}
