import { assistantContract, type Conversation } from '@haven/contracts/assistant';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { getConversationsQueryKey } from './get-conversations';

/** Opens the review of the week containing `date` (or answers the one already opened). */
export function startWeeklyReview(date: string): Promise<Conversation> {
  return api(assistantContract.weeklyReview, {
    body: { date, timezoneOffset: new Date().getTimezoneOffset() },
  });
}

export function useStartWeeklyReview({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof startWeeklyReview> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: startWeeklyReview,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: getConversationsQueryKey() });
      await onSuccess?.(...args);
    },
  });
}
