import { useId } from 'react';

import { Switch } from '@/components/ui/switch';
import { useUpdatePreferences, type PreferenceFlag } from '@/features/settings/api/update-preference';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

interface PreferenceSwitchProps {
  flag: PreferenceFlag;
  checked: boolean;
  label: string;
  description: string;
}

/** Spec 8 feedback after a flag was saved; the 'off' answer of a confirmation is destructive-styled. */
function feedback(flag: PreferenceFlag, enabled: boolean) {
  if (flag === 'includeThoughtContent') {
    return enabled
      ? { title: 'Content sharing enabled', description: 'Your thoughts can now shape suggestions.' }
      : { title: 'Content sharing disabled', description: 'Suggestions will no longer use your thoughts.' };
  }
  const what = flag === 'askBeforeEmails' ? 'sending emails' : 'creating calendar events';
  return enabled
    ? { title: 'Confirmation enabled', description: `Haven will ask before ${what}.` }
    : {
        title: 'Confirmation disabled',
        description: `Haven will no longer ask before ${what}.`,
        variant: 'destructive' as const,
      };
}

/** One privacy flag as a labelled switch; saving happens optimistically in the background. */
export function PreferenceSwitch({ flag, checked, label, description }: PreferenceSwitchProps) {
  const id = useId();
  const update = useUpdatePreferences({
    mutationConfig: {
      onSuccess: (_answer, patch) => toast(feedback(flag, patch[flag] === true)),
      onError: (error) =>
        toast({
          title: 'Failed to update settings',
          description: getErrorMessage(error, 'Failed to update preferences'),
          variant: 'destructive',
        }),
    },
  });
  return (
    <div className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="flex min-w-0 flex-col gap-1">
        <label id={`${id}-label`} htmlFor={id} className="text-sm leading-snug font-medium">
          {label}
        </label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-description`}
        onCheckedChange={(value) => update.mutate({ [flag]: value })}
      />
    </div>
  );
}
