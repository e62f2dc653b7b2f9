import type { InsightRange } from '@haven/contracts/insights';
import type { UseQueryResult } from '@tanstack/react-query';
import { Lock, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';

import { SaveToNotionButton } from '@/components/actions/save-to-notion';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { QueryError } from '@/components/ui/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import type { InsightResult } from '../api/get-insight';
import { insightPage } from '../lib/insight-page';
import { InsightContent, type CitedThoughtsQuery, type ConfirmActions } from './insight-content';

interface InsightCardProps {
  /** The period's insight, as drawn (deferred). */
  query: UseQueryResult<InsightResult, Error>;
  range: InsightRange;
  date: string;
  refreshing: boolean;
  onRefresh: () => Promise<void>;
  citedThoughts: CitedThoughtsQuery;
  confirm: ConfirmActions;
  /** Shown under a ready weekly insight, for the week containing `date`. */
  weeklyAction?: (date: string) => ReactNode;
}

/** The insight's card: its engine, Refresh, Save to Notion, the insight (or why there is none) and the privacy note. */
export function InsightCard(props: InsightCardProps) {
  const { query, refreshing, onRefresh } = props;
  const { data } = query;
  return (
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
        <InsightBody {...props} />
        <p className="flex items-start gap-2 border-t pt-3 text-xs text-muted-foreground">
          <Lock aria-hidden className="mt-0.5 size-3.5 shrink-0" />
          Generated from your encrypted thoughts and visible only to you.
        </p>
      </CardContent>
    </Card>
  );
}

/** The insight itself, or loading, the error, generating, too few thoughts or a failed generation. */
function InsightBody({
  query,
  range,
  date,
  refreshing,
  onRefresh,
  citedThoughts,
  confirm,
  weeklyAction,
}: InsightCardProps) {
  if (query.isPending || refreshing)
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    );
  if (query.isError) return <QueryError message="Failed to fetch insights" onRetry={query.refetch} />;
  const { data } = query;
  if (data.state === 'pending')
    return (
      <div className="flex items-center gap-3 py-4 text-sm text-muted-foreground" role="status">
        <Spinner size="sm" /> Generating insights…
      </div>
    );
  if (data.state === 'empty')
    return (
      <p className="py-4 text-sm text-muted-foreground">
        Not enough thoughts recorded to generate meaningful insights.
      </p>
    );
  if (data.insight.status === 'failed')
    return (
      <div className="flex flex-col items-start gap-2 py-2">
        <p className="text-sm">These insights could not be generated.</p>
        <Button size="sm" onClick={() => void onRefresh()}>
          Try again
        </Button>
      </div>
    );
  return (
    <>
      <InsightContent insight={data.insight} citedThoughts={citedThoughts} confirm={confirm} />
      {range === 'week' && weeklyAction?.(date)}
    </>
  );
}
