import {
  isOAuthProvider,
  DEFAULT_RULES,
  FOLLOW_UP_DAYS,
  type Integration,
  type IntegrationSettings,
} from '@haven/contracts/integrations';
import { AlertTriangle, LifeBuoy } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { useStartConnection } from '@/components/actions/connect-account';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format-date';
import { cn } from '@/lib/utils';
import { useIntegrations } from '../api/get-integrations';
import { useProviderSetUp } from '../api/get-providers';
import { useDisconnectIntegration, useUpdateIntegrationSettings } from '../api/manage-integration';
import { CalendarServerForm } from './calendar-server-form';
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

const SWITCHES: Array<
  [keyof Pick<IntegrationSettings, 'autoSync' | 'notifyOnChanges' | 'includeFullContent'>, string, string]
> = [
  ['autoSync', 'Auto sync', 'Keep this account’s data fresh in the background.'],
  ['notifyOnChanges', 'Notify on changes', 'Tell me when something new arrives.'],
  ['includeFullContent', 'Include full content', 'Let the assistant read whole messages, not just snippets.'],
];

/** Saves settings or rules, saying how it went. */
function useSaveWithToasts(savedTitle: string) {
  return useUpdateIntegrationSettings({
    mutationConfig: {
      onSuccess: () => toast({ title: savedTitle }),
      onError: (error) =>
        toast({
          title: 'Failed to save settings',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
}

/** A whole number of days from 1 to 30, as typed; null otherwise. */
const daysOf = (typed: string) => {
  const days = /^\d{1,2}$/.test(typed.trim()) ? Number(typed) : NaN;
  return days >= 1 && days <= 30 ? days : null;
};

/**
 * E-mail only: after how many days without an answer a question the user sent shows under
 * 'Waiting for an answer' in the digest.
 */
function FollowUpDays({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const invalid = daysOf(value) === null;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start justify-between gap-4">
        <label htmlFor="follow-up-days" className="flex flex-col">
          <span className="text-sm font-medium">Follow up after</span>
          <span className="text-xs text-muted-foreground">
            List a question you sent under ‘Waiting for an answer’ when nobody has replied for this many days.
          </span>
        </label>
        <span className="flex shrink-0 items-center gap-2 text-sm">
          <Input
            id="follow-up-days"
            inputMode="numeric"
            className="w-16 text-center"
            value={value}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? 'follow-up-days-error' : undefined}
            onChange={(e) => onChange(e.target.value)}
          />
          days
        </span>
      </div>
      {invalid ? (
        <p id="follow-up-days-error" className="text-xs text-destructive">
          Enter a number of days from 1 to 30.
        </p>
      ) : null}
    </div>
  );
}

function SettingsTab({ integration }: { integration: Integration }) {
  const [settings, setSettings] = useState(integration.settings);
  const [followUpDays, setFollowUpDays] = useState(
    String(integration.settings.followUpDays ?? FOLLOW_UP_DAYS),
  );
  const isEmail = integration.type === 'email';
  const days = daysOf(followUpDays);
  const save = useSaveWithToasts('Settings saved');
  return (
    <div className="flex flex-col gap-4">
      {SWITCHES.map(([key, label, description]) => (
        <label key={key} className="flex items-start justify-between gap-4">
          <span className="flex flex-col">
            <span className="text-sm font-medium">{label}</span>
            <span className="text-xs text-muted-foreground">{description}</span>
          </span>
          <Switch
            aria-label={label}
            checked={settings[key]}
            onCheckedChange={(value) => setSettings((s) => ({ ...s, [key]: value }))}
          />
        </label>
      ))}
      {isEmail ? <FollowUpDays value={followUpDays} onChange={setFollowUpDays} /> : null}
      <PendingButton
        pending={save.isPending}
        disabled={isEmail && days === null}
        onClick={() =>
          save.mutate({
            id: integration.id,
            patch: {
              settings: {
                autoSync: settings.autoSync,
                notifyOnChanges: settings.notifyOnChanges,
                includeFullContent: settings.includeFullContent,
                ...(isEmail && days !== null ? { followUpDays: days } : {}),
              },
            },
          })
        }
      >
        Save Settings
      </PendingButton>
    </div>
  );
}

function RulesTab({ integration }: { integration: Integration }) {
  const [rules, setRules] = useState(integration.contextualRules ?? '');
  const save = useSaveWithToasts('Rules saved');
  return (
    <div className="flex flex-col gap-3">
      <Textarea
        aria-label="Contextual rules"
        value={rules}
        onChange={(e) => setRules(e.target.value)}
        className="min-h-[200px]"
        placeholder="How the assistant should treat this account…"
      />
      <div className="flex flex-wrap justify-end gap-2">
        {rules.trim() === '' && (
          <PendingButton
            variant="outline"
            pending={false}
            onClick={() => setRules(DEFAULT_RULES[integration.type])}
          >
            Use Default Rules
          </PendingButton>
        )}
        <PendingButton
          pending={save.isPending}
          onClick={() =>
            save.mutate({ id: integration.id, patch: { contextualRules: rules.trim() || null } })
          }
        >
          Save Rules
        </PendingButton>
      </div>
    </div>
  );
}

/** `/integrations/{provider}/{type}`: connect or disconnect, the connection issue, and the three tabs. */
export function IntegrationDetail({ entry }: { entry: CatalogEntry }) {
  const integrations = useIntegrations();
  const navigate = useNavigate();
  const integration = integrations.data?.find((i) => i.provider === entry.provider && i.type === entry.type);
  const setUp = useProviderSetUp();
  const state = connectionStateOf(integration, setUp(entry.provider));
  const connected = state === 'connected';
  const [confirming, setConfirming] = useState(false);
  const [tab, setTab] = useState('overview');
  const connect = useStartConnection();
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
          {integration?.settings.error && (
            <div
              role="alert"
              className="flex gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-900 dark:text-amber-200"
            >
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                <span className="font-medium">Connection issue. </span>
                {integration.settings.error}
              </span>
            </div>
          )}
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
            <PendingButton
              variant="outline"
              pending={disconnect.isPending}
              onClick={() => setConfirming(true)}
            >
              Disconnect
            </PendingButton>
          )}
        </CardContent>
      </Card>

      {connected && integration && (
        <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-3">
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
      )}

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
