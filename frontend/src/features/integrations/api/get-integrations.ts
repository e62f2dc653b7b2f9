import { integrationsContract, type Integration } from '@haven/contracts/integrations';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';

export const integrationsQueryKey = ['integrations'] as const;

/** The user's connected (or once connected) accounts. */
export async function getIntegrations(): Promise<Integration[]> {
  try {
    return await api(integrationsContract.list, { noCache: true });
  } catch (error) {
    throw new Error('Failed to fetch integrations', { cause: error });
  }
}

export const getIntegrationsQueryOptions = () =>
  queryOptions({ queryKey: integrationsQueryKey, queryFn: getIntegrations });

export function useIntegrations() {
  return useQuery(getIntegrationsQueryOptions());
}
