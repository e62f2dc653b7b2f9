import { HttpError } from '@haven/contracts/client';
import { integrationsContract, type IntegrationType, type Provider } from '@haven/contracts/integrations';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { PendingButton } from '@/components/ui/pending-button';
import type { ButtonProps } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';

/** The server itself answered with a reason (not configured, bad type): any other way meets it too. */
const refusedByServer = (error: unknown) => error instanceof HttpError && error.body !== undefined;

/**
 * The provider's consent address (spec 7): the auth call, then the direct-auth fallback; when both
 * fail on the way (no answer from the server), for the mail provider, the server's own redirect
 * route built here. A refusal the server explained is thrown, so the browser never leaves the app
 * for an error page.
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
    } catch (error) {
      if (provider !== 'google' || refusedByServer(error)) throw error;
      return `/api/integrations/${provider}/auth?type=${type}&client_generated=true`;
    }
  }
}

/**
 * Starts connecting an account: the browser leaves for the consent page (and comes back to the
 * Integrations screen); when it cannot start, the spec's 'Connection failed' toast.
 */
export function useStartConnection() {
  return useMutation({
    mutationFn: connectionUrl,
    onSuccess: (url) => window.location.assign(url),
    onError: () =>
      toast({
        title: 'Connection failed',
        description: 'Unable to initiate authentication. Please try again later.',
        variant: 'destructive',
      }),
  });
}

/** A button that starts connecting `account` (e.g. 'Connect Google Calendar'). */
export function ConnectAccountButton({
  account,
  children,
  ...props
}: Pick<ButtonProps, 'variant' | 'size' | 'className'> & {
  account: { provider: Provider; type: IntegrationType };
  children: ReactNode;
}) {
  const connect = useStartConnection();
  return (
    <PendingButton {...props} pending={connect.isPending} onClick={() => connect.mutate(account)}>
      {children}
    </PendingButton>
  );
}
