import { queryOptions, useQuery } from '@tanstack/react-query';

import type { UserPreferences } from '@haven/contracts/preferences';
import { ApiError, apiFetch } from '@/lib/api-client';

export const preferenceKeys = {
  all: ['user-preferences'] as const,
};

/** GET /api/user-preferences: the three privacy flags (all true until the user changes one). */
export async function getPreferences(): Promise<UserPreferences> {
  try {
    return await apiFetch<UserPreferences>('/api/user-preferences');
  } catch (error) {
    // Spec 8 names this failure; the status stays available on the error for callers that care.
    if (error instanceof ApiError) throw new ApiError(error.status, 'Failed to fetch user preferences');
    throw new Error('Failed to fetch user preferences', { cause: error });
  }
}

export function getPreferencesQueryOptions() {
  return queryOptions({ queryKey: preferenceKeys.all, queryFn: getPreferences });
}

export function usePreferences() {
  return useQuery(getPreferencesQueryOptions());
}
