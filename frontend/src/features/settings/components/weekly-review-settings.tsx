import { useId } from 'react';

import { REVIEW_DAYS } from '@haven/contracts/weekly-review';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { useUpdatePreferences } from '@/features/settings/api/update-preference';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

const OFF = 'off';

/** Settings → Notifications: the day the home screen offers the week's review, or none. */
export function WeeklyReviewSettings() {
  const id = useId();
  const preferences = usePreferences();
  const update = useUpdatePreferences({
    mutationConfig: {
      onSuccess: ({ weeklyReviewDay }) =>
        toast(
          weeklyReviewDay === null
            ? { title: 'Weekly review off', description: 'Haven will not offer a weekly review.' }
            : {
                title: 'Weekly review set',
                description: `Haven will offer your weekly review every ${REVIEW_DAYS[weeklyReviewDay]}.`,
              },
        ),
      onError: (error) =>
        toast({
          title: 'Failed to update settings',
          description: getErrorMessage(error, 'Failed to update preferences'),
          variant: 'destructive',
        }),
    },
  });
  const day = preferences.data?.weeklyReviewDay;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <label htmlFor={id}>Weekly review</label>
        </CardTitle>
        <CardDescription id={`${id}-description`}>
          On this day your home screen offers a conversation with the assistant about your week: what you
          wrote, your mood, open suggestions and next week&apos;s invitations.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.isPending ? (
          <Spinner className="flex justify-center py-2" label="Loading preferences" />
        ) : (
          <select
            id={id}
            aria-describedby={`${id}-description`}
            className="h-11 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            value={day === null || day === undefined ? OFF : String(day)}
            disabled={!preferences.data}
            onChange={(event) =>
              update.mutate({
                weeklyReviewDay: event.target.value === OFF ? null : Number(event.target.value),
              })
            }
          >
            {REVIEW_DAYS.map((name, index) => (
              <option key={name} value={index}>
                {name}
              </option>
            ))}
            <option value={OFF}>Off</option>
          </select>
        )}
      </CardContent>
    </Card>
  );
}
