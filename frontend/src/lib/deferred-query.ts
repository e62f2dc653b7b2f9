import type { UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue } from 'react';

/**
 * A query whose answer is drawn at transition priority. An answer arrives through TanStack Query's
 * store, which React renders in one go, however long the screen it fills in; deferred, React renders
 * it in slices and yields between them, so a phone stays responsive while a screen fills in. Until
 * that render, the query reads as still pending (or as its previous answer).
 */
export function useDeferredQuery<TData, TError>(
  query: UseQueryResult<TData, TError>,
): UseQueryResult<TData, TError> {
  const data = useDeferredValue(query.data);
  if (data === query.data) return query;
  if (data === undefined)
    return {
      ...query,
      data: undefined,
      isPending: true,
      isSuccess: false,
      status: 'pending',
    } as UseQueryResult<TData, TError>;
  return { ...query, data } as UseQueryResult<TData, TError>;
}
