import { weekToReview } from '@haven/contracts/weekly-review';
import { lazy, Suspense, useEffect, useState } from 'react';
import {
  StartWeeklyReviewButton,
  WeeklyReviewCard,
} from '@/features/assistant/components/weekly-review-card';
import { whenSignedIn } from '@/app/routes/app/prefetch';
import { getInsightQueryOptions } from '@/features/insights/api/get-insight';
import { InsightsView } from '@/features/insights/components/insights-view';
import { getPreferencesQueryOptions, usePreferences } from '@/features/settings/api/get-preferences';
import { getThoughtsByDayQueryOptions } from '@/features/thoughts/api/get-thoughts-by-day';
import { getThoughtsByIdsQueryOptions } from '@/features/thoughts/api/get-thoughts-by-ids';
import { getThoughtsRange, getThoughtsRangeQueryKey } from '@/features/thoughts/api/get-thoughts-range';
import { todayYmd } from '@/lib/local-day';
import { queryClient } from '@/lib/query-client';

// The day's cards (and the Markdown renderer behind them) load once the insight has drawn.
const HomeDayThoughts = lazy(() =>
  import('@/app/routes/app/home-day-thoughts').then((m) => ({ default: m.HomeDayThoughts })),
);

/**
 * What the screen first shows: today's insight (InsightsView opens on the day) and the preferences,
 * then today's thoughts, whose list draws after the insight.
 */
export function prefetch() {
  whenSignedIn(() => {
    void queryClient.prefetchQuery(getInsightQueryOptions(todayYmd(), 'day'));
    void queryClient.prefetchQuery(getPreferencesQueryOptions());
    void queryClient.prefetchQuery(getThoughtsByDayQueryOptions(todayYmd()));
  });
}

/** True once `ready` has held and the browser has had an idle moment after drawing; then stays true. */
function useAfterIdle(ready: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!ready || idle) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 1000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 200);
    return () => clearTimeout(timer);
  }, [ready, idle]);
  return idle;
}

/** The day's thoughts, drawn once the insight above them has (`settled`) and the browser is idle. */
function LaterDayThoughts({
  settled,
  ...props
}: { settled: boolean } & Parameters<typeof HomeDayThoughts>[0]) {
  const ready = useAfterIdle(settled);
  return ready ? (
    <Suspense fallback={null}>
      <HomeDayThoughts {...props} />
    </Suspense>
  ) : null;
}

/**
 * The insights tab, reached at both /home and /insights. On the user's weekly review day it offers
 * the review of the week; a ready weekly insight always does. The Daily tab lists the day's thoughts
 * under the insight, so a thought just saved shows on the first screen.
 */
export function InsightsRoute() {
  const preferences = usePreferences().data;
  const reviewDay = preferences?.weeklyReviewDay;
  const today = todayYmd();
  const reviewToday = reviewDay !== null && reviewDay !== undefined && new Date().getDay() === reviewDay;
  const confirm = {
    emails: preferences?.askBeforeEmails ?? true,
    events: preferences?.askBeforeCalendarEvents ?? true,
  };
  return (
    <InsightsView
      citedThoughts={getThoughtsByIdsQueryOptions}
      confirm={confirm}
      banner={reviewToday ? <WeeklyReviewCard date={weekToReview(today)} /> : null}
      weeklyAction={(date) => (
        <StartWeeklyReviewButton date={date} label="Review this week with the assistant" variant="outline" />
      )}
      dayThoughts={(date, settled) => (
        <LaterDayThoughts settled={settled} date={date} today={today} confirm={confirm} />
      )}
      daysWithThoughts={(start, end) => ({
        queryKey: getThoughtsRangeQueryKey(start, end),
        queryFn: () => getThoughtsRange(start, end),
      })}
    />
  );
}
