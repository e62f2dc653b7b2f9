import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  preferencesContract,
  type PreferencesPatch,
  type UserPreferences,
} from '@haven/contracts/preferences';
import { getPreferencesQueryKey } from '@/features/settings/api/get-preferences';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** The three privacy flags (the switches of Settings → Privacy). */
export type PreferenceFlag = 'askBeforeCalendarEvents' | 'askBeforeEmails' | 'includeThoughtContent';

/** Saves what changed (a flag, or the weekly review day); answers the updated preferences. */
export function updatePreferences(patch: PreferencesPatch): Promise<UserPreferences> {
  return api(preferencesContract.update, { body: patch });
}

/**
 * Changes preferences optimistically: the cache changes at once, goes back on failure (before the
 * caller's `onError`) and is refetched either way once the call settles.
 */
export function useUpdatePreferences({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updatePreferences> } = {}) {
  const queryClient = useQueryClient();
  const queryKey = getPreferencesQueryKey();
  const { onError, onSettled, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: updatePreferences,
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<UserPreferences>(queryKey);
      if (previous) queryClient.setQueryData<UserPreferences>(queryKey, { ...previous, ...patch });
      return { previous };
    },
    onError: (error, variables, context, mutationContext) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
      return onError?.(error, variables, context, mutationContext);
    },
    onSettled: async (...args) => {
      await onSettled?.(...args);
      await queryClient.invalidateQueries({ queryKey });
    },
  });
}
