import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { PreferencesPatch, UserPreferences } from '@haven/contracts/preferences';
import { preferenceKeys } from '@/features/settings/api/get-preferences';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

export type PreferenceFlag = keyof PreferencesPatch;

/** PATCH /api/user-preferences with the one flag that changed; answers the updated object. */
export function updatePreferences(patch: PreferencesPatch): Promise<UserPreferences> {
  return apiFetch<UserPreferences>('/api/user-preferences', { method: 'PATCH', body: patch });
}

/** Spec 8 feedback after a flag was saved; the 'off' answer of a confirmation is destructive-styled. */
function feedback(flag: PreferenceFlag, enabled: boolean) {
  if (flag === 'includeThoughtContent') {
    return enabled
      ? { title: 'Content sharing enabled', description: 'Your thoughts can now shape suggestions.' }
      : { title: 'Content sharing disabled', description: 'Suggestions will no longer use your thoughts.' };
  }
  const what = flag === 'askBeforeEmails' ? 'sending emails' : 'creating calendar events';
  return enabled
    ? { title: 'Confirmation enabled', description: `Haven will ask before ${what}.` }
    : {
        title: 'Confirmation disabled',
        description: `Haven will no longer ask before ${what}.`,
        variant: 'destructive' as const,
      };
}

/**
 * Flips one flag optimistically: the cache changes at once, goes back on failure (with the
 * 'Failed to update settings' toast) and is refetched either way once the call settles.
 */
export function useUpdatePreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flag, value }: { flag: PreferenceFlag; value: boolean }) =>
      updatePreferences({ [flag]: value }),
    onMutate: async ({ flag, value }) => {
      await queryClient.cancelQueries({ queryKey: preferenceKeys.all });
      const previous = queryClient.getQueryData<UserPreferences>(preferenceKeys.all);
      if (previous)
        queryClient.setQueryData<UserPreferences>(preferenceKeys.all, { ...previous, [flag]: value });
      return { previous };
    },
    onError: (error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(preferenceKeys.all, context.previous);
      toast({
        title: 'Failed to update settings',
        description: getErrorMessage(error, 'Failed to update preferences'),
        variant: 'destructive',
      });
    },
    onSuccess: (_answer, { flag, value }) => toast(feedback(flag, value)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: preferenceKeys.all }),
  });
}
