import type { Ok } from '@haven/contracts/common';
import { thoughtsContract } from '@haven/contracts/thoughts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** Deletes a thought for good; one that is not the user's answers 404. */
export function deleteThought(id: number): Promise<Ok> {
  return api(thoughtsContract.remove, { params: { id } });
}

/** Deletes a thought; after the caller's `onSuccess`, every thoughts query is refetched. */
export function useDeleteThought({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteThought> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: deleteThought,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: thoughtsQueryKey });
    },
  });
}
