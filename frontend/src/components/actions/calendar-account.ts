import { integrationsContract } from '@haven/contracts/integrations';
import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { AccountProblem } from './account-notice';

/**
 * Whether the user's calendar can take an event, known before the event form is filled: the account
 * problem (`not_connected`, `reconnect_required`), null when it is connected, undefined while unknown
 * (loading, or the check failed: then the server's answer on saving says it).
 */
export function useCalendarProblem(enabled: boolean): AccountProblem | null | undefined {
  const { data } = useQuery({
    // Under 'integrations': refetched with the Integrations screen's list after connecting.
    queryKey: ['integrations', 'calendar'],
    // Google's calendar or one by its CalDAV server: whichever is connected takes the event.
    queryFn: () => api(integrationsContract.list, { query: { type: 'calendar' }, noCache: true }),
    enabled,
  });
  if (!data) return undefined;
  const account = data.find((a) => a.connected) ?? data[0];
  if (account?.connected) return null;
  return account?.settings.error ? 'reconnect_required' : 'not_connected';
}
