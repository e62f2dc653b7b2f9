import { InsightsView } from '@/features/insights/components/insights-view';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { getThoughtsByIdsQueryOptions } from '@/features/thoughts/api/get-thoughts-by-ids';

/** The insights tab, reached at both /home and /insights. */
export function InsightsRoute() {
  const preferences = usePreferences().data;
  return (
    <InsightsView
      citedThoughts={getThoughtsByIdsQueryOptions}
      confirm={{
        emails: preferences?.askBeforeEmails ?? true,
        events: preferences?.askBeforeCalendarEvents ?? true,
      }}
    />
  );
}
