import { integrationsContract, type SettingsPatchBody } from '@haven/contracts/integrations';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { integrationsQueryKey } from './get-integrations';

/** Disconnects: the server revokes the grant and deletes the account's tokens and cache. */
export async function disconnectIntegration(id: number): Promise<void> {
  await api(integrationsContract.remove, { params: { id } });
}

export async function updateIntegrationSettings({ id, patch }: { id: number; patch: SettingsPatchBody }) {
  return api(integrationsContract.updateSettings, { params: { id }, body: patch });
}

export function useDisconnectIntegration({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof disconnectIntegration> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: disconnectIntegration,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
      await onSuccess?.(...args);
    },
  });
}

export function useUpdateIntegrationSettings({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateIntegrationSettings> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateIntegrationSettings,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
      await onSuccess?.(...args);
    },
  });
}
