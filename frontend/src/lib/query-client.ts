import { QueryClient, type DefaultOptions, type UseMutationOptions } from '@tanstack/react-query';

/** Spec 7: no retries, 60 s freshness, refetch on focus, never on a timer. */
export const queryConfig = {
  queries: {
    // Requests run even when the browser says it is offline: a failed fetch is an answer the app
    // handles (a thought waits on the device), where a paused one would spin forever.
    networkMode: 'always',
    retry: false,
    staleTime: 60_000,
    refetchOnWindowFocus: true,
    refetchInterval: false,
  },
  mutations: {
    networkMode: 'always',
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
