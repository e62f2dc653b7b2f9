import type { InsightRange } from '@haven/contracts/insights';
import { CalendarDays, ChevronLeft, ChevronRight, Lock, RefreshCw } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { SaveToNotionButton } from '@/components/actions/save-to-notion';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';
import { todayYmd } from '@/lib/local-day';
import { useDeferredQuery } from '@/lib/deferred-query';
import { useInsight } from '../api/get-insight';
import { useRefreshInsight } from '../api/refresh-insight';
import { insightPage } from '../lib/insight-page';
import { isLatestPeriod, LATEST_PERIOD_REASON, periodLabel, shiftPeriod } from '../lib/periods';
import { InsightContent, type CitedThoughtsQuery, type ConfirmActions } from './insight-content';
import { SelectDateDialog, type DaysWithThoughtsQuery } from './select-date-dialog';

const TABS: Array<[InsightRange, string]> = [
  ['day', 'Daily'],
  ['week', 'Weekly'],
  ['month', 'Monthly'],
];
/** Spec 9: the refresh spinner shows at least this long. */
const REFRESH_SPINNER_MS = 800;

/**
 * The insights page: Daily / Weekly / Monthly, period navigation, refresh, and the insight itself.
 * The app passes in what belongs to other features: the query resolving cited thoughts, the
 * user's confirmation preferences, a banner under the title and what a ready weekly insight offers
 * (the weekly review), the selected day's thoughts and which days have thoughts.
 */
export function InsightsView({
  citedThoughts,
  confirm,
  banner,
  weeklyAction,
  dayThoughts,
  daysWithThoughts,
}: {
  citedThoughts: CitedThoughtsQuery;
  confirm: ConfirmActions;
  banner?: ReactNode;
  /** Shown under a ready weekly insight, for the week containing `date`. */
  weeklyAction?: (date: string) => ReactNode;
  /**
   * The thoughts of `date`, under the Daily insight. `settled` says the insight has drawn in full
   * (not still generating), so the list can wait for it and keep off the screen's first render.
   */
  dayThoughts?: (date: string, settled: boolean) => ReactNode;
  /** Marks the days with thoughts in the Select Date calendar. */
  daysWithThoughts?: DaysWithThoughtsQuery;
}) {
  const [range, setRange] = useState<InsightRange>('day');
  const [date, setDate] = useState(todayYmd);
  const latestReasonId = useId();
  const latest = isLatestPeriod(range, date, todayYmd());
  const [picking, setPicking] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const { data, isPending, isError, refetch } = useDeferredQuery(useInsight(date, range));
  const refresh = useRefreshInsight();

  async function onRefresh() {
    setRefreshing(true);
    const minimum = new Promise((r) => setTimeout(r, REFRESH_SPINNER_MS));
    try {
      await refresh.mutateAsync({ date, range });
    } catch {
      toast({ title: 'Failed to fetch insights', variant: 'destructive' });
    }
    await minimum;
    setRefreshing(false);
  }

  const label = periodLabel(range, date);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Insights</h1>
        <Link
          to={paths.timeline.getHref()}
          className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'gap-2')}
        >
          <CalendarDays aria-hidden className="size-4" />
          All Thoughts
        </Link>
      </div>
      {banner}
      <Tabs value={range} onValueChange={(v) => setRange(v as InsightRange)}>
        <TabsList className="w-full">
          {TABS.map(([value, text]) => (
            <TabsTrigger key={value} value={value} className="flex-1">
              {text}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Previous period"
          onClick={() => setDate(shiftPeriod(range, date, -1))}
        >
          <ChevronLeft aria-hidden />
        </Button>
        {range === 'day' ? (
          <button
            type="button"
            onClick={() => setPicking(true)}
            className="min-h-11 min-w-11 truncate px-2 text-sm font-medium hover:underline"
            aria-label={`${label}: select date`}
          >
            {label}
          </button>
        ) : (
          <span className="truncate text-sm font-medium">{label}</span>
        )}
        <Button
          variant="ghost"
          size="icon"
          aria-label="Next period"
          // Later periods have no thoughts yet: Next stops at the current day, week or month.
          disabled={latest}
          aria-describedby={latest ? latestReasonId : undefined}
          onClick={() => setDate(shiftPeriod(range, date, 1))}
        >
          <ChevronRight aria-hidden />
        </Button>
        {latest && (
          <span id={latestReasonId} className="sr-only">
            {LATEST_PERIOD_REASON[range]}
          </span>
        )}
      </div>
      <Card>
        <CardContent className="flex flex-col gap-4 pt-5">
          <div className="flex items-center justify-between gap-2">
            {data?.state === 'ready' && data.insight.engine === 'basic' ? (
              <span className="rounded-full bg-muted px-2.5 py-1 text-xs text-muted-foreground">
                Basic insight, made on this server without AI
              </span>
            ) : (
              <span />
            )}
            <Button variant="outline" size="sm" onClick={() => void onRefresh()} disabled={refreshing}>
              <RefreshCw aria-hidden className={cn(refreshing && 'animate-spin')} />
              Refresh Insights
            </Button>
          </div>
          {data?.state === 'ready' && data.insight.status === 'ready' && !refreshing ? (
            <SaveToNotionButton className="self-start" page={() => insightPage(data.insight)} />
          ) : null}
          {isPending || refreshing ? (
            <div className="flex flex-col gap-2" aria-busy="true">
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-5/6" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          ) : isError ? (
            <QueryError message="Failed to fetch insights" onRetry={refetch} />
          ) : data.state === 'pending' ? (
            <div className="flex items-center gap-3 py-4 text-sm text-muted-foreground" role="status">
              <Spinner size="sm" /> Generating insights…
            </div>
          ) : data.state === 'empty' ? (
            <p className="py-4 text-sm text-muted-foreground">
              Not enough thoughts recorded to generate meaningful insights.
            </p>
          ) : data.insight.status === 'failed' ? (
            <div className="flex flex-col items-start gap-2 py-2">
              <p className="text-sm">These insights could not be generated.</p>
              <Button size="sm" onClick={() => void onRefresh()}>
                Try again
              </Button>
            </div>
          ) : (
            <>
              <InsightContent insight={data.insight} citedThoughts={citedThoughts} confirm={confirm} />
              {range === 'week' && weeklyAction?.(date)}
            </>
          )}
          <p className="flex items-start gap-2 border-t pt-3 text-xs text-muted-foreground">
            <Lock aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            Generated from your encrypted thoughts and visible only to you.
          </p>
        </CardContent>
      </Card>
      {range === 'day' && dayThoughts?.(date, isError || (!isPending && data.state !== 'pending'))}
      <SelectDateDialog
        key={date}
        open={picking}
        onOpenChange={setPicking}
        date={date}
        onSelect={setDate}
        daysWithThoughts={daysWithThoughts}
      />
    </div>
  );
}
