import { integrationsContract } from '@haven/contracts/integrations';
import type { MailServerAccountBody } from '@haven/contracts/mail-servers';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { integrationsQueryKey } from './get-integrations';

/** Connects a mail account by its servers; the server signs in to both first (422 says what each answered). */
export function connectMailServer(body: MailServerAccountBody) {
  return api(integrationsContract.connectMailServer, { body });
}

export function useConnectMailServer({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof connectMailServer> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: connectMailServer,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
      await onSuccess?.(...args);
    },
  });
}
