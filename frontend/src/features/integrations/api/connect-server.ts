import { integrationsContract, type Integration } from '@haven/contracts/integrations';
import type { CalendarServerAccountBody, MailServerAccountBody } from '@haven/contracts/mail-servers';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { integrationsQueryKey } from './get-integrations';

/** Connects a mail account by its servers; the server signs in to both first (422 says what each answered). */
export function connectMailServer(body: MailServerAccountBody) {
  return api(integrationsContract.connectMailServer, { body });
}

/** Connects a calendar by its CalDAV server; the server signs in and finds the calendars first. */
export function connectCalendarServer(body: CalendarServerAccountBody) {
  return api(integrationsContract.connectCalendarServer, { body });
}

/** A connection's mutation; the Integrations list is fetched again once it is stored. */
function useConnection<B>(
  connect: (body: B) => Promise<Integration>,
  mutationConfig: MutationConfig<(body: B) => Promise<Integration>> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig;
  return useMutation({
    ...rest,
    mutationFn: connect,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
      await onSuccess?.(...args);
    },
  });
}

export const useConnectMailServer = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof connectMailServer> } = {}) =>
  useConnection(connectMailServer, mutationConfig);

export const useConnectCalendarServer = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof connectCalendarServer> } = {}) =>
  useConnection(connectCalendarServer, mutationConfig);
