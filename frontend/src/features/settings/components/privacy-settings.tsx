import { ShieldCheck } from 'lucide-react';
import { useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { PreferenceSwitch } from '@/features/settings/components/preference-switch';
import { serverMessageOf } from '@/lib/api';

/** Settings → Privacy: the three confirmation and sharing flags, and the policy. */
export function PrivacySettings() {
  const navigate = useNavigate();
  const preferences = usePreferences();
  const prefs = preferences.data;

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Assistant permissions</CardTitle>
          <CardDescription>Choose when Haven checks with you before acting.</CardDescription>
        </CardHeader>
        <CardContent className="divide-y">
          {preferences.isPending && (
            <Spinner className="flex justify-center py-6" label="Loading preferences" />
          )}
          {preferences.isError && (
            <QueryError
              message="Failed to fetch user preferences"
              detail={serverMessageOf(preferences.error)}
              onRetry={preferences.refetch}
            />
          )}
          {prefs && (
            <>
              <PreferenceSwitch
                flag="askBeforeCalendarEvents"
                checked={prefs.askBeforeCalendarEvents}
                label="Ask before creating calendar events"
                description="Review each suggested event before it is added to your calendar."
              />
              <PreferenceSwitch
                flag="askBeforeEmails"
                checked={prefs.askBeforeEmails}
                label="Ask before sending emails"
                description="Review each email draft before it is saved or sent."
              />
              <PreferenceSwitch
                flag="includeThoughtContent"
                checked={prefs.includeThoughtContent}
                label="Include thought content in suggestions"
                description="Let the assistant read your thoughts when it suggests what to do next."
              />
            </>
          )}
        </CardContent>
      </Card>
      <Button
        variant="outline"
        className="w-full"
        onClick={() => navigate(paths.privacyPolicy.path, { state: { from: paths.settings.path } })}
      >
        <ShieldCheck aria-hidden="true" />
        View Privacy Policy
      </Button>
    </div>
  );
}
