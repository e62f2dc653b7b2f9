import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/** Spec 7: no retries, 60 s freshness, refetch on focus, never on a timer. */
export const queryConfig = {
  queries: {
    retry: false,
    staleTime: 60_000,
    refetchOnWindowFocus: true,
    refetchInterval: false,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export const queryClient = new QueryClient({ defaultOptions: queryConfig });
