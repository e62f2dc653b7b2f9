import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** What was written on the same month and day (`yyyy-MM-dd`) in earlier years, most recent first. */
export async function getOnThisDay(date: string): Promise<Thought[]> {
  try {
    return await api(thoughtsContract.onThisDay, { query: { date }, noCache: true });
  } catch (error) {
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export const getOnThisDayQueryKey = (date: string) => [...thoughtsQueryKey, 'on-this-day', date] as const;

export function getOnThisDayQueryOptions(date: string) {
  return queryOptions({
    queryKey: getOnThisDayQueryKey(date),
    queryFn: () => getOnThisDay(date),
    staleTime: 60_000,
  });
}

export function useOnThisDay(date: string) {
  return useQuery(getOnThisDayQueryOptions(date));
}
