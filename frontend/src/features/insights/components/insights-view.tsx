import type { InsightRange } from '@haven/contracts/insights';
import { CalendarDays } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { todayYmd } from '@/lib/local-day';
import { useDeferredQuery } from '@/lib/deferred-query';
import { useInsight } from '../api/get-insight';
import { useRefreshWithSpinner } from '../hooks/use-refresh-with-spinner';
import type { CitedThoughtsQuery, ConfirmActions } from './insight-content';
import { InsightCard } from './insight-card';
import { PeriodNav } from './period-nav';
import { SelectDateDialog, type DaysWithThoughtsQuery } from './select-date-dialog';

const TABS: Array<[InsightRange, string]> = [
  ['day', 'Daily'],
  ['week', 'Weekly'],
  ['month', 'Monthly'],
];

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
  const [picking, setPicking] = useState(false);
  const insight = useDeferredQuery(useInsight(date, range));
  const { data, isPending, isError } = insight;
  const { refreshing, onRefresh } = useRefreshWithSpinner(date, range);

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
      <PeriodNav
        range={range}
        date={date}
        onDateChange={setDate}
        onPick={() => setPicking(true)}
        latestReasonId={latestReasonId}
      />
      <InsightCard
        query={insight}
        range={range}
        date={date}
        refreshing={refreshing}
        onRefresh={onRefresh}
        citedThoughts={citedThoughts}
        confirm={confirm}
        weeklyAction={weeklyAction}
      />
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
