import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** The thoughts of an inclusive day range, as the timeline's month view asks (`startDate`/`endDate`). */
export async function getThoughtsRange(startDate: string, endDate: string): Promise<Thought[]> {
  try {
    return await api(thoughtsContract.range, { query: { startDate, endDate }, noCache: true });
  } catch (error) {
    throw new Error('Failed to fetch month data', { cause: error });
  }
}

export const getThoughtsRangeQueryKey = (startDate: string, endDate: string) =>
  [...thoughtsQueryKey, 'range', startDate, endDate] as const;

export function getThoughtsRangeQueryOptions(startDate: string, endDate: string) {
  return queryOptions({
    queryKey: getThoughtsRangeQueryKey(startDate, endDate),
    queryFn: () => getThoughtsRange(startDate, endDate),
    staleTime: 0,
  });
}

/** The month view's data; pass `enabled: false` while the calendar is closed. */
export function useThoughtsRange(startDate: string, endDate: string, { enabled = true } = {}) {
  return useQuery({ ...getThoughtsRangeQueryOptions(startDate, endDate), enabled });
}
