import { thoughtsContract, type SearchPage } from '@haven/contracts/thoughts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import type { SearchFilter } from '@/features/thoughts/lib/search-thoughts';
import { api } from '@/lib/api';

/**
 * Results asked for at a time; the next page comes as the list is scrolled to its end. The first page
 * is smaller (a phone shows four or five cards), so it is drawn sooner after typing.
 */
export const FIRST_PAGE_SIZE = 10;
export const SEARCH_PAGE_SIZE = 20;

/**
 * One page of the server's search (spec 5's substring rule, ranked: whole words before other
 * substrings). A tag takes precedence over the text, so only one of them is sent.
 */
export async function searchThoughts(
  { query, tag }: SearchFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<SearchPage> {
  const limit = cursor === undefined ? FIRST_PAGE_SIZE : SEARCH_PAGE_SIZE;
  try {
    return await api(thoughtsContract.search, {
      query: tag !== null ? { tag, cursor, limit } : { q: query.trim(), cursor, limit },
      noCache: true,
      signal,
    });
  } catch (error) {
    // Spec 8 names this failure; the HTTP error stays on as the cause.
    throw new Error('Failed to fetch thoughts', { cause: error });
  }
}

export const searchThoughtsQueryKey = ({ query, tag }: SearchFilter) =>
  [...thoughtsQueryKey, 'search', tag !== null ? { tag } : { q: query.trim() }] as const;

export function searchThoughtsQueryOptions(filter: SearchFilter) {
  return infiniteQueryOptions({
    queryKey: searchThoughtsQueryKey(filter),
    // The signal cancels a page nobody waits for any more (the text changed meanwhile).
    queryFn: ({ pageParam, signal }) => searchThoughts(filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Spec 7: the thoughts list has zero staleness.
    staleTime: 0,
  });
}

/** The search's pages; while the next text's first page loads, the last results stay on screen. */
export function useSearchThoughts(filter: SearchFilter) {
  return useInfiniteQuery({ ...searchThoughtsQueryOptions(filter), placeholderData: keepPreviousData });
}
