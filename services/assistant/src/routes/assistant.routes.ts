import { assistantContract } from '@haven/contracts/assistant';
import { assistantPortabilityContract } from '@haven/contracts/portability';
import { implement, reply } from '@haven/kit/http';
import type { Assistant } from '../domain/assistant';
import type { Portability } from '../domain/portability';

export function assistantRoutes(assistant: Assistant) {
  return implement(assistantContract, {
    list: ({ userId }) => assistant.list(userId),
    create: async ({ userId, body }) => reply(201, await assistant.create(userId, body)),
    get: ({ userId, params }) => assistant.get(userId, params.id),
    remove: ({ userId, params }) => assistant.remove(userId, params.id),
    listMessages: ({ userId, params, query }) => assistant.messages(userId, params.id, query),
    createMessage: async ({ userId, params, body }) =>
      reply(201, await assistant.addMessage(userId, params.id, body)),
    query: async ({ userId, body }) => {
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
