import { assistantContract, type Conversation } from '@haven/contracts/assistant';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { getConversationsQueryKey } from './get-conversations';

/** Starts a conversation; with `content`, that text is its first message and the reply is asked for. */
export function createConversation(body: ApiBody<typeof assistantContract.create>): Promise<Conversation> {
  return api(assistantContract.create, { body });
}

export function useCreateConversation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createConversation> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: createConversation,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: getConversationsQueryKey() });
      await onSuccess?.(...args);
    },
  });
}
