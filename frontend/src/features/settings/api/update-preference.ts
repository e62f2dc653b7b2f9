import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  preferencesContract,
  type PreferencesPatch,
  type UserPreferences,
} from '@haven/contracts/preferences';
import { getPreferencesQueryKey } from '@/features/settings/api/get-preferences';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

export type PreferenceFlag = keyof PreferencesPatch;

export interface PreferenceChange {
  flag: PreferenceFlag;
  value: boolean;
}

/** Saves the one flag that changed; answers the updated preferences. */
export function updatePreference({ flag, value }: PreferenceChange): Promise<UserPreferences> {
  return api(preferencesContract.update, { body: { [flag]: value } });
}

/**
 * Flips one flag optimistically: the cache changes at once, goes back on failure (before the
 * caller's `onError`) and is refetched either way once the call settles.
 */
export function useUpdatePreference({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updatePreference> } = {}) {
  const queryClient = useQueryClient();
  const queryKey = getPreferencesQueryKey();
  const { onError, onSettled, ...restConfig } = mutationConfig ?? {};
  return useMutation({
    ...restConfig,
    mutationFn: updatePreference,
    onMutate: async ({ flag, value }) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<UserPreferences>(queryKey);
      if (previous) queryClient.setQueryData<UserPreferences>(queryKey, { ...previous, [flag]: value });
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
