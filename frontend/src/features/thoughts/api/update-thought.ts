import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

export interface ThoughtUpdate {
  id: number;
  /** Only the fields that changed. */
  changes: ApiBody<typeof thoughtsContract.update>;
}

/** Saves an edit and answers the updated thought. */
export function updateThought({ id, changes }: ThoughtUpdate): Promise<Thought> {
  return api(thoughtsContract.update, { params: { id }, body: changes });
}

/**
 * Saves an edit. The caller's `onSuccess` runs first (its toast, closing the dialog); then every
 * thoughts query (day, month, search, insight references) is refetched, since any may show it.
 */
export function useUpdateThought({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateThought> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: updateThought,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: thoughtsQueryKey });
    },
  });
}
