import { isOAuthProvider, type Integration } from '@haven/contracts/integrations';
import { AlertTriangle, LifeBuoy } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { useStartConnection } from '@/components/actions/connect-account';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PendingButton } from '@/components/ui/pending-button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format-date';
import { cn } from '@/lib/utils';
import { useIntegrations } from '../api/get-integrations';
import { useProviderSetUp } from '../api/get-providers';
import { useDisconnectIntegration } from '../api/manage-integration';
import { CalendarServerForm } from './calendar-server-form';
import { RulesTab, SettingsTab } from './integration-settings';
import { MailServerForm } from './mail-server-form';
import { NotionPageSetting } from './notion-page-setting';

import { capabilitiesOf } from '../lib/capabilities';
import {
  connectionStateOf,
  DOT_OF,
  othersOf,
  SETUP_README,
  SETUP_VARIABLES,
  type CatalogEntry,
  type ConnectionState,
} from '../lib/catalog';

/** Why there is no Connect, and what the person who runs the server does about it. */
function NotSetUp({ entry }: { entry: CatalogEntry }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border bg-muted/50 p-3 text-sm">
      <p>
        This server has no {entry.name.split(' ')[0]} app to connect with, so it cannot be connected here yet.
        Whoever runs the server sets {SETUP_VARIABLES[entry.provider]} and restarts it.
      </p>
      <p className="text-xs text-muted-foreground">
        How, step by step: the project’s README.md, section ‘Connecting Google, Microsoft, Slack and Notion’
        <code className="mt-0.5 block break-all">{SETUP_README}</code>
      </p>
    </div>
  );
}

/** What the connection may read and do, in words; never its token. */
function Overview({ integration }: { integration: Integration }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <div>
        <h3 className="font-medium">What it can read and do</h3>
        <ul className="mt-1 list-disc pl-5 text-muted-foreground">
          {capabilitiesOf(integration).map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
      </div>
      <p>
        <span className="text-muted-foreground">Connected since </span>
        <When iso={integration.createdAt} />
      </p>
    </div>
  );
}

/** A stored moment as the app writes dates, or a dash when there is none. */
function When({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{formatDateTime(new Date(iso))}</time> : <>—</>;
}

const STATE_TEXT: Record<ConnectionState, string> = {
  connected: 'Connected',
  reconnect: 'Needs reconnecting',
  'not-set-up': 'Not set up on this server',
  'not-connected': 'Not connected',
};

/** The ways to another provider from Google's pages, for a person whose mail or calendar is elsewhere. */
const OTHER_LINK: Record<string, string> = {
  'microsoft:email': 'Outlook or Microsoft 365? Connect Microsoft',
  'imap:email': 'Not Gmail? Connect Fastmail, iCloud, Yahoo or another mail server (IMAP)',
  'microsoft:calendar': 'Outlook or Microsoft 365? Connect Microsoft',
  'caldav:calendar': 'Not Google? Connect Fastmail, iCloud, Yahoo or another calendar (CalDAV)',
};

/** Three equal tabs on a phone: 'Contextual Rules' takes two lines rather than spilling out of its tab. */
const WRAPPING_TAB = 'h-auto min-h-11 min-w-0 px-2 py-1.5 text-center leading-tight whitespace-normal';

/** A connection the provider reported broken, in its words. */
function ConnectionIssue({ error }: { error: string }) {
  return (
    <div
      role="alert"
      className="flex gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-900 dark:text-amber-200"
    >
      <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <span className="font-medium">Connection issue. </span>
        {error}
      </span>
    </div>
  );
}

interface ConnectionCardProps {
  entry: CatalogEntry;
  integration: Integration | undefined;
  state: ConnectionState;
  disconnecting: boolean;
  /** Disconnect was pressed (the page asks first). */
  onDisconnect: () => void;
}

/** The connection's state, its issue and last sync, and the ways to connect, reconnect or disconnect it. */
function ConnectionCard({ entry, integration, state, disconnecting, onDisconnect }: ConnectionCardProps) {
  const connect = useStartConnection();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <span
            aria-hidden="true"
            data-testid="connection-dot"
            className={cn('size-2.5 rounded-full', DOT_OF[state])}
          />
          {entry.name}
        </CardTitle>
        <CardDescription>{STATE_TEXT[state]}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {integration?.settings.error && <ConnectionIssue error={integration.settings.error} />}
        {integration && (
          <p className="text-xs text-muted-foreground">
            Last synced <When iso={integration.updatedAt} />
          </p>
        )}
        {state === 'not-set-up' && <NotSetUp entry={entry} />}
        {entry.provider === 'imap' && state !== 'connected' && <MailServerForm />}
        {entry.provider === 'caldav' && state !== 'connected' && <CalendarServerForm />}
        {isOAuthProvider(entry.provider) && (state === 'not-connected' || state === 'reconnect') && (
          <PendingButton
            pending={connect.isPending}
            onClick={() => connect.mutate({ provider: entry.provider, type: entry.type })}
          >
            {state === 'reconnect' ? 'Reconnect' : 'Connect'}
          </PendingButton>
        )}
        {!integration &&
          othersOf(entry).map((other) => (
            <Link
              key={other.provider}
              to={paths.integration.getHref(other.provider, other.type)}
              className={cn(buttonVariants({ variant: 'outline' }), 'h-auto min-h-11 whitespace-normal')}
            >
              {OTHER_LINK[`${other.provider}:${other.type}`]}
            </Link>
          ))}
        {/* An account waiting for a reconnect can be removed as well. */}
        {integration && state !== 'not-connected' && (
          <PendingButton variant="outline" pending={disconnecting} onClick={onDisconnect}>
            Disconnect
          </PendingButton>
        )}
      </CardContent>
    </Card>
  );
}

