import type { Integration } from '@haven/contracts/integrations';
import { useQueryClient } from '@tanstack/react-query';
import { ChevronRight, KeyRound, Plus, Settings } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { useStartConnection } from '@/components/actions/connect-account';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorAlert } from '@/components/ui/error-alert';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';
import { integrationsQueryKey, useIntegrations } from '../api/get-integrations';
import { useProviderSetUp } from '../api/get-providers';
import {
  accountOfCard,
  CATALOG,
  othersOf,
  SERVER_ENTRIES,
  connectionStateOf,
  DOT_OF,
  providerName,
  type CatalogEntry,
  type ConnectionState,
} from '../lib/catalog';

/** Amber like the connection-issue box it leads to, readable in both themes. */
const RECONNECT_BADGE = 'border-amber-500/50 text-amber-900 dark:text-amber-200';

/** What 'Add New' says beside each service. */
const ACTION_OF: Record<ConnectionState, string> = {
  connected: 'Connected',
  reconnect: 'Reconnect',
  'not-set-up': 'Not set up',
  'not-connected': 'Connect',
};

/** What a screen reader hears after a card's name (the dot shows it). */
const SAID_OF: Record<ConnectionState, string> = {
  connected: 'connected',
  reconnect: 'not connected, needs reconnecting',
  'not-set-up': 'not connected',
  'not-connected': 'not connected',
};

/** 'Add New' lists the cards' services, and Microsoft's and the servers' mail and calendar beside Google's. */
const ADDABLE: readonly CatalogEntry[] = CATALOG.flatMap((entry) => [entry, ...othersOf(entry)]);

const findOf = (list: Integration[] | undefined, entry: CatalogEntry) =>
  list?.find((i) => i.provider === entry.provider && i.type === entry.type);

/** Reads the OAuth return (integration, provider, type, message), says how it went, and clears it. */
function useOAuthReturn() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const outcome = params.get('integration');
  useEffect(() => {
    if (!outcome) return;
    const provider = params.get('provider') ?? '';
    if (outcome === 'success') {
      toast({ title: `${providerName(provider)} integration connected` });
      void queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
    } else {
      toast({
        title: 'Integration failed',
        description: params.get('message') || 'There was an error connecting your integration.',
        variant: 'destructive',
      });
    }
    setParams({}, { replace: true });
  }, [outcome, params, setParams, queryClient]);
}

/** `/integrations`: the four services with their state, 'Add New', and the ways to get help. */
export function IntegrationList() {
  useOAuthReturn();
  const integrations = useIntegrations();
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();
  const connect = useStartConnection();
  const setUp = useProviderSetUp();
  const stateOf = (entry: CatalogEntry) =>
    connectionStateOf(findOf(integrations.data, entry), setUp(entry.provider));

  function choose(entry: CatalogEntry) {
    // Connected: its page; not set up on this server: its page says why, rather than a failing Connect.
    const state = stateOf(entry);
    // An account by its servers is connected from its page, where its settings are asked for.
    if (state === 'connected' || state === 'not-set-up' || SERVER_ENTRIES.includes(entry))
      return navigate(paths.integration.getHref(entry.provider, entry.type));
    connect.mutate({ provider: entry.provider, type: entry.type });
  }

  return (
    <div className="flex flex-col gap-4">
      {integrations.isError && <ErrorAlert>{integrations.error.message}</ErrorAlert>}
      <ul className="grid grid-cols-2 gap-3">
        {CATALOG.map((card) => {
          const { entry, integration } = accountOfCard(integrations.data, card);
          const state = stateOf(entry);
          return (
            <li key={`${card.provider}-${card.type}`}>
              <Link
                to={paths.integration.getHref(entry.provider, entry.type)}
                className="flex h-full min-w-0 flex-col gap-2 rounded-xl border bg-card p-3 text-card-foreground shadow-sm transition-colors hover:border-accent/40"
              >
                <span className="flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    data-testid="connection-dot"
                    className={cn('size-2.5 shrink-0 rounded-full', DOT_OF[state])}
                  />
                  <span className="text-sm leading-tight font-semibold">
                    {entry.name}
                    {/* Said, not shown (the dot shows it): the link's name keeps its visible text. */}
                    <span className="sr-only">
                      , {SAID_OF[state]}
                      {integration?.contextualRules ? ', with rules' : ''}
                    </span>
                  </span>
                </span>
                {state === 'not-set-up' ? (
                  <span className="text-xs font-medium text-muted-foreground">Not set up on this server</span>
                ) : (
                  <span className="line-clamp-2 text-xs text-muted-foreground">{entry.description}</span>
                )}
                <span className="mt-auto flex flex-wrap gap-1">
                  <Badge variant="secondary">{entry.type}</Badge>
                  {state === 'reconnect' && (
                    <Badge variant="outline" aria-hidden="true" className={RECONNECT_BADGE}>
                      Reconnect
                    </Badge>
                  )}
                  {integration?.contextualRules && <Badge>Rules</Badge>}
                </span>
              </Link>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            onClick={() => setAdding(true)}
            className="flex h-full min-h-24 w-full flex-col items-center justify-center gap-1 rounded-xl border border-dashed text-sm font-medium text-muted-foreground hover:border-accent/40 hover:text-foreground"
          >
            <Plus aria-hidden="true" className="size-5" />
            Add New
          </button>
        </li>
      </ul>
      <div className="flex flex-col gap-2">
        <Link
          to={paths.settings.path}
          className={cn(buttonVariants({ variant: 'outline' }), 'justify-between')}
        >
          <span className="flex items-center gap-2">
            <Settings aria-hidden="true" /> Settings
          </span>
          <ChevronRight aria-hidden="true" />
        </Link>
        <Link
          to={paths.directAuth.path}
          className={cn(buttonVariants({ variant: 'outline' }), 'justify-between')}
        >
          <span className="flex items-center gap-2">
            <KeyRound aria-hidden="true" /> Use Direct Authentication
          </span>
          <ChevronRight aria-hidden="true" />
        </Link>
      </div>

      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent showCloseButton>
          <DialogHeader>
            <DialogTitle>Add New</DialogTitle>
          </DialogHeader>
          <ul className="flex flex-col gap-2">
            {ADDABLE.map((entry) => (
              <li key={`${entry.provider}-${entry.type}`}>
                <Button
                  variant="outline"
                  className="w-full justify-between"
                  disabled={connect.isPending}
                  onClick={() => {
                    setAdding(false);
                    choose(entry);
                  }}
                >
                  {entry.name}
                  <span className="text-xs text-muted-foreground">{ACTION_OF[stateOf(entry)]}</span>
                </Button>
              </li>
            ))}
          </ul>
        </DialogContent>
      </Dialog>
    </div>
  );
}
