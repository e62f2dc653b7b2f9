import {
  DEFAULT_RULES,
  FOLLOW_UP_DAYS,
  type Integration,
  type IntegrationSettings,
} from '@haven/contracts/integrations';
import { useState } from 'react';

import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useUpdateIntegrationSettings } from '../api/manage-integration';

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

/** The Settings tab: the sync switches and, for e-mail, the follow-up days; saved by 'Save Settings'. */
export function SettingsTab({ integration }: { integration: Integration }) {
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

/** The Contextual Rules tab: how the assistant treats this account, in the user's words. */
export function RulesTab({ integration }: { integration: Integration }) {
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
