import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** Every thought of the user, newest first, fetched past any cache. */
export async function getAllThoughts(): Promise<Thought[]> {
  try {
    return await api(thoughtsContract.all, { noCache: true });
  } catch (error) {
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export const getAllThoughtsQueryKey = () => [...thoughtsQueryKey, 'all'] as const;

export function getAllThoughtsQueryOptions() {
  return queryOptions({ queryKey: getAllThoughtsQueryKey(), queryFn: getAllThoughts, staleTime: 0 });
}

/** Spec 7: used only by the search panel, which is mounted only while the overlay is open. */
export function useAllThoughts() {
  return useQuery(getAllThoughtsQueryOptions());
}
