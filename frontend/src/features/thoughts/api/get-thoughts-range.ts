import type { Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { ApiError, apiFetch } from '@/lib/api-client';
import { thoughtKeys } from '@/lib/thought-keys';

/** GET /api/thoughts/range?startDate=&endDate=&t=: thoughts of the inclusive day range, oldest first. */
export async function getThoughtsRange(startDate: string, endDate: string): Promise<Thought[]> {
  try {
    return await apiFetch<Thought[]>('/api/thoughts/range', {
      query: { startDate, endDate },
      noCache: true,
    });
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.status, 'Failed to fetch month data', error.body);
    throw new Error('Failed to fetch month data', { cause: error });
  }
}

export function getThoughtsRangeQueryOptions(startDate: string, endDate: string) {
  return queryOptions({
    queryKey: thoughtKeys.range(startDate, endDate),
    queryFn: () => getThoughtsRange(startDate, endDate),
    staleTime: 0,
  });
}

/** The month view's data; pass `enabled: false` while the calendar is closed. */
export function useThoughtsRange(startDate: string, endDate: string, { enabled = true } = {}) {
  return useQuery({ ...getThoughtsRangeQueryOptions(startDate, endDate), enabled });
}
