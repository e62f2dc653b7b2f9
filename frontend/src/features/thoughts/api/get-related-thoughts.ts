import { thoughtsContract, type RelatedAnswer } from '@haven/contracts/thoughts';
import { useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** How many related entries an open thought lists. */
export const RELATED_LIMIT = 5;

/** The thoughts most like one thought (by meaning with a model, by shared rare words without). */
export async function getRelatedThoughts(id: number, signal?: AbortSignal): Promise<RelatedAnswer> {
  try {
    return await api(thoughtsContract.related, {
      params: { id },
      query: { limit: RELATED_LIMIT },
      noCache: true,
      signal,
    });
  } catch (error) {
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export const getRelatedThoughtsQueryKey = (id: number) => [...thoughtsQueryKey, 'related', id] as const;

/** Asked for only while `enabled` (the thought is open), and kept a minute. */
export function useRelatedThoughts(id: number, enabled: boolean) {
  return useQuery({
    queryKey: getRelatedThoughtsQueryKey(id),
    queryFn: ({ signal }) => getRelatedThoughts(id, signal),
    enabled,
    staleTime: 60_000,
  });
}
