import { integrationsContract, type IntegrationType } from '@haven/contracts/integrations';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** A consent link for the direct-authentication page (spec 2), returning where the user chose. */
export async function directLink({
  type,
  alternativeRedirect,
}: {
  type: IntegrationType;
  alternativeRedirect: boolean;
}): Promise<string> {
  const answer = await api(integrationsContract.directAuth, {
    params: { provider: 'google' },
    query: { type, redirect: alternativeRedirect ? 'local' : 'server' },
  });
  return answer.authUrl;
}

export function useDirectLink({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof directLink> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: directLink });
}

/** Completes a consent that returned to the SPA's callback page. */
export function completeConnection(body: { code: string; state: string; type: IntegrationType }) {
  return api(integrationsContract.authComplete, {
    params: { provider: 'google' },
    body: { ...body, clientRequest: true },
  });
}
