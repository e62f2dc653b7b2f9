import type { Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { ApiError, apiFetch } from '@/lib/api-client';
import { thoughtKeys } from '@/lib/thought-keys';

/** GET /api/thoughts?date=yyyy-MM-dd&t=: the thoughts of one local day, newest first. */
export async function getThoughtsByDay(date: string): Promise<Thought[]> {
  try {
    return await apiFetch<Thought[]>('/api/thoughts', { query: { date }, noCache: true });
  } catch (error) {
    // Spec 8 names this failure; the status stays on the error for callers that care.
    if (error instanceof ApiError) throw new ApiError(error.status, 'Failed to fetch thoughts', error.body);
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export function getThoughtsByDayQueryOptions(date: string) {
  return queryOptions({
    queryKey: thoughtKeys.day(date),
    queryFn: () => getThoughtsByDay(date),
    // Spec 7: the thoughts list has zero staleness.
    staleTime: 0,
  });
}

export function useThoughtsByDay(date: string) {
  return useQuery(getThoughtsByDayQueryOptions(date));
}
