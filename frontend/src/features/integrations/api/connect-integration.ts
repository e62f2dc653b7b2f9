import { integrationsContract, type IntegrationType, type Provider } from '@haven/contracts/integrations';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/**
 * The provider's consent address (spec 7): the auth call, then the direct-auth fallback; when both
 * fail, the server's own redirect route built here, which the browser is sent to.
 */
export async function connectionUrl({
  provider,
  type,
}: {
  provider: Provider;
  type: IntegrationType;
}): Promise<string> {
  try {
    return (await api(integrationsContract.startAuth, { params: { provider }, body: { type } })).authUrl;
  } catch {
    try {
      return (await api(integrationsContract.directAuth, { params: { provider }, query: { type } })).authUrl;
    } catch {
      return `/api/integrations/${provider}/auth?type=${type}&client_generated=true`;
    }
  }
}

/** Starts connecting: the browser leaves for the consent page. */
export function useConnectIntegration({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof connectionUrl> } = {}) {
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: connectionUrl,
    onSuccess: (...args) => {
      window.location.assign(args[0]);
      return onSuccess?.(...args);
    },
  });
}

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
