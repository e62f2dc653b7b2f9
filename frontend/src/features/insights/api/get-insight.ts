import { insightsContract, type Insight, type InsightRange } from '@haven/contracts/insights';
import { HttpError } from '@haven/contracts/client';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';
import { periodStart } from '../lib/periods';

export const insightKeys = {
  all: ['insights'] as const,
  period: (range: InsightRange, start: string) => ['insights', range, start] as const,
};

/** What the insights call answers: the insight, or that it is being generated (202). */
export type InsightResult = { state: 'ready'; insight: Insight } | { state: 'pending' } | { state: 'empty' };

/** The insight of the period holding `date`: 202 while generating, 404 when the period has no thoughts. */
export async function getInsight(date: string, range: InsightRange): Promise<InsightResult> {
  try {
    const answer = await api(insightsContract.get, { query: { date, range }, noCache: true });
    if ('summary' in answer) return { state: 'ready', insight: answer };
    return { state: 'pending' };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { state: 'empty' };
    throw new Error('Failed to fetch insights', { cause: error });
  }
}

/** Polls about every second while the insight is generating; stops on an answer, an error or unmount. */
export function getInsightQueryOptions(date: string, range: InsightRange) {
  return queryOptions({
    queryKey: insightKeys.period(range, periodStart(range, date)),
    queryFn: () => getInsight(date, range),
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 1000 : false),
  });
}

export function useInsight(date: string, range: InsightRange) {
  return useQuery(getInsightQueryOptions(date, range));
}
