import { thoughtsContract, type TagCount } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** The user's tags, most used first, with how many thoughts carry each. */
export function getTags(): Promise<TagCount[]> {
  return api(thoughtsContract.tags, { noCache: true });
}

export const getTagsQueryKey = () => [...thoughtsQueryKey, 'tags'] as const;

export function getTagsQueryOptions() {
  return queryOptions({ queryKey: getTagsQueryKey(), queryFn: getTags, staleTime: 60_000 });
}

/** The tags capture suggests as you type `#`; refreshed with every thoughts view after a save. */
export function useTags({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getTagsQueryOptions(), enabled });
}
