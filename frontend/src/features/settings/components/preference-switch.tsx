import { useId } from 'react';

import { Switch } from '@/components/ui/switch';
import { useUpdatePreference, type PreferenceFlag } from '@/features/settings/api/update-preference';

interface PreferenceSwitchProps {
  flag: PreferenceFlag;
  checked: boolean;
  label: string;
  description: string;
}

/** One privacy flag as a labelled switch; saving happens optimistically in the background. */
export function PreferenceSwitch({ flag, checked, label, description }: PreferenceSwitchProps) {
  const id = useId();
  const update = useUpdatePreference();
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
        onCheckedChange={(value) => update.mutate({ flag, value })}
      />
    </div>
  );
}
