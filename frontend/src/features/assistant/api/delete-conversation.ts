import { assistantContract } from '@haven/contracts/assistant';
import type { Ok } from '@haven/contracts/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { getConversationsQueryKey } from './get-conversations';

/** Deletes a conversation (its messages go with it). */
export function deleteConversation(id: number): Promise<Ok> {
  return api(assistantContract.remove, { params: { id } });
}

export function useDeleteConversation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteConversation> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: deleteConversation,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: getConversationsQueryKey() });
      await onSuccess?.(...args);
    },
  });
}
