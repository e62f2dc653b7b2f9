import { queryOptions, useQuery } from '@tanstack/react-query';

import { preferencesContract, type UserPreferences } from '@haven/contracts/preferences';
import { api } from '@/lib/api';

/** The three privacy flags (all true until the user changes one). */
export async function getPreferences(): Promise<UserPreferences> {
  try {
    return await api(preferencesContract.get);
  } catch (error) {
    // Spec 8 names this failure; the HTTP error stays on as the cause.
    throw new Error('Failed to fetch user preferences', { cause: error });
  }
}

export const getPreferencesQueryKey = () => ['user-preferences'] as const;

export function getPreferencesQueryOptions() {
  return queryOptions({ queryKey: getPreferencesQueryKey(), queryFn: getPreferences });
}

export function usePreferences() {
  return useQuery(getPreferencesQueryOptions());
}
