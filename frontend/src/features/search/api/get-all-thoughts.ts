import type { Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { ApiError, apiFetch } from '@/lib/api-client';
import { thoughtKeys } from '@/lib/thought-keys';

/** GET /api/thoughts/all?t=: every thought of the user, newest first. */
export async function getAllThoughts(): Promise<Thought[]> {
  try {
    return await apiFetch<Thought[]>('/api/thoughts/all', { noCache: true });
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.status, 'Failed to fetch thoughts', error.body);
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export function getAllThoughtsQueryOptions() {
  return queryOptions({ queryKey: thoughtKeys.everything(), queryFn: getAllThoughts, staleTime: 0 });
}

/** Spec 7: used only by the search panel, which is mounted only while the overlay is open. */
export function useAllThoughts() {
  return useQuery(getAllThoughtsQueryOptions());
}
