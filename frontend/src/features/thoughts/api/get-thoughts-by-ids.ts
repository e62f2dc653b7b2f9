import { thoughtsContract, type Thought } from '@haven/contracts/thoughts';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** The thoughts an insight cites; ids that are not the user's are absent from the answer. */
export function getThoughtsByIds(ids: readonly number[]): Promise<Thought[]> {
  return api(thoughtsContract.byIds, { query: { ids: ids.join(',') } });
}

export const getThoughtsByIdsQueryKey = (ids: readonly number[]) =>
  [...thoughtsQueryKey, 'ids', ids.join(',')] as const;

/**
 * The app hands these options to the insights view, which resolves its citations with them: the
 * query stays under the thoughts key, so editing or deleting a thought refreshes the chips.
 */
export function getThoughtsByIdsQueryOptions(ids: readonly number[]) {
  return {
    queryKey: getThoughtsByIdsQueryKey(ids),
    queryFn: () => getThoughtsByIds(ids),
    enabled: ids.length > 0,
  };
}
