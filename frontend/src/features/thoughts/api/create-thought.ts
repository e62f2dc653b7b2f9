import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** Saves a thought (encrypted on the server) and answers it. */
export function createThought(body: ApiBody<typeof thoughtsContract.create>): Promise<Thought> {
  return api(thoughtsContract.create, { body });
}

/** Saves a thought, then refreshes every thoughts view. */
export function useCreateThought({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createThought> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: createThought,
    onSuccess: (...args) => {
      // Not awaited: the dialog closes at once while the lists refetch in the background.
      void queryClient.invalidateQueries({ queryKey: thoughtsQueryKey });
      return onSuccess?.(...args);
    },
  });
}