/** Overview, Settings and Contextual Rules of a connected account. */
function IntegrationTabs({
  integration,
  tab,
  onTabChange,
}: {
  integration: Integration;
  tab: string;
  onTabChange: (tab: string) => void;
}) {
  return (
    <Tabs value={tab} onValueChange={onTabChange} className="flex flex-col gap-3">
      <TabsList>
        <TabsTrigger value="overview" className={WRAPPING_TAB}>
          Overview
        </TabsTrigger>
        <TabsTrigger value="settings" className={WRAPPING_TAB}>
          Settings
        </TabsTrigger>
        <TabsTrigger value="rules" className={WRAPPING_TAB}>
          Contextual Rules
        </TabsTrigger>
      </TabsList>
      <TabsContent value="overview">
        <Overview integration={integration} />
      </TabsContent>
      <TabsContent value="settings" className="flex flex-col gap-4">
        <SettingsTab integration={integration} />
        {integration.provider === 'notion' && <NotionPageSetting integration={integration} />}
      </TabsContent>
      <TabsContent value="rules">
        <RulesTab integration={integration} />
      </TabsContent>
    </Tabs>
  );
}

/** The way round a connection that keeps failing. */
function NeedHelp() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <LifeBuoy aria-hidden="true" className="size-4" /> Need Help
        </CardTitle>
        <CardDescription>Trouble connecting? Try the direct authentication flow.</CardDescription>
      </CardHeader>
      <CardContent>
        <Link to={paths.directAuth.path} className={cn(buttonVariants({ variant: 'outline' }), 'w-full')}>
          Use Direct Authentication
        </Link>
      </CardContent>
    </Card>
  );
}

/** `/integrations/{provider}/{type}`: connect or disconnect, the connection issue, and the three tabs. */
export function IntegrationDetail({ entry }: { entry: CatalogEntry }) {
  const integrations = useIntegrations();
  const navigate = useNavigate();
  const integration = integrations.data?.find((i) => i.provider === entry.provider && i.type === entry.type);
  const setUp = useProviderSetUp();
  const state = connectionStateOf(integration, setUp(entry.provider));
  const [confirming, setConfirming] = useState(false);
  const [tab, setTab] = useState('overview');
  const disconnect = useDisconnectIntegration({
    mutationConfig: {
      onSuccess: () => toast({ title: `${entry.name} disconnected` }),
      onError: (error) =>
        toast({
          title: 'Failed to disconnect integration',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });

  return (
    <div className="flex flex-col gap-4">
      {integrations.isError && <ErrorAlert>Failed to fetch integration details</ErrorAlert>}
      <ConnectionCard
        entry={entry}
        integration={integration}
        state={state}
        disconnecting={disconnect.isPending}
        onDisconnect={() => setConfirming(true)}
      />

      {state === 'connected' && integration && (
        <IntegrationTabs integration={integration} tab={tab} onTabChange={setTab} />
      )}

      <NeedHelp />

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        destructive
        title={`Disconnect ${entry.name}?`}
        description={`Disconnect ${entry.name}? This will remove access to your account. The assistant will no longer be able to interact with your data.`}
        confirmLabel="Disconnect"
        onConfirm={() =>
          integration &&
          disconnect.mutate(integration.id, { onSuccess: () => navigate(paths.integrations.path) })
        }
      />
    </div>
  );
}
