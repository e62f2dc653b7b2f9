import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** The thoughts of one local day (`yyyy-MM-dd`), fetched past any cache. */
export async function getThoughtsByDay(date: string): Promise<Thought[]> {
  try {
    return await api(thoughtsContract.byDay, { query: { date }, noCache: true });
  } catch (error) {
    // Spec 8 names this failure; the HTTP error stays on as the cause.
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export const getThoughtsByDayQueryKey = (date: string) => [...thoughtsQueryKey, 'day', date] as const;

export function getThoughtsByDayQueryOptions(date: string) {
  return queryOptions({
    queryKey: getThoughtsByDayQueryKey(date),
    queryFn: () => getThoughtsByDay(date),
    // Spec 7: the thoughts list has zero staleness.
    staleTime: 0,
  });
}

export function useThoughtsByDay(date: string) {
  return useQuery(getThoughtsByDayQueryOptions(date));
}
