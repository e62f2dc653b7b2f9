import { weekToReview } from '@haven/contracts/weekly-review';
import {
  StartWeeklyReviewButton,
  WeeklyReviewCard,
} from '@/features/assistant/components/weekly-review-card';
import { InsightsView } from '@/features/insights/components/insights-view';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { getThoughtsByIdsQueryOptions } from '@/features/thoughts/api/get-thoughts-by-ids';
import { todayYmd } from '@/lib/local-day';

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
