import { QueryClient, type DefaultOptions, type UseMutationOptions } from '@tanstack/react-query';

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

/**
 * What a mutation hook accepts from its caller, typed from its fetch function (bulletproof-react's
 * `MutationConfig`): `useCreateThought({ mutationConfig: { onSuccess, onError } })`.
 */
export type MutationConfig<Fn extends (...args: never[]) => Promise<unknown>> = UseMutationOptions<
  Awaited<ReturnType<Fn>>,
  Error,
  Parameters<Fn> extends [] ? void : Parameters<Fn>[0]
>;
