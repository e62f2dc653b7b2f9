import { assistantContract, type Message } from '@haven/contracts/assistant';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { getConversationsQueryKey } from './get-conversations';
import { getMessagesQueryKey } from './get-messages';

export interface OutgoingMessage {
  conversationId: number;
  content: string;
  audioData?: string;
}

/** Spec 4: the user message is stored, then the assistant is queried; the reply arrives by polling. */
export async function sendMessage({ conversationId, content, audioData }: OutgoingMessage): Promise<Message> {
  const timezoneOffset = new Date().getTimezoneOffset();
  const message = await api(assistantContract.createMessage, {
    params: { id: conversationId },
    body: { content, type: 'user', audioData, timezoneOffset },
  });
  await api(assistantContract.query, { body: { query: content, conversationId, timezoneOffset } });
  return message;
}

export function useSendMessage({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof sendMessage> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: sendMessage,
    onSuccess: async (...args) => {
      const [, { conversationId }] = args;
      await queryClient.invalidateQueries({ queryKey: getMessagesQueryKey(conversationId) });
      void queryClient.invalidateQueries({ queryKey: getConversationsQueryKey() });
      await onSuccess?.(...args);
    },
  });
}
