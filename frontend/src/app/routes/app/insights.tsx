import { weekToReview } from '@haven/contracts/weekly-review';
import {
  StartWeeklyReviewButton,
  WeeklyReviewCard,
} from '@/features/assistant/components/weekly-review-card';
import { whenSignedIn } from '@/app/routes/app/prefetch';
import { getInsightQueryOptions } from '@/features/insights/api/get-insight';
import { InsightsView } from '@/features/insights/components/insights-view';
import { getPreferencesQueryOptions, usePreferences } from '@/features/settings/api/get-preferences';
import { getThoughtsByIdsQueryOptions } from '@/features/thoughts/api/get-thoughts-by-ids';
import { todayYmd } from '@/lib/local-day';
import { queryClient } from '@/lib/query-client';

/** What the screen first shows: today's insight (InsightsView opens on the day) and the preferences. */
export function prefetch() {
  whenSignedIn(() => {
    void queryClient.prefetchQuery(getInsightQueryOptions(todayYmd(), 'day'));
    void queryClient.prefetchQuery(getPreferencesQueryOptions());
  });
}

/**
 * The insights tab, reached at both /home and /insights. On the user's weekly review day it offers
 * the review of the week; a ready weekly insight always does.
 */
export function InsightsRoute() {
  const preferences = usePreferences().data;
  const reviewDay = preferences?.weeklyReviewDay;
  const today = todayYmd();
  const reviewToday = reviewDay !== null && reviewDay !== undefined && new Date().getDay() === reviewDay;
  return (
    <InsightsView
      citedThoughts={getThoughtsByIdsQueryOptions}
      confirm={{
        emails: preferences?.askBeforeEmails ?? true,
        events: preferences?.askBeforeCalendarEvents ?? true,
      }}
      banner={reviewToday ? <WeeklyReviewCard date={weekToReview(today)} /> : null}
      weeklyAction={(date) => (
        <StartWeeklyReviewButton date={date} label="Review this week with the assistant" variant="outline" />
      )}
    />
  );
}
