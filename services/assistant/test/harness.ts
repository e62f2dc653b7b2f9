import type { Conversation, Message } from '@haven/contracts/assistant';
import type { Thought } from '@haven/contracts/thoughts';
import { startTestServices } from '@haven/kit/testing';
import { authService } from '@haven/auth/service';
import { thoughtsService } from '@haven/thoughts/service';
import { assistantService } from '../src/service';

/** Auth (preferences), thoughts and the assistant, as replies need them. */
export async function startAssistantStack(overrides: Record<string, string | undefined> = {}) {
  const stack = await startTestServices([authService, thoughtsService, assistantService], overrides);

  const { call } = stack;

  function as(userId: number) {
    const user = {
      userId,
      async write(
        content: string,
        clientDate: string,
        timezoneOffset = 0,
        tags: string[] = [],
      ): Promise<Thought> {
        const res = await call('thoughts', userId, 'POST', '/api/thoughts', {
          content,
          category: 'personal',
          isVoice: false,
          clientDate,
          timezoneOffset,
          tags,
        });
        if (res.status !== 201)
          throw new Error(`thought not saved: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body as Thought;
      },
      list: () => call('assistant', userId, 'GET', '/api/conversations'),
      create: (body: Record<string, unknown>) =>
        call('assistant', userId, 'POST', '/api/conversations', body),
      get: (id: number) => call('assistant', userId, 'GET', `/api/conversations/${id}`),
      remove: (id: number) => call('assistant', userId, 'DELETE', `/api/conversations/${id}`),
      messages: (id: number, limit?: number) =>
        call(
          'assistant',
          userId,
          'GET',
          `/api/conversations/${id}/messages${limit !== undefined ? `?limit=${limit}` : ''}`,
        ),
      post: (id: number, content: string, extra: Record<string, unknown> = {}) =>
        call('assistant', userId, 'POST', `/api/conversations/${id}/messages`, {
          content,
          type: 'user',
          ...extra,
        }),
      query: (conversationId: number, query: string, timezoneOffset?: number) =>
        call('assistant', userId, 'POST', '/api/assistant/query', { query, conversationId, timezoneOffset }),
      preferences: (patch: Record<string, boolean>) =>
        call('auth', userId, 'PATCH', '/api/user-preferences', patch),
      /** Sends as the SPA does (store, then query) and polls every 50 ms until the reply is there. */
      async ask(conversationId: number, content: string, timezoneOffset = 0): Promise<Message> {
        const posted = await user.post(conversationId, content, { timezoneOffset });
        if (posted.status !== 201) throw new Error(`message not stored: ${posted.status}`);
        await user.query(conversationId, content, timezoneOffset);
        return user.replyTo((posted.body as Message).id, conversationId);
      },
      async replyTo(messageId: number, conversationId: number): Promise<Message> {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const list = (await user.messages(conversationId)).body as Message[];
          const index = list.findIndex((m) => m.id === messageId);
          const next = list[index + 1];
          if (next?.type === 'assistant') return next;
          if (Date.now() > deadline) throw new Error('no reply in time');
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async conversation(title = 'New Conversation'): Promise<Conversation> {
        return (await user.create({ title })).body as Conversation;
      },
    };
    return user;
  }

  return { ...stack, as };
}
