import { integrationsContract, type Provider, type ProviderStatus } from '@haven/contracts/integrations';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';

/** Which providers this server can connect: it has their client id and secret. */
export async function getProviders(): Promise<ProviderStatus[]> {
  return (await api(integrationsContract.providers)).providers;
}

/** Fixed for the server's lifetime: fetched once a session. */
export const getProvidersQueryOptions = () =>
  queryOptions({ queryKey: ['integrations', 'providers'], queryFn: getProviders, staleTime: Infinity });

/**
 * Whether each provider can be connected here; while unknown (loading, or the call failed) every
 * provider counts as set up, so Connect stays offered and the server says why when it is not.
 */
export function useProviderSetUp(): (provider: Provider) => boolean {
  const { data } = useQuery(getProvidersQueryOptions());
  return (provider) => data?.find((p) => p.provider === provider)?.configured ?? true;
}
